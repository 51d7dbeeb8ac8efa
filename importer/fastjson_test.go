package importer

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// fastJSONSeeds are records the fast path must read as encoding/json does,
// or leave to it.
var fastJSONSeeds = []string{
	`{}`, ` { } `, `[]`, `[ ]`, `null`, `"x"`, `1`, `{"a":1}`, `{"a":"b","a":"c"}`,
	`{"id":"gdpr-1","source":"GDPR","contexts":[{"id":"p","text":"T."}],"claims":[{"triplet":["a","b","c"],"labels":{"jo":{"claim_validity":"correct"}}}]}`,
	"{\"a\" : [1, -2.5e+3, 0, -0, 1E9, true, false, null, {\"b\": []}]\t,\r\n\"c\":\"d\"}",
	`{"a":"caf\u00e9 \"q\" \\ \/ \n"}`, `{"\u0061":1}`, `{"a":"é ✓ 𝄞"}`, `["x","y",["z"]]`,
	// Not JSON, or not all of it.
	`{"a":1,}`, `{"a" 1}`, `{"a":1}}`, `{"a":1} x`, `{a:1}`, `{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":-}`, `{"a":1e}`,
	`{"a":tru}`, `{"a":nul}`, `{"a":"x`, `{"a":"\x"}`, `{"a":"\u12"}`, "{\"a\":\"\x01\"}", `[1,]`, `[,1]`, `[1 2]`,
	// Duplicate keys, found alike on both paths.
	"{\"a\":1, \"b\":2 ,\n \"a\":3}", `{"\u0061":1,"a":2}`, `{"a":1,"\u0061":2}`, `{"":"","":[],"":[]}`, `{"a":{"b":1,"b":2}}`, `{"x":[{"k":1,"k":1}],"y":"z","y":"z"}`,
	`{"a":[}`, `{"a":{"b":1}`, `{"a":"` + "\xff" + `"}`, `{"a":1,"b"}`, ` `, ``, `{"a":NaN}`, `{"a":+1}`, `["\ud800"]`,
	// Strings with escapes, read by quickString: surrogate pairs and their
	// halves alone or out of order, every short escape.
	`"\ud834\udd1e"`, `"\ud834"`, `"\udd1e\ud834"`, `"\ud834x"`, `"\ud834\u0041"`, `"\ud834\ud834\udd1e"`, `"x\ud834\"`,
	`"\"\\\/\b\f\n\r\t\u00e9\u00E9\u0000 é"`, `"\u2028<&>"`, `"a\nb` + "\xff" + `"`, `"\uDBFF\uDFFF"`, `"\uD800\uDC00"`,
}

// TestDuplicateKeys: the first key that appears twice, where its second
// occurrence starts (offsets counted by hand), on both paths.
func TestDuplicateKeys(t *testing.T) {
	for _, c := range []struct {
		in  string
		dup string
		at  int
	}{
		{`{"a":1,"b":2}`, "", -1},
		{`{"a":1,"b":2,"a":3}`, "a", 13},
		{"{\"a\":1,\n  \"b\":2,\n  \"b\":3,\"a\":4}", "b", 19},
		{`{"\u0061":1,"a":2}`, "a", 12}, // an escape: encoding/json's path
		{`{"a":{"b":1,"b":2}}`, "", -1}, // nested: found when the inner object is read
		{`{"":"","":[],"":[]}`, "", 7},  // the empty key, the first repeat (found by fuzzing)
	} {
		_, dup, at, err := decodeObject([]byte(c.in))
		if err != nil || dup != c.dup || at != c.at {
			t.Errorf("%s: duplicate %q at %d (%v), want %q at %d", c.in, dup, at, err, c.dup, c.at)
		}
		if wantDup, wantAt := firstDuplicateKey([]byte(c.in)); wantDup != c.dup || wantAt != c.at {
			t.Errorf("%s: encoding/json path: %q at %d, want %q at %d", c.in, wantDup, wantAt, c.dup, c.at)
		}
	}
}

