package storetest

import (
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
