package store

import (
	"database/sql"
	"errors"
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
	var aid int64
	err := s.db.QueryRow("SELECT id FROM annotators WHERE name=?", q.Annotator).Scan(&aid)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	notDone := "NOT EXISTS (SELECT 1 FROM done_items d WHERE d.annotator_id=? AND d.item_id=i.id)"
	// A claim is in the queue once it is asked of the annotator (its answer
	// judged correct, or not under review): offered follows notDone.
	offered, offeredArgs := offeredCond(schema.Kind(q.Kind), "i.id", aid)
	if offered != "" {
		notDone += " AND " + offered
	}
	withOffered := func(args ...any) []any { return append(args, offeredArgs...) }
	queueable := "1"
	if k := sqlOf[schema.Kind(q.Kind)]; k.queueable != "" {
		queueable = k.queueable
	}
	var rows *sql.Rows
	switch {
	case q.Batch != "":
		var bid int64
		var assigned bool
		if err := s.db.QueryRow("SELECT id, EXISTS(SELECT 1 FROM batch_assignees WHERE batch_id=batches.id) FROM batches WHERE name=?", q.Batch).Scan(&bid, &assigned); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return nil, notFound("batch", q.Batch)
			}
			return nil, err
		}
		mine := "1"
		if assigned {
			mine = "EXISTS (SELECT 1 FROM assignments a WHERE a.batch_id=b.batch_id AND a.annotator_id=? AND a.item_id=i.id)"
		}
		query := fmt.Sprintf(`SELECT i.id, i.ext_id, i.kind, b.position FROM batch_items b JOIN items i ON i.id=b.item_id
			WHERE b.batch_id=? AND b.position>? AND %s AND %s ORDER BY b.position LIMIT ?`, notDone, mine)
		args := withOffered(bid, q.After, aid)
		if assigned {
			args = append(args, aid)
		}
		rows, err = s.db.Query(query, append(args, q.Limit)...)
	case s.hasAssignments(aid, q.Kind):
		// Key packs (batch id, position) so that the cursor orders batches first.
		rows, err = s.db.Query(`SELECT i.id, i.ext_id, i.kind, (b.batch_id<<32)|b.position, bt.name FROM assignments a
			JOIN batch_items b ON b.batch_id=a.batch_id AND b.item_id=a.item_id
			JOIN batches bt ON bt.id=a.batch_id JOIN items i ON i.id=a.item_id
			WHERE a.annotator_id=? AND i.kind=? AND ((b.batch_id<<32)|b.position)>? AND `+notDone+`
			ORDER BY b.batch_id, b.position LIMIT ?`, append(withOffered(aid, q.Kind, q.After, aid), q.Limit)...)
	default:
		rows, err = s.db.Query(`SELECT i.id, i.ext_id, i.kind, i.id FROM items i
			WHERE i.kind=? AND i.id>? AND `+notDone+` AND `+queueable+` ORDER BY i.id LIMIT ?`, append(withOffered(q.Kind, q.After, aid), q.Limit)...)
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

func (s *Store) hasAssignments(aid int64, kind string) bool { return hasAssignmentsIn(s.db, aid, kind) }

func hasAssignmentsIn(db querier, aid int64, kind string) bool {
	var ok bool
	db.QueryRow(`SELECT EXISTS(SELECT 1 FROM assignments a JOIN batches b ON b.id=a.batch_id WHERE a.annotator_id=? AND b.kind=?)`, aid, kind).Scan(&ok)
	return ok
}
