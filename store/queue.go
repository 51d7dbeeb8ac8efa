package store

import (
	"database/sql"
	"fmt"

	"github.com/annotate-dev/annotate/schema"
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
	aid := sc.annotator
	notDone := "NOT EXISTS (SELECT 1 FROM done_items d WHERE d.annotator_id=? AND d.item_id=i.id)"
	// A claim is in the queue once it is asked of the annotator (its answer
	// judged correct, or not under review): offered follows notDone.
	offered, offeredArgs := offeredCond(schema.Kind(q.Kind), "i.id", aid)
	if offered != "" {
		notDone += " AND " + offered
	}
	if f, fargs := filterCond(q.Filter, "i.id", aid); f != "" {
		notDone += " AND " + f
		offeredArgs = append(offeredArgs, fargs...)
	}
	withOffered := func(args ...any) []any { return append(args, offeredArgs...) }
	var rows *sql.Rows
	switch sc.mode {
	case scopeBatch, scopeBatchAssigned:
		mine, args := "1", withOffered(sc.batch, q.After, aid)
		if sc.mode == scopeBatchAssigned {
			mine = "EXISTS (SELECT 1 FROM assignments a WHERE a.batch_id=b.batch_id AND a.annotator_id=? AND a.item_id=i.id)"
			args = append(args, aid)
		}
		query := fmt.Sprintf(`SELECT i.id, i.ext_id, i.kind, b.position FROM batch_items b JOIN items i ON i.id=b.item_id
			WHERE b.batch_id=? AND b.position>? AND %s AND %s ORDER BY b.position LIMIT ?`, notDone, mine)
		rows, err = s.db.Query(query, append(args, q.Limit)...)
	case scopeAssigned:
		// Key packs (batch id, position) so that the cursor orders batches first.
		rows, err = s.db.Query(`SELECT i.id, i.ext_id, i.kind, (b.batch_id<<32)|b.position, bt.name FROM assignments a
			JOIN batch_items b ON b.batch_id=a.batch_id AND b.item_id=a.item_id
			JOIN batches bt ON bt.id=a.batch_id JOIN items i ON i.id=a.item_id
			WHERE a.annotator_id=? AND i.kind=? AND ((b.batch_id<<32)|b.position)>? AND `+notDone+`
			ORDER BY b.batch_id, b.position LIMIT ?`, append(withOffered(aid, q.Kind, q.After, aid), q.Limit)...)
	default:
		rows, err = s.db.Query(`SELECT i.id, i.ext_id, i.kind, i.id FROM items i
			WHERE i.kind=? AND i.id>? AND `+notDone+` AND `+queueable(q.Kind)+` AND NOT `+pendingItemSQL("i.id")+` ORDER BY i.id LIMIT ?`, append(withOffered(q.Kind, q.After, aid), q.Limit)...)
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
