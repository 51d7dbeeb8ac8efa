package jsontext

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// The reference is encoding/json: every string, as a string and as bytes,
// is written byte for byte as Marshal writes it.
func TestAppendStringIsEncodingJSON(t *testing.T) {
	cases := []string{"", "plain", "é à ü", "tab\there\r\n", "\x00\x01\x1f\x7f", `q"uo\te`, "<a href='x'>&amp;</a>",
		"line\u2028sep\u2029", "emoji 🧑‍⚖️", "bad \xff\xfe utf8 \xc3", "cut \xe2\x80", "Article 6(1)(f) — « loi »", "\u0085\u202e\ufeff"}
	// Random strings over the characters that matter: every escape,
	// every length of rune, broken runes, at every position.
	alphabet := []string{"a", "\"", "\\", "\n", "\r", "\t", "\x00", "\x1f", "\x7f", "<", ">", "&", "é", "€", "🧑",
		"\u2028", "\u2029", "\xff", "\xe2\x80", "\xc3", "\xed\xa0\x80"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var b []byte
		for range r.IntN(12) {
			b = append(b, alphabet[r.IntN(len(alphabet))]...)
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendString([]byte("x"), s); !bytes.Equal(got[1:], want) || got[0] != 'x' {
			t.Errorf("%q: %s, want x%s", s, got, want)
		}
		if got := AppendString(nil, []byte(s)); !bytes.Equal(got, want) {
			t.Errorf("%q as bytes: %s, want %s", s, got, want)
		}
		// The same without HTML escapes: an Encoder after SetEscapeHTML(false).
		var enc bytes.Buffer
		e := json.NewEncoder(&enc)
		e.SetEscapeHTML(false)
		if err := e.Encode(s); err != nil {
			t.Fatal(err)
		}
		wantRaw := bytes.TrimSuffix(enc.Bytes(), []byte("\n"))
		if got := AppendStringNoHTML(nil, s); !bytes.Equal(got, wantRaw) {
			t.Errorf("%q without HTML escapes: %s, want %s", s, got, wantRaw)
		}
	}
}

func TestListsAreEncodingJSON(t *testing.T) {
	for _, v := range [][]string{nil, {}, {""}, {"a", "<b>", "\xff"}} {
		want := "[]"
		if len(v) > 0 {
			b, _ := json.Marshal(v)
			want = string(b)
		}
		if got := Strings(v); got != want {
			t.Errorf("Strings(%q) = %s, want %s", v, got, want)
		}
	}
	for _, v := range [][]int64{nil, {0}, {1, -2, 9223372036854775807, -9223372036854775808}} {
		want := "[]"
		if len(v) > 0 {
			b, _ := json.Marshal(v)
			want = string(b)
		}
		if got := Ints(v); got != want {
			t.Errorf("Ints(%v) = %s, want %s", v, got, want)
		}
	}
}

// The reason AppendString exists: a backup writes every text of the
// database through it.
func BenchmarkAppendString(b *testing.B) {
	s := "Article 6(1)(f) GDPR: processing is lawful where necessary for the purposes of the legitimate interests <pursued> by the controller & a third party."
	b.Run("jsontext", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, 256)
		for b.Loop() {
			buf = AppendString(buf[:0], s)
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = json.Marshal(s)
		}
	})
}
