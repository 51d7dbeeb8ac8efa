// Package storetest opens real, throwaway databases for the tests of every
// package: the store is never mocked.
package storetest

import (
	"path/filepath"
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
