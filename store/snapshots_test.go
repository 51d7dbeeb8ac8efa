package store_test

import (
	"fmt"
	"testing"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// itemsIn is how many items a view holds (the backup's row count).
func itemsIn(t *testing.T, v *store.ReadTx) int {
	t.Helper()
	tables, err := v.BackupTables()
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range tables {
		if tb.Name == "items" {
			return tb.Rows
		}
	}
	t.Fatal("no items table")
	return 0
}

func addQueries(t *testing.T, s *store.Store, from, n int) {
	t.Helper()
	storetest.Seed(t, s, func(b *storetest.Builder) {
		for i := from; i < from+n; i++ {
			b.Query(store.Query{ID: fmt.Sprintf("q%d", i), Text: "text"})
		}
	})
}

// Two views of one commit keep seeing it after later commits.
func TestSnapshotsShareOneCommit(t *testing.T) {
	s := storetest.Open(t)
	addQueries(t, s, 0, 3)
	views, err := s.Snapshots(2)
	if err != nil {
		t.Fatal(err)
	}
	if len(views) != 2 {
		t.Fatalf("%d views of an idle database, want 2", len(views))
	}
	addQueries(t, s, 3, 2) // committed after both views started
	for i, v := range views {
		if got := itemsIn(t, v); got != 3 {
			t.Errorf("view %d holds %d items, want 3 (the commit before it)", i, got)
		}
		v.Close()
	}
	after, err := s.Snapshots(2)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range after {
		if got := itemsIn(t, v); got != 5 {
			t.Errorf("new view %d holds %d items, want 5", i, got)
		}
		v.Close()
	}
}

// While another connection writes, Snapshots does not wait for it: one view.
func TestSnapshotsDoNotWaitForAWriter(t *testing.T) {
	s := storetest.Open(t)
	addQueries(t, s, 0, 1)
	holding, release, done := make(chan struct{}), make(chan struct{}), make(chan error)
	go func() {
		done <- s.Import(func(tx *store.Tx) error {
			close(holding)
			<-release
			return nil
		})
	}()
	<-holding
	views, err := s.Snapshots(2)
	close(release)
	if werr := <-done; werr != nil {
		t.Fatal(werr)
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(views) != 1 {
		t.Errorf("%d views while a writer held the lock, want 1", len(views))
	}
	for _, v := range views {
		if got := itemsIn(t, v); got != 1 {
			t.Errorf("the view holds %d items, want 1", got)
		}
		v.Close()
	}
}

// Under a stream of commits, the views of one call always agree.
func TestSnapshotsAgreeUnderCommits(t *testing.T) {
	s := storetest.Open(t)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if err := s.Import(func(tx *store.Tx) error {
				_, _, err := tx.PutQuery(store.Query{ID: fmt.Sprintf("w%d", i), Text: "t"}, fmt.Sprint("h", i), "test", false)
				return err
			}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	pairs := 0
	for range 40 {
		views, err := s.Snapshots(2)
		if err != nil {
			t.Fatal(err)
		}
		if len(views) == 2 {
			pairs++
			if a, b := itemsIn(t, views[0]), itemsIn(t, views[1]); a != b {
				t.Errorf("two views of one call hold %d and %d items", a, b)
			}
		}
		for _, v := range views {
			v.Close()
		}
	}
	close(stop)
	<-done
	t.Logf("%d of 40 calls gave two views", pairs)
}
