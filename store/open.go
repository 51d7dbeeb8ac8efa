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
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// Store is an open annotation database.
type Store struct {
	db   *sql.DB
	Path string
}

// SchemaVersion is the user_version this build writes.
func SchemaVersion() int { return len(migrations()) }

func migrations() []string {
	names, _ := fs.Glob(migrationFS, "migrations/*.sql")
	sort.Strings(names)
	return names
}

// Open opens (and creates or migrates) the database at path with the pragmas of
// DESIGN.md: WAL, foreign keys, a 5 s busy timeout, synchronous=FULL.
func Open(p string) (*Store, error) {
	q := url.Values{}
	for _, pr := range []string{"busy_timeout(10000)", "journal_mode(WAL)", "foreign_keys(ON)", "synchronous(FULL)"} {
		q.Add("_pragma", pr)
	}
	// BEGIN IMMEDIATE takes the write lock up front, so two writers wait on the
	// busy timeout instead of failing with "database is locked" on upgrade.
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+p+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", p, err)
	}
	s := &Store{db: db, Path: p}
	if err := s.migrate(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", p, err)
	}
	return s, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// DB exposes the handle to tests and benchmarks of this module.
func (s *Store) DB() *sql.DB { return s.db }

func (s *Store) migrate() error {
	var v int
	if err := s.db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	all := migrations()
	if v > len(all) {
		return fmt.Errorf("the database was written by a newer annotate (schema version %d, this build knows %d): upgrade annotate", v, len(all))
	}
	if v == len(all) {
		return nil
	}
	return s.write(func(tx *wtx) error {
		for _, name := range all[v:] {
			body, err := migrationFS.ReadFile(name)
			if err != nil {
				return err
			}
			if _, err := tx.Tx.Exec(string(body)); err != nil { // several statements: not prepared
				return fmt.Errorf("migration %s: %w", path.Base(name), err)
			}
		}
		_, err := tx.Exec("PRAGMA user_version = " + strconv.Itoa(len(all)))
		return err
	})
}

// write runs fn in one transaction and commits it.
func (s *Store) write(fn func(tx *wtx) error) error {
	tx, err := s.db.BeginTx(context.Background(), nil)
	if err != nil {
		return err
	}
	w := &wtx{Tx: tx, stmts: map[string]*sql.Stmt{}, annotators: map[string]int64{}}
	defer w.closeStmts()
	if err := fn(w); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// wtx is a write transaction that prepares each distinct statement once: the
// driver prepares on every Exec otherwise, and an import runs the same few
// statements thousands of times.
type wtx struct {
	*sql.Tx
	stmts      map[string]*sql.Stmt
	annotators map[string]int64 // name -> id, looked up or created in this transaction
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

func (t *wtx) Exec(q string, args ...any) (sql.Result, error) {
	st, err := t.prepared(q)
	if err != nil {
		return nil, err
	}
	return st.Exec(args...)
}

func (t *wtx) Query(q string, args ...any) (*sql.Rows, error) {
	st, err := t.prepared(q)
	if err != nil {
		return nil, err
	}
	return st.Query(args...)
}

func (t *wtx) QueryRow(q string, args ...any) *sql.Row {
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

func now() string { return time.Now().UTC().Format(time.RFC3339Nano) }

// ErrNotFound is returned when a named thing does not exist.
var ErrNotFound = errors.New("not found")

func notFound(what, name string) error { return fmt.Errorf("%s %q: %w", what, name, ErrNotFound) }

func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?,", n), ",") }
