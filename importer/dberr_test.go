package importer

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/annotate-dev/annotate/store"
)

// A database that cannot be written is the database's fault, not the
// input's: the message names the database and the cause, never a line and
// field of the file (issue 10, item 6). The failures are real SQLite errors:
// PRAGMA query_only makes every write fail with SQLITE_READONLY as a
// read-only file does (chmod cannot make a file read-only for root, who
// runs these tests in some places), PRAGMA max_page_count makes the
// database full (SQLITE_FULL) as a full disk does.
func TestDatabaseErrorsNameTheDatabase(t *testing.T) {
	p := writeFile(t, t.TempDir(), "items.jsonl", nativeBenchFileN(200, 3))
	for _, c := range []struct {
		name   string
		pragma func(s *store.Store) string
		code   int
		want   string
	}{
		{"read-only", func(*store.Store) string { return "query_only(1)" }, 8, "is read-only"},
		{"full", func(s *store.Store) string {
			return fmt.Sprintf("max_page_count(%d)", count(t, s, "PRAGMA page_count")+3)
		}, 13, "could not grow: the disk (or the database's size limit) is full; nothing was imported"},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "t.db")
			s, err := store.Open(db)
			if err != nil {
				t.Fatal(err)
			}
			pragma := c.pragma(s)
			s.Close()
			// The pragma holds on every connection of the store.
			if s, err = store.OpenPragmas(db, 10*time.Second, pragma); err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			_, err = Import(s, []string{p}, Options{})
			var de *store.DBError
			if !errors.As(err, &de) || de.Code&0xff != c.code || de.Path != db {
				t.Fatalf("want a DBError %d on %s, got %T %v", c.code, db, err, err)
			}
			msg := err.Error()
			if !strings.Contains(msg, "the database "+db+" ") || !strings.Contains(msg, c.want) || strings.Contains(msg, "items.jsonl") {
				t.Fatalf("message %q: want the database named and %q, not the input", msg, c.want)
			}
			var ie *InputError
			if errors.As(err, &ie) {
				t.Fatalf("blamed on the input: %v", ie)
			}
			if n := count(t, s, "SELECT COUNT(*) FROM items"); n != 0 {
				t.Fatalf("%d items after a failed import", n)
			}
			t.Log(msg)
		})
	}
}

// coded is an error with a SQLite result code, as modernc.org/sqlite's
// *sqlite.Error (whose fields cannot be set from outside).
type coded int

func (c coded) Error() string { return fmt.Sprintf("sqlite error (%d)", int(c)) }
func (c coded) Code() int     { return int(c) }

// The messages of the codes a test cannot provoke for real: an I/O error
// on a full disk's -shm file (reported once as "disk I/O error (4874)"), a
// lock held by another writer, a folder that does not exist.
func TestExplainError(t *testing.T) {
	for _, c := range []struct {
		code int
		want string
	}{
		{4874, "disk I/O error on the database /d/t.db (growing the -shm file failed, SQLite code 4874): the disk may be full or failing; nothing was imported: check the free space in /d"},
		{778, "(writing failed, SQLite code 778)"},
		{5, "the database /d/t.db is locked by another process"},
		{14, "cannot open the database /d/t.db: its folder /d must exist and be writable"},
		{1032, "the database /d/t.db is read-only"}, // SQLITE_READONLY_DBMOVED
	} {
		err := store.ExplainError("/d/t.db", fmt.Errorf("wrapped: %w", coded(c.code)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("code %d: %v; want %q", c.code, err, c.want)
		}
	}
	// Constraint and other data errors stay the caller's.
	if err := store.ExplainError("/d/t.db", coded(19)); err != nil {
		t.Errorf("SQLITE_CONSTRAINT explained as %v", err)
	}
	if err := store.ExplainError("/d/t.db", errors.New("plain")); err != nil {
		t.Errorf("plain error explained as %v", err)
	}
}
