package importer

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/annotate-dev/annotate/store"
)

// The values the content hashes are made of, and types writeJSON leaves to
// json.Marshal, filled with random strings: writeJSON writes what
// json.Marshal writes.
func TestWriteJSONIsMarshal(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 7))
	type tagged struct {
		A      string `json:"a"`
		B      int    `json:",omitempty"`
		C      string `json:"-"`
		D      []string
		E      *store.Chunk `json:"e,omitempty"`
		F      [2]uint8
		G      map[string][]string
		H      bool `json:"h,omitempty"`
		hidden string
	}
	type embedded struct { // promoted fields: json.Marshal's
		store.Chunk
		X string
	}
	type floats struct{ F float64 } // json.Marshal's
	type stringOpt struct {
		N int `json:",string"`
	} // json.Marshal's
	for i := range 400 {
		s := func() string { return randomJSONText(r, i) }
		m := func() map[string]string {
			if r.IntN(3) == 0 {
				return nil
			}
			out := map[string]string{}
			for range r.IntN(4) {
				out[s()] = s()
			}
			return out
		}
		d := store.Document{ID: s(), Source: s(), Title: s(), Text: s(), Year: r.IntN(3000) - 1000, Extra: s(), URL: s()}
		for range r.IntN(3) {
			d.Chunks = append(d.Chunks, store.Chunk{ID: s(), Start: r.IntN(100), End: r.IntN(1000)})
		}
		var chunk *store.Chunk
		if r.IntN(2) == 0 {
			chunk = &store.Chunk{ID: s()}
		}
		values := []any{
			d,
			store.Query{ID: s(), Text: s(), Persona: s(), SeedGroup: s()},
			store.GenAnswer{ID: s(), Answer: s(), Documents: []string{s(), s()}},
			tagged{A: s(), B: r.IntN(2), C: s(), D: []string{s()}, E: chunk, F: [2]uint8{uint8(r.IntN(256)), 7},
				G: map[string][]string{s(): {s()}}, H: r.IntN(2) == 0, hidden: s()},
			struct {
				Kind, ID    string
				Position    int
				Triplet     [3]string
				Predictions map[string]string
				Extractor   string `json:",omitempty"`
			}{"claim", s(), r.IntN(9), [3]string{s(), s(), s()}, m(), s()},
			[][2]string{{s(), s()}},
			s(), &d, []byte(s()), embedded{store.Chunk{ID: s()}, s()}, floats{r.Float64()}, stringOpt{r.IntN(99)},
			time.Unix(int64(r.IntN(1e9)), 0).UTC(), nil, map[string]any{s(): 1.5},
		}
		for _, v := range values {
			want, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := writeJSON(&got, v); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Fatalf("%T: writeJSON wrote\n%.300q\njson.Marshal\n%.300q", v, got.Bytes(), want)
			}
		}
	}
}

// randomJSONText is a string of the characters encoding/json escapes, of
// invalid UTF-8 (a piece of a character too), of characters of every
// length; every 50th is longer than writeJSON's buffer, with escapes where
// its pieces end.
func randomJSONText(r *rand.Rand, i int) string {
	pieces := []string{"a", " ", "<", ">", "&", `"`, `\`, "\n", "\r", "\t", "\b", "\f", "\x00", "\x1f", "\x7f",
		"é", "€", "𝄞", "\u2028", "\u2029", "\xff", "\xe2\x82", "\xed\xa0\x80", "\ufffd", "/"}
	n := r.IntN(12)
	if i%50 == 0 {
		n = 3 * jsonBuffer
	}
	var b strings.Builder
	for range n {
		if i%50 == 0 && r.IntN(10) > 0 {
			b.WriteByte('x')
			continue
		}
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

func FuzzWriteJSON(f *testing.F) {
	f.Add("caf\u00e9 <b>\"x\"</b>\n\xff\u2028", 3)
	f.Fuzz(func(t *testing.T, s string, n int) {
		v := store.Document{ID: s, Text: strings.Repeat(s, min(max(n, 0), 1000)), Year: n}
		want, _ := json.Marshal(v)
		var got bytes.Buffer
		writeJSON(&got, v)
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("writeJSON wrote %q, json.Marshal %q", got.Bytes(), want)
		}
	})
}

// A text of 16 MiB is hashed without its JSON being held: what the heap
// gains while it is hashed is writeJSON's buffer, not the text again.
func TestContentHashHoldsNoCopy(t *testing.T) {
	d := store.Document{ID: "big", Text: strings.Repeat("Le locataire <doit> \"donner\" un préavis.\n", 16<<20/42)}
	want := func() string { // the obvious hash, for the comparison
		b, _ := json.Marshal(d)
		return hashOfBytes(b)
	}()
	n := allocated(func() {
		if got := contentHash(d); got != want {
			t.Errorf("hash %s, want %s", got, want)
		}
	})
	if n > 1<<20 {
		t.Errorf("hashing a text of %d MiB allocated %.1f MiB", len(d.Text)>>20, float64(n)/(1<<20))
	}
}

func hashOfBytes(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// allocated is the number of bytes fn allocates on the heap
// (runtime/metrics: the heap's allocations, counted by the runtime).
func allocated(fn func()) uint64 {
	m := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(m)
	before := m[0].Value.Uint64()
	fn()
	metrics.Read(m)
	return m[0].Value.Uint64() - before
}
