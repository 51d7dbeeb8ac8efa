package exporter

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/annotate-dev/annotate/store"
)

// The backup read on two views of one commit writes the same files as the
// backup read on one (another connection holding the write lock leaves
// Snapshots a single view), and the same result.
func TestBackupOnTwoViewsEqualsOne(t *testing.T) {
	s := demoStore(t)
	idle, err := s.Snapshots(backupReaders)
	if err != nil {
		t.Fatal(err)
	}
	if len(idle) != backupReaders {
		t.Fatalf("%d views of an idle database, want %d", len(idle), backupReaders)
	}
	for _, v := range idle {
		v.Close()
	}
	two := export(t, s, Options{Format: "jsonl", Out: filepath.Join(t.TempDir(), "two")})

	holding, release, done := make(chan struct{}), make(chan struct{}), make(chan error)
	go func() {
		done <- s.Import(func(*store.Tx) error {
			close(holding)
			<-release
			return nil
		})
	}()
	<-holding
	views, err := s.Snapshots(backupReaders)
	if err != nil {
		t.Fatal(err)
	}
	if len(views) != 1 {
		t.Fatalf("%d views while a writer holds the lock, want 1", len(views))
	}
	views[0].Close()
	one := export(t, s, Options{Format: "jsonl", Out: filepath.Join(t.TempDir(), "one")})
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	if len(two.Files) != len(one.Files) || len(two.Files) < 10 {
		t.Fatalf("files: %d on two views, %d on one", len(two.Files), len(one.Files))
	}
	for i, f := range two.Files {
		if one.Files[i] != f {
			t.Fatalf("file %d: %s on two views, %s on one", i, f, one.Files[i])
		}
		a, err := os.ReadFile(filepath.Join(two.Dir, f))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(one.Dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if string(a) != string(b) {
			t.Errorf("%s differs between the backups on two views and on one", f)
		}
	}
	for name, n := range one.Tables {
		if two.Tables[name] != n {
			t.Errorf("table %s: %d rows on two views, %d on one", name, two.Tables[name], n)
		}
	}
}
