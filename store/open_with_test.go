package store

import (
	"context"
	"path/filepath"
	"testing"
)

// OpenWith's pragmas hold on every connection of the pool, not only the
// first: an export's card reports read on connections of their own beside
// the export's view, and their page caches must be the small one too.
func TestOpenWithEveryConnection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	s0, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var own int
	if err := s0.db.QueryRow("PRAGMA cache_size").Scan(&own); err != nil {
		t.Fatal(err)
	}
	s0.Close()
	if own == -400 {
		t.Fatalf("SQLite's own cache_size is already %d: the test shows nothing", own)
	}
	s, err := OpenWith(path, "cache_size(-400)")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for i := range 3 { // held at once: three connections
		c, err := s.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		var got int
		if err := c.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != -400 {
			t.Errorf("connection %d: cache_size %d, want -400", i, got)
		}
	}
}