func FuzzFastJSON(f *testing.F) {
	for _, s := range fastJSONSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkFastJSON(t, b) })
}

// TestFastJSONAgreesWithEncodingJSON runs the seeds (go test -fuzz
// FuzzFastJSON runs more).
func TestFastJSONAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range fastJSONSeeds {
		checkFastJSON(t, []byte(s))
	}
}

func checkFastJSON(t *testing.T, b []byte) {
	var wantObj map[string]json.RawMessage
	objErr := json.Unmarshal(b, &wantObj)
	if got, ok := splitObject(b); ok {
		if objErr != nil || wantObj == nil {
			t.Fatalf("%q: fast path read an object, encoding/json: %v", b, objErr)
		}
		sameRaw(t, b, got, wantObj)
	}
	// Both paths find the same duplicate key at the same place: the fast
	// path when it reads the object, encoding/json's tokens when it does not.
	if _, dup, at, ok := splitObjectDup(b); ok {
		if wantDup, wantAt := firstDuplicateKey(b); dup != wantDup || at != wantAt {
			t.Fatalf("%q: fast path finds duplicate %q at %d, encoding/json %q at %d", b, dup, at, wantDup, wantAt)
		}
	}
	if m, dup, at, err := decodeObject(b); (err == nil && wantObj != nil) != (m != nil) {
		t.Fatalf("%q: decodeObject %v %v, encoding/json %v", b, m, err, objErr)
	} else if m != nil && at >= 0 && (at >= len(b) || b[at] != '"') {
		t.Fatalf("%q: duplicate %q placed at %d, not at a key", b, dup, at)
	}
	var wantArr []json.RawMessage
	arrErr := json.Unmarshal(b, &wantArr)
	if got, ok := splitArray(b); ok {
		if arrErr != nil || wantArr == nil || len(got) != len(wantArr) {
			t.Fatalf("%q: fast path read %d elements, encoding/json %d: %v", b, len(got), len(wantArr), arrErr)
		}
		for i := range got {
			if !bytes.Equal(compact(t, got[i]), compact(t, wantArr[i])) {
				t.Fatalf("%q: element %d: %s, want %s", b, i, got[i], wantArr[i])
			}
		}
	}
	var want string
	strErr := json.Unmarshal(b, &want)
	if got, ok := quickString(b); ok && (strErr != nil || got != want) {
		t.Fatalf("%q: fast path read %q, encoding/json %q, %v", b, got, want, strErr)
	}
	if m, ok := splitObject(b); ok {
		for _, v := range m {
			checkFastJSON(t, v)
		}
	}
}

func sameRaw(t *testing.T, b []byte, got, want map[string]json.RawMessage) {
	if len(got) != len(want) {
		t.Fatalf("%q: %d keys, want %d", b, len(got), len(want))
	}
	for k, v := range want {
		if !bytes.Equal(compact(t, got[k]), compact(t, v)) {
			t.Fatalf("%q: key %q: %s, want %s", b, k, got[k], v)
		}
	}
}

func compact(t *testing.T, raw []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		t.Fatalf("%q is not JSON: %v", raw, err)
	}
	return buf.Bytes()
}

// splitObject splits b, a JSON object, into its members (the last of
// duplicate keys wins, as encoding/json does); ok is false when b is not a
// JSON object or a key has an escape. Readers of import records use
// decodeObject, which refuses duplicate keys.
func splitObject(b []byte) (m map[string]json.RawMessage, ok bool) {
	m, _, _, ok = splitObjectDup(b)
	return m, ok
}

// BenchmarkDecodeString reads a string of 64 KiB of legal text with an
// escape every 100 bytes or so (quotes, new lines, accented letters).
func BenchmarkDecodeString(b *testing.B) {
	var text strings.Builder
	for text.Len() < 64<<10 {
		text.WriteString("Article 6(1)(f) — « loi » says \"legitimate interests\"\nof the controller, ")
	}
	raw, err := json.Marshal(text.String())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		var s string
		if err := decodeString(raw, &s); err != nil || len(s) != text.Len() {
			b.Fatal(err, len(s))
		}
	}
}
