package exporter

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// leftover writes what a killed export leaves: a lock file nobody holds,
// dated age ago, and its folder with a partial file.
func leftover(t *testing.T, parent, name string, age time.Duration) (lock, dir string) {
	t.Helper()
	lock = filepath.Join(parent, name+lockSuffix)
	dir = filepath.Join(parent, name)
	if err := os.WriteFile(lock, []byte("annotate export\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, "data/qa/test.jsonl", "{\"id\":")
	when := time.Now().Add(-age)
	if err := os.Chtimes(lock, when, when); err != nil {
		t.Fatal(err)
	}
	return lock, dir
}

func writeFiles(t *testing.T, dir string, nameContent ...string) {
	t.Helper()
	for i := 0; i < len(nameContent); i += 2 {
		p := filepath.Join(dir, nameContent[i])
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(nameContent[i+1]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// TestStaleTemporariesCleanedUp: the next export beside them removes a
// killed export's lock and folder, its own --out's or another's, and
// nothing else: not a running export's, not a folder without a lock file,
// not one newer than itself.
func TestStaleTemporariesCleanedUp(t *testing.T) {
	s := demoStore(t)
	parent := t.TempDir()
	out := filepath.Join(parent, "ds")

	staleLock, staleDir := leftover(t, parent, ".ds.tmp-111", 48*time.Hour)
	otherLock, otherDir := leftover(t, parent, ".other.tmp-333", 48*time.Hour)
	newerLock, newerDir := leftover(t, parent, ".ds.tmp-555", -time.Hour) // dated after this export started
	running, err := newTempLock(parent, "ds")                             // a live export's
	if err != nil {
		t.Fatal(err)
	}
	defer running.release()
	writeFiles(t, running.dir, "README.md", "being written")
	noLock := filepath.Join(parent, ".ds.tmp-222") // named like ours, no lock file
	writeFiles(t, noLock, "mine.txt", "keep")
	users := filepath.Join(parent, ".ds.tmp-mine") // not our pattern
	writeFiles(t, users, "mine.txt", "keep")

	res := export(t, s, Options{Out: out, Annotator: "jo"})

	for _, p := range []string{staleLock, staleDir, otherLock, otherDir} {
		if exists(p) {
			t.Errorf("the killed export's %s stayed: %v", filepath.Base(p), listDir(t, parent))
		}
	}
	for _, p := range []string{newerLock, newerDir, running.path, running.dir, noLock, users, out} {
		if !exists(p) {
			t.Errorf("%s was removed", filepath.Base(p))
		}
	}
	if len(res.Notes) != 3 || res.Notes[0] != "removed "+staleDir+" (left by an interrupted export)" ||
		res.Notes[1] != "removed "+otherDir+" (left by an interrupted export)" ||
		!strings.HasPrefix(res.Notes[2], "left "+noLock+": it has no lock file") {
		t.Errorf("notes %q", res.Notes)
	}
}

// TestStaleMovedAsidePutBack: a --force export killed between its two
// renames left --out missing and the previous export moved aside. The next
// export puts the previous one back (and, without --force, refuses to
// replace it, saying what it did); once the new export is in place, a
// moved-aside previous export is removed.
func TestStaleMovedAsidePutBack(t *testing.T) {
	s := demoStore(t)
	parent := t.TempDir()
	out := filepath.Join(parent, "ds")
	lock, dir := leftover(t, parent, ".ds.tmp-444", time.Hour)
	writeFiles(t, dir+"-old", "README.md", "the previous export")

	_, err := Export(context.Background(), s, Options{Out: out, Annotator: "jo"})
	if !errors.Is(err, ErrNotEmpty) || !strings.Contains(err.Error(), "put the previous export back into "+out) {
		t.Fatalf("want the previous export put back and a refusal, got %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "README.md")); string(b) != "the previous export" {
		t.Fatalf("--out holds %q", b)
	}
	if got := listDir(t, parent); !slices.Equal(got, []string{"ds"}) {
		t.Fatalf("beside --out: %v", got)
	}

	// Killed after the new export was in place: only the old one is left.
	lock, dir = leftover(t, parent, ".ds.tmp-666", time.Hour)
	os.RemoveAll(dir)
	writeFiles(t, dir+"-old", "README.md", "older still")
	res := export(t, s, Options{Out: out, Annotator: "jo", Force: true})
	if got := listDir(t, parent); !slices.Equal(got, []string{"ds"}) {
		t.Fatalf("beside --out: %v", got)
	}
	if len(res.Notes) != 1 || res.Notes[0] != "removed "+dir+"-old (left by an interrupted export)" || exists(lock) {
		t.Errorf("notes %q", res.Notes)
	}
}
