package jsontext

import (
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// The reference is encoding/json's Unmarshal of the quoted body: where it
// reads a string, Unescape gives the same string; where it refuses,
// Unescape says no.
func checkUnescape(t *testing.T, body string) {
	t.Helper()
	var want string
	err := json.Unmarshal([]byte(`"`+body+`"`), &want)
	got, ok := Unescape([]byte(body))
	fromString, okString := AppendUnescapedString([]byte("x"), body)
	if ok != okString || ok && "x"+got != string(fromString) {
		t.Fatalf("%q: as bytes %q %v, as a string %q %v", body, got, ok, fromString, okString)
	}
	switch {
	case err != nil && ok:
		t.Fatalf("%q: Unescape read %q, encoding/json refuses it: %v", body, got, err)
	case err == nil && !ok:
		t.Fatalf("%q: Unescape refuses what encoding/json reads as %q", body, want)
	case err == nil && utf8.ValidString(body) && got != want:
		t.Fatalf("%q: Unescape read %q, encoding/json %q", body, got, want)
	case err == nil && !utf8.ValidString(body):
		// Bytes of invalid UTF-8 are copied as they are; written again by
		// AppendString, they read as encoding/json reads them.
		var again string
		if err := json.Unmarshal(AppendString(nil, got), &again); err != nil || again != want {
			t.Fatalf("%q: Unescape read %q, written again %q, encoding/json %q", body, got, again, want)
		}
	}
}

// unescapePieces are what a string's body is built of: every escape,
// surrogate pairs whole, halved and reversed, bad escapes, control
// characters, quotes, runes of every length and broken ones.
var unescapePieces = []string{"a", "Article 6(1)(f) ", "of the controller or by a third party, except where ", "é", "€", "🧑", `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`,
	`\u0000`, `\u001f`, `\u00e9`, `\u20AC`, `\uFFFD`, `\ud83e\uddd1`, `\ud83e`, `\uddd1`, `\uddd1\ud83e`, `\ud83e\u0041`, `\ud83e\n`,
	`\ud83e\ud83e\uddd1`, `\u12`, `\u12g4`, `\x41`, `\'`, `\`, `"`, "\x00", "\x1f", "\x7f", "\xff", "\xe2\x80", "\xed\xa0\x80", "u", "d83e"}

func TestUnescapeIsEncodingJSON(t *testing.T) {
	// Every body encoding/json writes reads back as its string.
	for _, s := range []string{"", "plain", "tab\there\r\n", "\x00\x01\x1f\x7f", `q"uo\te`, "<a>&amp;</a>", "line\u2028sep", "emoji 🧑‍⚖️", "bad \xff utf8"} {
		raw, _ := json.Marshal(s)
		checkUnescape(t, string(raw[1:len(raw)-1]))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var body []byte
		for range r.IntN(8) {
			body = append(body, unescapePieces[r.IntN(len(unescapePieces))]...)
		}
		checkUnescape(t, string(body))
	}
}

func FuzzUnescape(f *testing.F) {
	for _, p := range unescapePieces {
		f.Add(p)
	}
	f.Fuzz(checkUnescape)
}

// BenchmarkUnescape reads 64 KiB of legal text with an escape every 40
// bytes or so.
func BenchmarkUnescape(b *testing.B) {
	var body []byte
	for len(body) < 64<<10 {
		body = append(body, `Article 6(1)(f) \u2014 \u00ab loi \u00bb says \"legitimate interests\"\nof the controller, `...)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := Unescape(body); !ok {
			b.Fatal("refused")
		}
	}
}

// stopMask finds the first stop of eight bytes as a byte-wise look does.
func TestStopMaskIsStops(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	near := []byte{0x00, 0x1f, 0x20, 0x21, '"', '#', '\\', '[', ']', 0x7f, 0x80, 0x9f, 0xa0, 0xdc, 0xff}
	for range 200000 {
		var w [8]byte
		for k := range w {
			if r.IntN(3) == 0 {
				w[k] = near[r.IntN(len(near))]
			} else {
				w[k] = byte(r.IntN(256))
			}
		}
		want := 8
		for k, c := range w {
			if stops[c] {
				want = k
				break
			}
		}
		got := 8
		if m := stopMask(binary.LittleEndian.Uint64(w[:])); m != 0 {
			got = bits.TrailingZeros64(m) / 8
		}
		if got != want {
			t.Fatalf("% x: stopMask finds byte %d, byte by byte %d", w, got, want)
		}
	}
}
