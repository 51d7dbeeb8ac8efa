package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
)

// TestDemoDB checks where the demo seeds: a temporary folder by default, the
// --db path when it is new or holds no items, and never a database that
// holds data (which is left as it was).
func TestDemoDB(t *testing.T) {
	d, err := openDemo("ignored.db", false)
	if err != nil {
		t.Fatal(err)
	}
	d.s.Close()
	if !d.temp || filepath.Base(d.path) != "demo.db" || !strings.Contains(d.path, "annotate-demo-") {
		t.Errorf("default: %+v", d)
	}
	os.RemoveAll(filepath.Dir(d.path))
	if _, err := os.Stat("ignored.db"); err == nil {
		t.Error("the default --db was created")
	}

	dir := t.TempDir()
	fresh := filepath.Join(dir, "sample.db")
	d, err = openDemo(fresh, true)
	if err != nil {
		t.Fatal(err)
	}
	x, err := d.s.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	qa, claims, err := x.ExportCounts(true)
	x.Close()
	d.s.Close()
	// The embedded sample: 16 GDPR + 15 Code civil pairs, 104 claims (README).
	if err != nil || d.temp || d.path != fresh || qa != 31 || claims != 104 {
		t.Fatalf("new --db: %v %+v: %d QA, %d claims", err, d, qa, claims)
	}

	// A database that exists with no items (created by an earlier command
	// that failed, say) is seeded.
	empty := filepath.Join(dir, "empty.db")
	s, err := store.Open(empty)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if d, err = openDemo(empty, true); err != nil {
		t.Fatalf("empty --db: %v", err)
	}
	d.s.Close()

	// The seeded one now holds data: refused, unchanged.
	before, _ := os.ReadFile(fresh)
	_, err = openDemo(fresh, true)
	if err == nil || !strings.Contains(err.Error(), "already holds data (31 QA pairs, 104 claims)") {
		t.Fatalf("non-empty --db: %v", err)
	}
	if after, _ := os.ReadFile(fresh); string(after) != string(before) {
		t.Error("the refused database changed")
	}
}

func TestKeptMessage(t *testing.T) {
	got := keptMessage(nil, "/tmp/annotate-demo-1/demo.db", "jo")
	want := "demo database kept at /tmp/annotate-demo-1/demo.db; reopen it with:\n  annotate --db /tmp/annotate-demo-1/demo.db --as jo\n"
	if got != want {
		t.Errorf("got %q", got)
	}
	// Spaces and quotes survive a paste into a POSIX shell.
	if got := shellQuote("my dir/it's.db"); got != `'my dir/it'\''s.db'` {
		t.Errorf("shellQuote = %s", got)
	}
}
