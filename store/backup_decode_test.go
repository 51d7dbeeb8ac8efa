package store

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// decodeTable has a column of each type a backup holds, NOT NULL or not.
func decodeTable(t *testing.T) BackupTable {
	t.Helper()
	s := openTemp(t)
	if _, err := s.DB().Exec(`CREATE TABLE dec(id INTEGER PRIMARY KEY, n INTEGER, r REAL, x TEXT NOT NULL, y TEXT, b BLOB, a)`); err != nil {
		t.Fatal(err)
	}
	tb, err := tableInfo(s.DB(), "dec")
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.useManifest(tb.Columns); err != nil {
		t.Fatal(err)
	}
	return tb
}

// decodeValues are values of every kind the columns may hold.
var decodeValues = []any{nil, int64(0), int64(-0), int64(7), int64(-42), int64(math.MaxInt64), int64(math.MinInt64),
	0.5, -2.5e-7, 1e300, 5e-324, 2.0, 1e20, 0.30000000000000004,
	"", "plain", "a\x00b", "\b\f\x01\x1f\x7f", `q"uo\te \u00e9`, "bad \xff\xfe utf8 \xc3", `[1,"x"]`, "null",
	"<a>&\u2028\u2029 é 🧑‍⚖️", "line\nbreak\ttab\r", "Article 6(1)(f) — « loi »", []byte{0, 1, 255}}

// mangles are the bytes a mangled line gets: JSON's own, spaces, digits,
// escapes and the halves of a UTF-8 character.
var mangles = []string{"{", "}", "[", "]", `"`, ",", ":", `\`, " ", "\t", "0", "1", "9", "-", "+", ".", "e", "E",
	"n", "null", "true", `\u00e9`, `\ud83d\ude00`, `\ud83d`, `\/`, `\x`, `\u12`, "\xc3", "\xa9", "\x00", "\n",
	`"id":1,`, `,"n":2`, `{"base64":"AAH/"}`, "01", "1e", "1.", ".5", "-0", "1e400", "99999999999999999999"}

// The fast read of a line gives decodeRow's values whenever it reads the
// line at all, and reads every line the exporter writes but a blob's:
// lines written by appendBackupRow from every kind of value, then mangled
// at random (a byte inserted, deleted or replaced, keys swapped).
func TestFastRowIsDecodeRow(t *testing.T) {
	tb := decodeTable(t)
	d, err := newLineDecoder(tb)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(31, 2))
	// pick is a value of the column's type, one time in ten any value.
	pick := func(typ string, notNull bool) any {
		for {
			v := decodeValues[rng.IntN(len(decodeValues))]
			if rng.IntN(10) == 0 || checkType(v, typ, notNull) == "" {
				return v
			}
		}
	}
	fast, mangled, checked := 0, 0, 0
	for i := range 40000 {
		vals := []any{int64(i)}
		for j := 1; j < len(tb.Columns); j++ {
			vals = append(vals, pick(tb.types[j], tb.notNull[j]))
		}
		line, err := appendBackupRow(nil, tb.Name, tb.Columns, vals)
		if err != nil {
			t.Fatal(err)
		}
		s := string(line)
		if i%4 != 0 {
			for range 1 + rng.IntN(3) {
				at := rng.IntN(len(s) + 1)
				switch rng.IntN(4) {
				case 0:
					s = s[:at] + mangles[rng.IntN(len(mangles))] + s[at:]
				case 1:
					if at < len(s) {
						s = s[:at] + s[at+1:]
					}
				case 2:
					if at < len(s) {
						s = s[:at] + mangles[rng.IntN(len(mangles))] + s[at+1:]
					}
				case 3:
					s = strings.Replace(s, `"x":`, `"y":`, 1)
				}
			}
		}
		got := make([]any, len(d.cols))
		if !d.fastRow([]byte(s), got) {
			if i%4 == 0 && !hasBlob(vals) && decodeOK(tb, vals) {
				t.Errorf("the fast read declines the exporter's line %s", s)
			}
			continue
		}
		fast++
		if i%4 != 0 {
			mangled++
		}
		cols, want, err := decodeRow(tb, 1, []byte(s))
		if err != nil {
			t.Errorf("%s: the fast read gives %#v, decodeRow %v", s, got, err)
			continue
		}
		checked++
		wantBy := map[string]any{}
		for j, c := range cols {
			wantBy[c] = want[j]
		}
		for j, c := range d.cols {
			if !reflect.DeepEqual(got[j], wantBy[c]) {
				t.Errorf("%s: %s is %#v read fast, %#v by decodeRow", s, c, got[j], wantBy[c])
			}
		}
	}
	// Mangled lines the fast read takes: a digit or a letter of a text
	// changed, a key of the other text column.
	if mangled < 1000 || checked != fast {
		t.Errorf("%d lines read fast (%d of them mangled), %d checked", fast, mangled, checked)
	}
}

func hasBlob(vals []any) bool {
	for _, v := range vals {
		if _, ok := v.([]byte); ok {
			return true
		}
	}
	return false
}

// decodeOK: the values fit their columns (decodeRow would take them).
func decodeOK(tb BackupTable, vals []any) bool {
	for i, v := range vals {
		if checkType(v, tb.types[i], tb.notNull[i]) != "" {
			return false
		}
	}
	return true
}

// A line the fast read declines gets decodeRow's error, word for word.
func TestFastRowDeclinesToDecodeRow(t *testing.T) {
	tb := decodeTable(t)
	d, err := newLineDecoder(tb)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		`{"id":1,"n":"two","r":null,"x":"","y":null,"b":null,"a":null}`,
		`{"id":1,"n":null,"r":null,"x":null,"y":null,"b":null,"a":null}`,
		`{"id":1,"n":null,"r":null,"x":"","y":null,"b":null}`,
		`{"id":1,"n":null,"r":null,"x":"","y":null,"b":null,"a":null,"z":1}`,
		`{"id":1,"n":01,"r":null,"x":"","y":null,"b":null,"a":null}`,
		`{"id":1,"n":99999999999999999999,"r":null,"x":"","y":null,"b":null,"a":null}`,
		`{"id":1,"n":null,"r":true,"x":"","y":null,"b":null,"a":null}`,
		`{"id":1,"n":null,"r":null,"x":"","y":null,"b":{"hex":"00"},"a":null}`,
		`{"id":1.5,"n":null,"r":null,"x":"","y":null,"b":null,"a":null}`,
	} {
		vals := make([]any, len(d.cols))
		_, _, want := decodeRow(tb, 3, []byte(line))
		got := d.decode(3, []byte(line), vals)
		if want == nil || got == nil || got.Error() != want.Error() {
			t.Errorf("%s: %v, want decodeRow's %v", line, got, want)
		}
	}
}
