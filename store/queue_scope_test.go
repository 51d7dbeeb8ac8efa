package store

import (
	"errors"
	"testing"
)

// TestQueueReadersAgreeOnTheScope checks, for each mode of queueScope, that
// the queue's entries, its total, an item's rank and the scope's own id
// list all hold the same items, and the counts made by hand: ten QA pairs;
// batch "open" (no assignees) takes q1..q3; batch "mine" takes q4..q7,
// round robin to jo and sam one each (jo q4, q6; sam q5, q7).
func TestQueueReadersAgreeOnTheScope(t *testing.T) {
	s := openTemp(t)
	seed(t, s, 10, 0)
	if _, err := s.CreateBatch(BatchSpec{Name: "open", Kind: "qa", Size: 3}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateBatch(BatchSpec{Name: "mine", Kind: "qa", Size: 4, Assign: []string{"jo", "sam"}, Overlap: 1}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		q     QueueQuery
		mode  scopeMode
		items string
	}{
		{QueueQuery{Annotator: "jo", Kind: "qa", Batch: "open"}, scopeBatch, "q1 q2 q3"},
		{QueueQuery{Annotator: "jo", Kind: "qa", Batch: "mine"}, scopeBatchAssigned, "q4 q6"},
		{QueueQuery{Annotator: "sam", Kind: "qa"}, scopeAssigned, "q5 q7"},
		{QueueQuery{Annotator: "ann", Kind: "qa"}, scopeOpen, "q1 q2 q3 q4 q5 q6 q7 q8 q9 q10"},
	} {
		sc, err := queueScopeOf(s.db, c.q)
		if err != nil {
			t.Fatal(err)
		}
		if sc.mode != c.mode {
			t.Errorf("%+v: mode %d, want %d", c.q, sc.mode, c.mode)
		}
		if got := queueIDs(t, s, c.q); got != c.items {
			t.Errorf("%+v: Queue %q, want %q", c.q, got, c.items)
		}
		entries, err := s.pooled().Queue(c.q)
		if err != nil {
			t.Fatal(err)
		}
		total, err := s.pooled().QueueTotal(c.q)
		if err != nil {
			t.Fatal(err)
		}
		rank, err := s.pooled().QueueRank(c.q, 0, entries[len(entries)-1].Key)
		if err != nil {
			t.Fatal(err)
		}
		listed := len(entries) // the open mode lists no ids: it joins on the kind
		if q, args := sc.itemIDs(); q != "" {
			if err := s.db.QueryRow("SELECT COUNT(*) FROM ("+q+")", args...).Scan(&listed); err != nil {
				t.Fatal(err)
			}
		}
		if total != len(entries) || rank != len(entries) || listed != len(entries) {
			t.Errorf("%+v: %d entries, total %d, rank of the last %d, %d ids listed", c.q, len(entries), total, rank, listed)
		}
	}
	if _, err := queueScopeOf(s.db, QueueQuery{Annotator: "jo", Kind: "qa", Batch: "nope"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown batch: %v, want ErrNotFound", err)
	}
}
