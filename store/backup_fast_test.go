package store

import (
	"bytes"
	"testing"
)

// TestBackupRowsBySQLiteSameBytes: rows built by json_object are byte for
// byte the rows appendBackupRow builds from the columns, for strings with
// every character the two escape differently (quotes, backslashes, control
// characters, <>&, U+2028/2029, non-ASCII, invalid UTF-8, a surrogate
// pair), integers and NULLs; from a row with a real or a blob on, a table
// takes the row-by-row path (the rows before it are not written twice).
func TestBackupRowsBySQLiteSameBytes(t *testing.T) {
	s := openTemp(t)
	hostile := []string{"plain", `say "hi"`, `back\slash`, "tab\there\nnew\rline", "\x00\x01\x08\x0c\x1f", "<b>&amp;</b>",
		"line\u2028sep\u2029para", "café – 日本 😀", "bad \xff\xfe utf8", "", "/slash/", `\u0041 not an escape`}
	mustExec := func(q string, args ...any) {
		if _, err := s.db.Exec(q, args...); err != nil {
			t.Fatal(err)
		}
	}
	mustExec(`CREATE TABLE hostile (id INTEGER PRIMARY KEY, "t" TEXT, n INTEGER, maybe TEXT)`)
	mustExec(`CREATE TABLE keyed (a TEXT NOT NULL, b INTEGER NOT NULL, v TEXT, PRIMARY KEY (a, b)) WITHOUT ROWID`)
	mustExec(`CREATE TABLE mixed (id INTEGER PRIMARY KEY, r REAL, x BLOB)`)
	for i, h := range hostile {
		var maybe any
		if i%2 == 0 {
			maybe = h
		}
		mustExec("INSERT INTO hostile(t, n, maybe) VALUES (?,?,?)", h, i*1_000_000_007-5, maybe)
		mustExec("INSERT INTO keyed(a, b, v) VALUES (?,?,?)", h, -i, h+h)
	}
	mustExec("INSERT INTO mixed(r, x) VALUES (NULL, NULL), (0.30000000000000004, NULL), (1.0, x'00ff'), (NULL, NULL)")
	mustExec(`CREATE TABLE blobby (id INTEGER PRIMARY KEY, t TEXT)`)
	mustExec("INSERT INTO blobby(t) VALUES ('a'), ('b'), (x'00ff'), ('<c>')")
	for _, table := range []string{"hostile", "keyed", "mixed", "blobby"} {
		bt, err := tableInfo(s.db, table)
		if err != nil {
			t.Fatal(err)
		}
		_, rest, _ := backupRowsSQL(s.db, bt, func(_ []byte, err error) bool {
			if err != nil {
				t.Fatal(err)
			}
			return true
		})
		if want := table == "mixed" || table == "blobby"; rest != want {
			t.Errorf("%s: left to the row-by-row path %v, want %v", table, rest, want)
		}
		var want [][]byte
		rows, err := s.db.Query(bt.selectSQL())
		if err != nil {
			t.Fatal(err)
		}
		vals := make([]any, len(bt.Columns))
		ptrs := make([]any, len(vals))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			b, err := appendBackupRow(nil, table, bt.Columns, vals)
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, b)
		}
		rows.Close()
		var got [][]byte
		for line, err := range backupRows(s.db, bt) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, bytes.Clone(line))
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d rows, want %d", table, len(got), len(want))
		}
		for i := range want {
			if !bytes.Equal(got[i], want[i]) {
				t.Errorf("%s row %d:\n got %s\nwant %s", table, i+1, got[i], want[i])
			}
		}
	}
}
