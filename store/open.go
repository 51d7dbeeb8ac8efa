// Package store keeps everything in one SQLite file (modernc.org/sqlite, no
// cgo) and hides SQL behind small methods. Every write is one transaction.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/annotate-dev/annotate/internal/clock"
	"github.com/annotate-dev/annotate/internal/jsontext"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// Store is an open annotation database.
type Store struct {
	db   *sql.DB
	Path string
	// fields is what the store put in force of the database's declared
	// fields (fields.go); nil until the migrations ran.
	fields *declaredState
	// busyMS is the busy timeout of every connection, in milliseconds.
	busyMS string

	// The screen leases this Store holds, by annotator (leases.go): every
	// write for one of them checks its lease before it commits.
	leaseMu sync.Mutex
	leases  map[string][]*ScreenLease

	// newCheck makes the staging check of each write transaction: the
	// tests' (import_check.go), nil for a user.
	newCheck func() stagingCheck
}

// migration is one embedded SQL file, numbered by its name (0002_….sql).
type migration struct {
	version int
	name    string
}

// migrations lists the embedded migrations in version order; their numbers
// must run 1, 2, 3… without a gap or a repeat, or the build is broken.
func migrations() []migration {
	names, _ := fs.Glob(migrationFS, "migrations/*.sql")
	var out []migration
	for _, name := range names {
		base := path.Base(name)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			panic("store: migration " + base + " is not named NNNN_what.sql")
		}
		out = append(out, migration{version: v, name: name})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i, m := range out {
		if m.version != i+1 {
			panic(fmt.Sprintf("store: migration %s: want version %d", path.Base(m.name), i+1))
		}
	}
	return out
}

// SchemaVersion is the user_version this build writes.
func SchemaVersion() int { return len(migrations()) }

// Open opens (and creates or migrates) the database at path with the pragmas of
// ARCHITECTURE.md: WAL, foreign keys, a 10 s busy timeout, synchronous=FULL.
func Open(p string) (*Store, error) { return OpenBusy(p, busyTimeout) }

// OpenWith is Open with more pragmas on every connection (OpenPragmas's
// form, "cache_size(-400)"): a command that reads in its own way (an
// export's streams) sets them for its process.
func OpenWith(p string, pragmas ...string) (*Store, error) {
	return OpenPragmas(p, busyTimeout, pragmas...)
}

// OpenBusy is Open with another busy timeout: how long a write waits for
// another connection's write lock before it fails with SQLITE_BUSY (tests
// make it short, to retry many times under one held lock).
func OpenBusy(p string, busy time.Duration) (*Store, error) { return OpenPragmas(p, busy) }

// OpenPragmas is OpenBusy with more pragmas on every connection
// ("query_only(1)", "max_page_count(40)"): tests make a database read-only
// or full so.
func OpenPragmas(p string, busy time.Duration, pragmas ...string) (*Store, error) {
	if err := checkKinds(); err != nil {
		return nil, fmt.Errorf("open %s: %w", p, err)
	}
	busyMS := strconv.FormatInt(busy.Milliseconds(), 10)
	q := url.Values{}
	for _, pr := range append([]string{"busy_timeout(" + busyMS + ")", "journal_mode(WAL)", "foreign_keys(ON)", "synchronous(FULL)"}, pragmas...) {
		q.Add("_pragma", pr)
	}
	// BEGIN IMMEDIATE takes the write lock up front, so two writers wait on the
	// busy timeout instead of failing with "database is locked" on upgrade.
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+p+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", p, err)
	}
	s := &Store{db: db, Path: p, busyMS: busyMS}
	if err := s.migrate(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", p, err)
	}
	return s, nil
}

// Close closes the database, and takes its declared fields out of the
// schema in force.
func (s *Store) Close() error {
	if s.fields != nil {
		s.fields.holding.Release()
	}
	return s.db.Close()
}

// migrate brings the file to this build's schema in one transaction, then
// makes sure the kept counts were computed by this build's rules.
func (s *Store) migrate() error {
	var v int
	if err := s.db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	all := migrations()
	if v > len(all) {
		return fmt.Errorf("the database was written by a newer annotate (schema version %d, this build knows %d): upgrade annotate", v, len(all))
	}
	if v < len(all) {
		err := s.write(func(tx *wtx) error {
			for _, m := range all[v:] {
				body, err := migrationFS.ReadFile(m.name)
				if err != nil {
					return err
				}
				if _, err := tx.Tx.Exec(string(body)); err != nil { // several statements: not prepared
					return fmt.Errorf("migration %s: %w", path.Base(m.name), err)
				}
			}
			_, err := tx.Exec("PRAGMA user_version = " + strconv.Itoa(len(all)))
			return err
		})
		if err != nil {
			return err
		}
	}
	if err := s.kindTables(); err != nil {
		return err
	}
	if err := s.holdDeclared(); err != nil {
		return err
	}
	if err := s.seedGuidelines(); err != nil {
		s.fields.holding.Release()
		return err
	}
	if err := s.ensureKeptCounts(); err != nil {
		s.fields.holding.Release()
		return err
	}
	// An import killed before it was done is undone now.
	if err := s.recoverImports(); err != nil {
		s.fields.holding.Release()
		return err
	}
	return nil
}

