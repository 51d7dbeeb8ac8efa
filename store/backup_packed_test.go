package store

import (
	"fmt"
	"math"
	"strconv"
	"testing"
)

// packable are values the packed read carries, whatever the column: texts
// with NUL, control bytes, quotes, backslashes, invalid UTF-8, JSON's
// separators and HTML characters (which the backup escapes, SQLite not);
// texts that look like JSON; integers at the ends of their range; NULL.
var packable = []any{nil, "", "plain", "a\x00b", "\b\f\x01\x1f\x7f", `q"uo\te \u00e9`, "bad \xff\xfe utf8 \xc3",
	`[1,"x"]`, "null", "t12:colon,comma", "<a>&\u2028 é 🧑‍⚖️", "line\nbreak\ttab\r",
	int64(0), int64(-1), int64(math.MaxInt64), int64(math.MinInt64), int64(1e15)}

// handed are values that hand a table over to the plain read: reals
// (SQLite's JSON writes 15 digits; -0.0 as 0.0), blobs (json_array refuses
// them).
var handed = []any{0.1, 1.0 / 3, 1e300, 5e-324, 2.0, math.Copysign(0, -1), 1e20, -2.5e-7, 0.30000000000000004,
	[]byte{}, []byte{0, 1, 255}, []byte("text as blob")}

// oddTable holds the values, each in a column of every affinity but REAL
// (which would make reals of the integers).
func oddTable(t *testing.T, s *Store, values []any) BackupTable {
	t.Helper()
	db := s.db
	if _, err := db.Exec(`CREATE TABLE odd(id INTEGER PRIMARY KEY, a, b INTEGER, c TEXT, d NUMERIC)`); err != nil {
		t.Fatal(err)
	}
	for i, v := range values {
		if _, err := db.Exec(`INSERT INTO odd(id, a, b, c, d) VALUES (?, ?, ?, ?, ?)`, i+1, v, v, v, v); err != nil {
			t.Fatalf("%#v: %v", v, err)
		}
	}
	tb, err := tableInfo(db, "odd")
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func collect(rows func(func([]byte, error) bool)) (lines []string, err error) {
	for line, e := range rows {
		if e != nil {
			return lines, e
		}
		lines = append(lines, string(line))
	}
	return lines, nil
}

func plainLines(t *testing.T, s *Store, tb BackupTable) []string {
	t.Helper()
	lines, err := collect(func(y func([]byte, error) bool) { plainBackupRows(s.db, tb, 0, y) })
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// The packed read writes the plain read's lines, byte for byte, on every
// value it carries, without handing over; the plain read is the reference.
func TestPackedBackupIsPlain(t *testing.T) {
	s := openTemp(t)
	tb := oddTable(t, s, packable)
	plain := plainLines(t, s, tb)
	if want := `{"id":4,"a":"a\u0000b","b":"a\u0000b","c":"a\u0000b","d":"a\u0000b"}`; plain[3] != want {
		t.Fatalf("the plain read of a NUL: %s, want %s", plain[3], want)
	}
	var packed []string
	handOff, done := packedBackupRows(s.db, tb, func(b []byte, err error) bool {
		if err != nil {
			t.Fatal(err)
		}
		packed = append(packed, string(b))
		return true
	})
	if !done {
		t.Fatalf("the packed read handed over at row %d: every value here is packable", handOff+1)
	}
	if len(packed) != len(plain) {
		t.Fatalf("packed %d rows, plain %d", len(packed), len(plain))
	}
	for i := range plain {
		if packed[i] != plain[i] {
			t.Errorf("row %d:\npacked %s\nplain  %s", i+1, packed[i], plain[i])
		}
	}
}

// A real or a blob hands the table over to the plain read at its row: the
// lines are the plain read's, in order, once each.
func TestPackedBackupHandsOver(t *testing.T) {
	for _, v := range handed {
		s := openTemp(t)
		const at = 6 // the row of the value
		values := append(append(append([]any{}, packable[:at-1]...), v), packable[at-1:]...)
		tb := oddTable(t, s, values)
		plain := plainLines(t, s, tb)
		var packed []string
		handOff, done := packedBackupRows(s.db, tb, func(b []byte, err error) bool {
			packed = append(packed, string(b))
			return err == nil
		})
		if done || handOff != at-1 || fmt.Sprint(packed) != fmt.Sprint(plain[:at-1]) {
			t.Errorf("%#v: packed %d rows, handed over after %d (done %v); want the plain read's first %d rows, then a hand-over", v, len(packed), handOff, done, at-1)
		}
		got, err := collect(backupRows(s.db, tb))
		if err != nil || fmt.Sprint(got) != fmt.Sprint(plain) {
			t.Errorf("%#v: backupRows differs from the plain read (%v):\n%q\n%q", v, err, got, plain)
		}
	}
}

// An infinite real has no JSON form: the hand-over reports the plain
// read's error, after the same lines.
func TestPackedBackupInfinity(t *testing.T) {
	s := openTemp(t)
	tb := oddTable(t, s, append(append([]any{}, packable[:4]...), math.Inf(1), "after"))
	plain, perr := collect(func(y func([]byte, error) bool) { plainBackupRows(s.db, tb, 0, y) })
	got, gerr := collect(backupRows(s.db, tb))
	if perr == nil || gerr == nil || perr.Error() != gerr.Error() {
		t.Fatalf("errors: plain %v, backupRows %v; want the same error on the infinite real", perr, gerr)
	}
	if len(plain) != 4 || fmt.Sprint(got) != fmt.Sprint(plain) {
		t.Errorf("before the error: backupRows %d lines, plain %d; want the same 4", len(got), len(plain))
	}
}

// canonicalInt accepts exactly the digits strconv.AppendInt writes for
// some int64 (the reference: parse, write again, compare).
func TestCanonicalInt(t *testing.T) {
	for _, d := range []string{"0", "-0", "00", "01", "-01", "7", "-7", "42", "1000000000000000000",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"99999999999999999999", "-", "", "1-2"} {
		n, err := strconv.ParseInt(d, 10, 64)
		want := err == nil && strconv.FormatInt(n, 10) == d
		if got := canonicalInt(d); got != want {
			t.Errorf("canonicalInt(%q) = %v, want %v", d, got, want)
		}
	}
}
