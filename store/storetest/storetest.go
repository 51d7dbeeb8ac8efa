// Package storetest opens real, throwaway databases for the tests of every
// package: the store is never mocked.
package storetest

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
)

// Open creates a fresh database file in a temporary folder, closed when the
// test ends.
func Open(t testing.TB) *store.Store {
	t.Helper()
	s, err := store.Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Builder seeds a database through the store's own import transaction, as
// the importer does: tests of every package build their fixtures with it
// rather than with SQL. It keeps the first error so a failing seed says
// where.
type Builder struct {
	Tx  *store.Tx
	err error
	IDs map[string]int64 // ext id -> item id of what was added
}

// Seed runs fn in one import transaction and fails the test on error.
func Seed(t testing.TB, s *store.Store, fn func(b *Builder)) {
	t.Helper()
	err := s.Import(func(tx *store.Tx) error {
		b := &Builder{Tx: tx, IDs: map[string]int64{}}
		fn(b)
		return b.err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Fail records the first error, saying what was being added.
func (b *Builder) Fail(err error, what string) {
	if err != nil && b.err == nil {
		b.err = fmt.Errorf("%s: %w", what, err)
	}
}

// Query adds a query.
func (b *Builder) Query(q store.Query) {
	item, _, err := b.Tx.PutQuery(q, "h-"+q.ID, "test", false)
	b.Fail(err, "query "+q.ID)
	b.IDs[q.ID] = item
}

// Label records an annotator's label on an item added before.
func (b *Builder) Label(who, item, field, value string) {
	id, ok := b.IDs[item]
	if !ok {
		b.Fail(fmt.Errorf("unknown item"), item)
		return
	}
	_, err := b.Tx.PutLabel(store.Label{Annotator: who, ItemID: id, Field: field, Value: value})
	b.Fail(err, fmt.Sprintf("label %s %s %s=%s", who, item, field, value))
}

// Labels sets several fields of one item: "field=value" pairs.
func (b *Builder) Labels(who, item string, kv ...string) {
	for _, p := range kv {
		f, v, _ := strings.Cut(p, "=")
		b.Label(who, item, f, v)
	}
}

// Adjudicate records the lead's final label on an item.
func (b *Builder) Adjudicate(who, item, field, value string) {
	_, err := b.Tx.PutLabel(store.Label{Annotator: who, ItemID: b.IDs[item], Field: field, Value: value, Adjudicate: true})
	b.Fail(err, "adjudicate "+item)
}

// Create creates a database file of the given name in a temporary folder and
// returns its path and the open store, for tests that hand the file to
// another program (the command line); the caller closes the store.
func Create(t testing.TB, name string) (string, *store.Store) {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	s, err := store.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	return p, s
}
