package store

import (
	"database/sql"
	"fmt"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// QueueQuery asks for the next items an annotator has not finished.
type QueueQuery struct {
	Annotator string
	Kind      string // an annotated kind
	Batch     string // "" : the annotator's assigned items, else every item of the kind
	After     int64  // cursor: Entry.Key of the last entry already held
	Limit     int
	Filter    QueueFilter // narrows the queue (filter.go)
}

// QueueEntry is one item of a queue.
type QueueEntry struct {
	ItemRef
	Batch string
	Key   int64 // order key, for QueueQuery.After
}

// Queue returns the next unfinished items in queue order: batch order within a
// batch, import order otherwise. Claims added by annotators are not queued.
func (s *Store) Queue(q QueueQuery) ([]QueueEntry, error) {
	if q.Limit <= 0 {
		q.Limit = 50
	}
	sc, err := queueScopeOf(s.db, q)
	if err != nil {
		return nil, err
	}
	if q.After == 0 {
		// A queue the kept counts say is finished is empty: its first page
		// need not walk past every item done (an annotator at the end of a
		// million claims).
		if left, err := sc.unfinished(s.db); err != nil || left == 0 {
			return nil, err
		}
	}
	aid := sc.annotator
	kind := schema.Kind(q.Kind)
	notDone := func(item string) string {
		return "NOT EXISTS (SELECT 1 FROM done_items d WHERE d.annotator_id=? AND d.item_id=" + item + ")"
	}
	// more are the conditions after notDone, and their arguments: a claim
	// is in the queue once it is asked of the annotator (its answer judged
	// correct, or not under review), then the filter's. The open queue of
	// such a kind walks the asked items themselves instead.
	var more string
	var moreArgs []any
	if asked, args := askedCond(kind, "i.id", aid); asked != "" && sc.mode != scopeOpen {
		more += " AND " + asked
		moreArgs = append(moreArgs, args...)
	}
	if f, fargs := filterCond(q.Filter, "i.id", aid); f != "" {
		more += " AND " + f
		moreArgs = append(moreArgs, fargs...)
	}
	withMore := func(args ...any) []any { return append(args, moreArgs...) }
	var rows *sql.Rows
	switch {
	case sc.mode == scopeBatch, sc.mode == scopeBatchAssigned:
		mine, args := "1", withMore(sc.batch, q.After, aid)
		if sc.mode == scopeBatchAssigned {
			mine = "EXISTS (SELECT 1 FROM assignments a WHERE a.batch_id=b.batch_id AND a.annotator_id=? AND a.item_id=i.id)"
			args = append(args, aid)
		}
		query := fmt.Sprintf(`SELECT i.id, i.ext_id, i.kind, b.position FROM batch_items b JOIN items i ON i.id=b.item_id
			WHERE b.batch_id=? AND b.position>? AND %s%s AND %s ORDER BY b.position LIMIT ?`, notDone("i.id"), more, mine)
		rows, err = s.db.Query(query, append(args, q.Limit)...)
	case sc.mode == scopeAssigned:
		// Key packs (batch id, position) so that the cursor orders batches first.
		rows, err = s.db.Query(`SELECT i.id, i.ext_id, i.kind, (b.batch_id<<32)|b.position, bt.name FROM assignments a
			JOIN batch_items b ON b.batch_id=a.batch_id AND b.item_id=a.item_id
			JOIN batches bt ON bt.id=a.batch_id JOIN items i ON i.id=a.item_id
			WHERE a.annotator_id=? AND i.kind=? AND ((b.batch_id<<32)|b.position)>? AND `+notDone("i.id")+more+`
			ORDER BY b.batch_id, b.position LIMIT ?`, append(withMore(aid, q.Kind, q.After, aid), q.Limit)...)
	case schema.WaitsForParent(kind):
		// The items asked of everyone, merged with those asked of the
		// annotator: each an ordered range of asked_items' key that SQLite
		// reads no further than the page (an item is in one or the other,
		// never both: tally.Result.Asked). A done item is passed over
		// before its items row is read.
		arm := `SELECT x.item_id, i.ext_id, i.kind, x.item_id FROM asked_items x CROSS JOIN items i ON i.id = x.item_id
			WHERE x.annotator_id=? AND x.item_id>? AND ` + notDone("x.item_id") + ` AND i.kind=? AND ` + queueable(q.Kind) + more +
			` AND NOT ` + pendingItemSQL("x.item_id")
		var args []any
		for _, rater := range []int64{tally.Anyone, aid} {
			args = append(args, withMore(rater, q.After, aid, q.Kind)...)
		}
		rows, err = s.db.Query(arm+" UNION ALL "+arm+" ORDER BY 1 LIMIT ?", append(args, q.Limit)...)
	default:
		rows, err = s.db.Query(`SELECT i.id, i.ext_id, i.kind, i.id FROM items i
			WHERE i.kind=? AND i.id>? AND `+notDone("i.id")+more+` AND `+queueable(q.Kind)+` AND NOT `+pendingItemSQL("i.id")+` ORDER BY i.id LIMIT ?`, append(withMore(q.Kind, q.After, aid), q.Limit)...)
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []QueueEntry
	for rows.Next() {
		e := QueueEntry{Batch: q.Batch}
		dest := []any{&e.ItemID, &e.ExtID, &e.Kind, &e.Key}
		if len(cols) == 5 {
			dest = append(dest, &e.Batch)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}
