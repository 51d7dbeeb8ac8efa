//go:build !race

package store

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// The driver's connection holds the sqlite3 handle of the database it
// opened: this breaks when a new version of the driver moves it.
func TestDriverHandleIsReachable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	conn, err := s.db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		db, tls, err := driverHandle(dc)
		if err != nil {
			return err
		}
		main, err := libc.CString("main")
		if err != nil {
			return err
		}
		defer libc.Xfree(tls, main)
		if got := libc.GoString(sqlite3.Xsqlite3_db_filename(tls, db, main)); got != path {
			t.Errorf("the handle's database is %q, want %q", got, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	type conn2 struct {
		db  uintptr
		tls *libc.TLS
	}
	if _, _, err := driverHandle(&conn2{db: 1}); !errors.Is(err, errDriverLayout) {
		t.Errorf("a connection of another type: %v, want errDriverLayout", err)
	}
	if _, _, err := driverHandle(42); !errors.Is(err, errDriverLayout) {
		t.Errorf("not a connection: %v, want errDriverLayout", err)
	}
}

// bigText is n bytes of text with accents, a NUL and a line break.
func bigText(n int) string {
	const para = "Le préavis « de trois mois »\x00 est donné par écrit.\n"
	return strings.Repeat(para, n/len(para)+1)[:n]
}

// A statement run without the driver's copy stores what the driver's
// stores: for every kind of value an import binds, the same type and the
// same bytes; the same rowid and count of rows; the same error, coded.
func TestBigValueWriteIsTheDriversWrite(t *testing.T) {
	s := openTemp(t)
	big := bigText(bigValue + 1000)
	args := []any{big, "", "é", nil, int64(-7), 3, 2.5, true, false,
		[]byte{}, []byte(nil), []byte(big), []byte{0, 1, 2}, int64(1) << 40}
	cols := "c1,c2,c3,c4,c5,c6,c7,c8,c9,c10,c11,c12,c13,c14"
	marks := strings.TrimSuffix(strings.Repeat("?,", len(args)), ",")
	err := s.Import(func(tx *Tx) error {
		w := tx.tx
		for _, table := range []string{"by_driver", "no_copy"} {
			if _, err := w.Tx.Exec("CREATE TEMP TABLE " + table + "(" + cols + ", n TEXT NOT NULL DEFAULT '')"); err != nil {
				return err
			}
		}
		q := func(table string) string { return "INSERT INTO " + table + "(" + cols + ") VALUES (" + marks + ")" }
		for range 2 {
			want, err := w.Tx.Exec(q("by_driver"), args...)
			if err != nil {
				return err
			}
			got, err := execNoCopy(w.steps.conn, q("no_copy"), args)
			if err != nil {
				return err
			}
			wantID, _ := want.LastInsertId()
			gotID, _ := got.LastInsertId()
			wantN, _ := want.RowsAffected()
			gotN, _ := got.RowsAffected()
			if gotID != wantID || gotN != wantN {
				t.Errorf("rowid %d, %d rows; the driver's: %d, %d", gotID, gotN, wantID, wantN)
			}
		}
		for i, c := range strings.Split(cols, ",") {
			var same, rows int
			var kind string
			if err := w.Tx.QueryRow(`SELECT COUNT(*), SUM(a.`+c+` IS b.`+c+` AND typeof(a.`+c+`) = typeof(b.`+c+`)), MIN(typeof(b.`+c+`))
				FROM by_driver a JOIN no_copy b ON a.rowid = b.rowid`).Scan(&rows, &same, &kind); err != nil {
				return err
			}
			if rows != 2 || same != 2 {
				t.Errorf("argument %d (%T, stored as %s): %d of %d rows as the driver stores it", i+1, args[i], kind, same, rows)
			}
		}
		var length int
		if err := w.Tx.QueryRow("SELECT length(CAST(c1 AS BLOB)) FROM no_copy WHERE typeof(c1) = 'text' LIMIT 1").Scan(&length); err != nil || length != len(big) {
			t.Errorf("the big text: %d bytes (%v), want %d", length, err, len(big))
		}
		// An error: the driver's words, its code.
		bad := "INSERT INTO no_copy(c1, n) VALUES (?, ?)"
		_, want := w.Tx.Exec(bad, big, nil)
		_, got := execNoCopy(w.steps.conn, bad, []any{big, nil})
		var coded interface{ Code() int }
		if want == nil || got == nil || got.Error() != want.Error() || !errors.As(got, &coded) || coded.Code() != 1299 {
			t.Errorf("NOT NULL refused: %v; the driver: %v", got, want)
		}
		return errFailedOnPurpose
	})
	if !errors.Is(err, errFailedOnPurpose) {
		t.Fatal(err)
	}
}

// An import's big document is written without the driver's copy, stored
// as the driver stores it, and a failed import with one is undone whole.
func TestBigDocumentImport(t *testing.T) {
	s := openTemp(t)
	text := bigText(bigValue + 12345)
	put := func(id string, noCopy bool) error {
		defer func(was bool) { bigValueNoCopy = was }(bigValueNoCopy)
		bigValueNoCopy = noCopy
		return s.Import(func(tx *Tx) error {
			_, _, err := tx.PutDocument(Document{ID: id, Title: "Une décision", Text: text}, "h", "f", false)
			return err
		})
	}
	if err := put("by-driver", false); err != nil {
		t.Fatal(err)
	}
	before := dbDigest(t, s)
	failed := s.Import(func(tx *Tx) error {
		if _, _, err := tx.PutDocument(Document{ID: "undone", Text: text}, "h", "f", false); err != nil {
			return err
		}
		return errFailedOnPurpose
	})
	if !errors.Is(failed, errFailedOnPurpose) {
		t.Fatal(failed)
	}
	if after := dbDigest(t, s); after != before {
		t.Fatalf("the failed import left the database changed:\n%s", diffLines(before, after))
	}
	if err := put("no-copy", true); err != nil {
		t.Fatal(err)
	}
	var same int
	var kind string
	err := s.db.QueryRow(`SELECT a.text IS b.text AND a.title IS b.title, typeof(b.text) FROM documents a, documents b
		WHERE a.item_id = (SELECT id FROM items WHERE ext_id = 'by-driver') AND b.item_id = (SELECT id FROM items WHERE ext_id = 'no-copy')`).Scan(&same, &kind)
	if err != nil || same != 1 || kind != "text" {
		t.Fatalf("the document written without the copy: same %d, %s (%v)", same, kind, err)
	}
}
