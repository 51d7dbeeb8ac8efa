package store

import (
	"fmt"
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

// Written many rows a statement, a table's lines give what one INSERT a
// line gives: the same rows, or the same first fault, named by its line —
// lines of random values (ids out of order) with now and then a line that
// does not read, a value of the wrong type, a repeated id or a repeated
// unique value, at any place of a statement of 256 rows.
func TestRestoreRowsInBulkIsOneByOne(t *testing.T) {
	s := openTemp(t)
	if _, err := s.DB().Exec(`CREATE TABLE bulk(id INTEGER PRIMARY KEY, n INTEGER UNIQUE, x TEXT NOT NULL, r REAL)`); err != nil {
		t.Fatal(err)
	}
	tb, err := tableInfo(s.DB(), "bulk")
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.useManifest(tb.Columns); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(31, 4))
	faults := []func(id int) string{
		func(id int) string { return `{"id":` + fmt.Sprint(id) + `,"n":null,"x":"a",` },
		func(id int) string { return fmt.Sprintf(`{"id":%d,"n":null,"x":null,"r":null}`, id) },
		func(id int) string { return fmt.Sprintf(`{"id":%d,"n":"seven","x":"a","r":null}`, id) },
		func(int) string { return `{"id":1,"n":null,"x":"again","r":null}` },
		func(id int) string { return fmt.Sprintf(`{"id":%d,"n":3,"x":"a","r":null}`, id) },
	}
	dump := func(tx *wtx) string {
		var b strings.Builder
		err := eachRow(tx, "SELECT quote(id) || quote(n) || quote(x) || quote(r) FROM bulk ORDER BY id", nil, func(sc func(...any) error) error {
			var v string
			err := sc(&v)
			b.WriteString(v + "\n")
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	outcomes := map[bool]int{}
	for round := range 60 {
		var lines [][]byte
		for i, id := range rng.Perm(1 + rng.IntN(1200)) {
			line := fmt.Sprintf(`{"id":%d,"n":%d,"x":"row %d","r":%g}`, id+1, i, i, rng.Float64())
			if i == 0 {
				line = fmt.Sprintf(`{"id":%d,"n":3,"x":"first","r":null}`, id+1)
			} else if i == 3 {
				line = fmt.Sprintf(`{"id":%d,"n":null,"x":"fourth","r":null}`, id+1)
			} else if rng.IntN(1500) == 0 {
				line = faults[rng.IntN(len(faults))](id + 1)
			}
			lines = append(lines, []byte(line))
		}
		var got [2]string
		for i, per := range []int{bulkRows, 1} {
			err := s.write(func(tx *wtx) error {
				n, err := restoreRows(tx, tb, func(yield func([]byte, error) bool) {
					for _, l := range lines {
						if !yield(l, nil) {
							return
						}
					}
				}, per)
				got[i] = fmt.Sprintf("%d rows, %v\n%s", n, err, dump(tx))
				if err != nil {
					got[i] = fmt.Sprintf("%v", err)
				}
				return errRollback
			})
			if err != errRollback {
				t.Fatal(err)
			}
		}
		if got[0] != got[1] {
			t.Errorf("round %d: %d rows a statement:\n%.300s\none a line:\n%.300s", round, bulkRows, got[0], got[1])
		}
		outcomes[strings.Contains(got[1], "rows, <nil>")]++
	}
	if outcomes[true] < 10 || outcomes[false] < 10 {
		t.Errorf("outcomes %v: want whole tables and faults both often", outcomes)
	}
}
