package store

import (
	"errors"

	"github.com/annotate-dev/annotate/schema"
)

// queueScope is which items a queue holds, resolved once from a QueueQuery:
// every reader of a queue (its entries, its size and done count, an item's
// rank in it, the progress report) starts from this one value, so that they
// agree on what the queue is.
type queueScope struct {
	mode      scopeMode
	annotator int64  // 0: no such annotator (nothing of theirs is done)
	kind      string // the kind asked for (QueueQuery.Kind)
	batch     int64  // the batch, in the two batch modes
	batchKind string // the batch's own kind, in the two batch modes
}

type scopeMode int

const (
	// scopeBatch: every item of one batch that has no assignees.
	scopeBatch scopeMode = iota
	// scopeBatchAssigned: the annotator's assignments in one batch.
	scopeBatchAssigned
	// scopeAssigned: the annotator's assignments of the kind, over every
	// batch; the queue of an annotator with assignments and no batch named.
	scopeAssigned
	// scopeOpen: every item of the kind that has a queue of its own.
	scopeOpen
)

// queueScopeOf resolves a queue: the annotator's id, the batch by name
// (ErrNotFound when there is none), and whether the annotator has
// assignments of the kind.
func queueScopeOf(q querier, qq QueueQuery) (queueScope, error) {
	aid, _, err := lookupAnnotator(q, qq.Annotator)
	if err != nil {
		return queueScope{}, err
	}
	sc := queueScope{annotator: aid, kind: qq.Kind}
	switch {
	case qq.Batch != "":
		var assigned bool
		err := q.QueryRow("SELECT id, kind, EXISTS(SELECT 1 FROM batch_assignees WHERE batch_id=batches.id) FROM batches WHERE name=?", qq.Batch).
			Scan(&sc.batch, &sc.batchKind, &assigned)
		if errors.Is(err, errNoRows) {
			return sc, notFound("batch", qq.Batch)
		}
		if err != nil {
			return sc, err
		}
		sc.mode = scopeBatch
		if assigned {
			sc.mode = scopeBatchAssigned
		}
	case hasAssignments(q, aid, qq.Kind):
		sc.mode = scopeAssigned
	default:
		sc.mode = scopeOpen
	}
	return sc, nil
}

// hasAssignments reports whether the annotator is assigned items of the
// kind in some batch.
func hasAssignments(q querier, aid int64, kind string) bool {
	var ok bool
	q.QueryRow(`SELECT EXISTS(SELECT 1 FROM assignments a JOIN batches b ON b.id=a.batch_id WHERE a.annotator_id=? AND b.kind=?)`, aid, kind).Scan(&ok)
	return ok
}

// queueable is the condition on items i that an item of the kind has a
// queue of its own: of claims the extracted ones, of relevance pairs the
// pooled ones ("1": every item).
func queueable(kind string) string {
	if q, ok := kinds.Get(schema.Kind(kind)).(QueueCond); ok {
		return q.QueueCond()
	}
	return "1"
}

// itemIDs is a query listing the item ids of the queue (one column named
// item_id) with its arguments; "" in the open mode, whose items are better
// joined on their kind than listed.
func (sc queueScope) itemIDs() (string, []any) {
	switch sc.mode {
	case scopeBatch:
		return "SELECT item_id FROM batch_items WHERE batch_id=?", []any{sc.batch}
	case scopeBatchAssigned:
		return "SELECT item_id FROM assignments WHERE batch_id=? AND annotator_id=?", []any{sc.batch, sc.annotator}
	case scopeAssigned:
		return `SELECT a.item_id FROM assignments a JOIN batches b ON b.id=a.batch_id
			WHERE a.annotator_id=? AND b.kind=?`, []any{sc.annotator, sc.kind}
	}
	return "", []any{sc.annotator}
}

// keyed is the queue as SQL: a FROM/WHERE selecting every item of the
// queue, done or not, the expression of its order key (the key Queue
// returns as QueueEntry.Key) and the item id column, with their arguments.
func (sc queueScope) keyed() (from, key, item string, args []any) {
	switch sc.mode {
	case scopeBatchAssigned:
		return "batch_items b JOIN assignments a ON a.batch_id=b.batch_id AND a.item_id=b.item_id WHERE b.batch_id=? AND a.annotator_id=?",
			"b.position", "b.item_id", []any{sc.batch, sc.annotator}
	case scopeBatch:
		return "batch_items b WHERE b.batch_id=?", "b.position", "b.item_id", []any{sc.batch}
	case scopeAssigned:
		return "assignments a JOIN batch_items b ON b.batch_id=a.batch_id AND b.item_id=a.item_id JOIN batches bt ON bt.id=a.batch_id WHERE a.annotator_id=? AND bt.kind=?",
			"((b.batch_id<<32)|b.position)", "a.item_id", []any{sc.annotator, sc.kind}
	}
	return "items i WHERE i.kind=? AND " + queueable(sc.kind) + " AND NOT " + pendingItemSQL("i.id"), "i.id", "i.id", []any{sc.kind}
}

// unfinished is how many items of the queue the annotator has not
// finished, from the kept counts (its size less its done count).
func (sc queueScope) unfinished(db querier) (int, error) {
	total, err := sc.count(db, true)
	if err != nil {
		return 0, err
	}
	done, err := sc.count(db, false)
	return total - done, err
}