// write runs fn in one transaction and commits it. The declared fields in
// force are the transaction's (another process may have declared one).
func (s *Store) write(fn func(tx *wtx) error) error { return s.writeOn(s.db, fn) }

// writeOn is write on a connection the caller chose (a restore's, with
// its own pragmas: backup.go), or any of the pool's.
func (s *Store) writeOn(c interface {
	BeginTx(context.Context, *sql.TxOptions) (*sql.Tx, error)
}, fn func(tx *wtx) error) (err error) {
	tx, err := c.BeginTx(context.Background(), nil)
	if err != nil {
		return err
	}
	w := s.newWtx(&wtx{Tx: tx, stmts: map[string]*sql.Stmt{}})
	defer w.closeStmts()
	defer func() {
		if w.declaredChanged && err != nil {
			s.restoreDeclared()
		}
	}()
	if err = s.syncDeclared(w); err != nil {
		tx.Rollback()
		return err
	}
	err = fn(w)
	if err == nil || w.checkErr() != nil {
		err = w.settle()
	}
	if err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// settle makes the transaction ready to commit: every staged row written,
// the kept counts recounted, the leases of the screens checked. A failed
// staging check is the cause of whatever fn made of the read it failed
// under.
func (w *wtx) settle() error {
	if err := w.checkErr(); err != nil {
		return err
	}
	if err := w.finish(); err != nil {
		return err
	}
	if err := w.checkErr(); err != nil {
		return err
	}
	return w.checkLeases()
}

// wtx is a write transaction that prepares each distinct statement once: the
// driver prepares on every Exec otherwise, and an import runs the same few
// statements thousands of times. The rows an import writes most are staged
// and written many a statement (import_staging.go).
type wtx struct {
	*sql.Tx
	store      *Store
	stmts      map[string]*sql.Stmt
	annotators map[string]int64 // name -> id, looked up or created in this transaction

	// Items whose families finish recounts (kept.go), and roots of
	// families known as such (an undone import's items, gone by the time
	// finish would look their root up).
	touched idSet
	roots   idSet
	// itemsBefore is the largest item id when the transaction began, when
	// known (an import asks): larger ids are items it created. An import
	// written in steps (import_steps.go) keeps the one of its first step;
	// rootsBefore is its current step's (finish: a larger root has no
	// family before the step).
	itemsBefore int64
	itemsKnown  bool
	rootsBefore int64
	steps       *importSteps // the import's steps, nil for one transaction

	stages []*stage     // rows waiting to be written (import_staging.go)
	check  stagingCheck // the tests' staging check, nil for a user (import_check.go)
	fresh  freshLabels  // what an import knows of its items' labels (import_tx.go)
	items  importItems  // what an import knows of the items it wrote (import_tx.go)
	// added is the item the last PutItem created and the prediction fields
	// put on it since: it has no other predictions (PutPredictions).
	added       int64
	addedFields []string
	// guideVersions caches the version of each field's guidelines in force
	// (guidelines.go).
	guideVersions map[string]string
	// declaredChanged: the transaction put other declared fields in force
	// (fields.go); a rollback puts the database's back.
	declaredChanged bool
}

func (t *wtx) prepared(q string) (*sql.Stmt, error) {
	if st, ok := t.stmts[q]; ok {
		return st, nil
	}
	st, err := t.Tx.Prepare(q)
	if err != nil {
		return nil, err
	}
	t.stmts[q] = st
	return st, nil
}

// Exec, Query and QueryRow run a statement prepared once. They write no
// staged rows: code that depends on them flushes their stage first
// (import_staging.go), and the tests check that it did (stagingCheck).
func (t *wtx) Exec(q string, args ...any) (sql.Result, error) {
	if t.check != nil {
		t.check.statement(t, q, args, false)
	}
	st, err := t.prepared(q)
	if err != nil {
		return nil, err
	}
	return t.exec(st, args)
}

func (t *wtx) Query(q string, args ...any) (*sql.Rows, error) {
	if t.check != nil {
		t.check.statement(t, q, args, true)
	}
	st, err := t.prepared(q)
	if err != nil {
		return nil, err
	}
	return st.Query(args...)
}

func (t *wtx) QueryRow(q string, args ...any) *sql.Row {
	if t.check != nil {
		t.check.statement(t, q, args, true)
	}
	st, err := t.prepared(q)
	if err != nil {
		return t.Tx.QueryRow(q, args...) // carries the same error to Scan
	}
	return st.QueryRow(args...)
}

func (t *wtx) closeStmts() {
	for _, st := range t.stmts {
		st.Close()
	}
}

func now() string { return clock.Now().UTC().Format(time.RFC3339Nano) }

// ErrNotFound is returned when a named thing does not exist.
var ErrNotFound = errors.New("not found")

func notFound(what, name string) error { return fmt.Errorf("%s %q: %w", what, name, ErrNotFound) }

// nullID is an optional id as a parameter: 0 is NULL.
func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?,", n), ",") }

// jsonInts passes a list of ids as one JSON parameter (json_each), which has
// no limit on its length, unlike bound parameters.
func jsonInts(v []int64) string { return jsontext.Ints(v) }

// errNoRows is database/sql's "no row": a lookup found nothing.
var errNoRows = sql.ErrNoRows
