package storetest

import (
	"database/sql"
	"net/url"
	"sync"
	"testing"

	"github.com/annotate-dev/annotate/store"
)

// kept is how many of a store's snapshots Read keeps open: enough for a
// read whose arguments read too (storetest.Read(t, s).QueueRank(q, 0,
// key(ext))), few enough that a test reading in a loop holds a handful of
// connections.
const kept = 8

var (
	openMu sync.Mutex
	open   = map[*store.Store][]*store.ReadTx{}
)

// Read is a fresh snapshot of s for a test's read between its writes:
// storetest.Read(t, s).Queue(q). The store has no reads of its own; this
// is s.Read(fn) for one expression. The snapshot is closed after kept more
// Reads of the same store, or at the end of the test (a test with more
// reads than that in flight at once uses s.Read).
func Read(t testing.TB, s *store.Store) *store.ReadTx {
	t.Helper()
	rx, err := s.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	openMu.Lock()
	views := append(open[s], rx)
	if len(views) > kept {
		views[0].Close()
		views = views[1:]
	}
	open[s] = views
	openMu.Unlock()
	t.Cleanup(func() {
		openMu.Lock()
		defer openMu.Unlock()
		for i, v := range open[s] {
			if v == rx {
				open[s] = append(open[s][:i:i], open[s][i+1:]...)
				rx.Close()
				break
			}
		}
		if len(open[s]) == 0 {
			delete(open, s)
		}
	})
	return rx
}

var (
	dbMu sync.Mutex
	dbs  = map[*store.Store]*sql.DB{}
)

// DB is a second handle on s's file for a test's own SQL: what it checks
// beneath the store, or rows a benchmark writes behind its back (then
// Recount). It is opened once per store and closed at the end of the
// test.
func DB(t testing.TB, s *store.Store) *sql.DB {
	t.Helper()
	dbMu.Lock()
	defer dbMu.Unlock()
	if db := dbs[s]; db != nil {
		return db
	}
	db, err := OpenDB(s.Path)
	if err != nil {
		t.Fatal(err)
	}
	dbs[s] = db
	t.Cleanup(func() {
		dbMu.Lock()
		defer dbMu.Unlock()
		delete(dbs, s)
		db.Close()
	})
	return db
}

// OpenDB opens a handle on the database file at path for SQL of a test's
// own, outside any test (a TestMain building a benchmark's file): the
// store's busy timeout and foreign keys.
func OpenDB(path string) (*sql.DB, error) {
	q := url.Values{}
	for _, pr := range []string{"busy_timeout(10000)", "foreign_keys(ON)"} {
		q.Add("_pragma", pr)
	}
	q.Set("_txlock", "immediate")
	return sql.Open("sqlite", "file:"+path+"?"+q.Encode())
}

// Recount rebuilds s's kept counts and done items from its labels, for
// rows a test or benchmark wrote behind the store's back (DB): it forgets
// the rules the counts were kept by, and the store's Open, which recounts
// a file whose counts were kept by other rules, is run on s's file.
func Recount(t testing.TB, s *store.Store) {
	t.Helper()
	if err := RecountFile(s.Path); err != nil {
		t.Fatal(err)
	}
}

// RecountFile is Recount for the file at path, outside any test (a
// TestMain building a benchmark's file).
func RecountFile(path string) error {
	db, err := OpenDB(path)
	if err != nil {
		return err
	}
	_, err = db.Exec("DELETE FROM meta WHERE key = 'tally_version'")
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	s, err := store.Open(path)
	if err != nil {
		return err
	}
	return s.Close()
}
