package store

import (
	"database/sql"
	"errors"
	"time"
)

// Queue sizes for the annotation screens' header ("item k of n"). They count
// the same items Queue walks through, cheaply enough to ask after every
// finished item: QueueDone reads only the annotator's done items.

// queueScope returns a query listing the item ids of a queue (one column
// named item_id), its arguments, and whether it is the open "every item of
// the kind" queue.
func (s *Store) queueScope(q QueueQuery) (string, []any, bool, error) {
	var aid int64
	err := s.db.QueryRow("SELECT id FROM annotators WHERE name=?", q.Annotator).Scan(&aid)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", nil, false, err
	}
	switch {
	case q.Batch != "":
		var bid int64
		var assigned bool
		if err := s.db.QueryRow("SELECT id, EXISTS(SELECT 1 FROM batch_assignees WHERE batch_id=batches.id) FROM batches WHERE name=?", q.Batch).Scan(&bid, &assigned); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return "", nil, false, notFound("batch", q.Batch)
			}
			return "", nil, false, err
		}
		if assigned {
			return "SELECT item_id FROM assignments WHERE batch_id=? AND annotator_id=?", []any{bid, aid}, false, nil
		}
		return "SELECT item_id FROM batch_items WHERE batch_id=?", []any{bid}, false, nil
	case s.hasAssignments(aid, q.Kind):
		return `SELECT a.item_id FROM assignments a JOIN batches b ON b.id=a.batch_id
			WHERE a.annotator_id=? AND b.kind=?`, []any{aid, q.Kind}, false, nil
	}
	return "", []any{aid}, true, nil
}

// QueueTotal is the number of items in a queue, done or not.
func (s *Store) QueueTotal(q QueueQuery) (int, error) {
	scope, args, open, err := s.queueScope(q)
	if err != nil {
		return 0, err
	}
	var n int
	switch {
	case !open:
		err = s.db.QueryRow("SELECT COUNT(*) FROM ("+scope+")", args...).Scan(&n)
	case q.Kind == "claim":
		err = s.db.QueryRow("SELECT COUNT(*) FROM claims WHERE origin='extracted'").Scan(&n)
	default:
		err = s.db.QueryRow("SELECT COUNT(*) FROM items WHERE kind=?", q.Kind).Scan(&n)
	}
	return n, err
}

// QueueDone is the number of items of a queue the annotator has finished.
func (s *Store) QueueDone(q QueueQuery) (int, error) {
	scope, args, open, err := s.queueScope(q)
	if err != nil {
		return 0, err
	}
	var aid int64
	if err := s.db.QueryRow("SELECT id FROM annotators WHERE name=?", q.Annotator).Scan(&aid); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return 0, nil
		}
		return 0, err
	}
	var n int
	if open {
		err = s.db.QueryRow(`SELECT COUNT(*) FROM done_items d WHERE d.annotator_id=? AND d.kind=?
			AND (d.kind<>'claim' OR EXISTS (SELECT 1 FROM claims c WHERE c.item_id=d.item_id AND c.origin='extracted'))`,
			aid, q.Kind).Scan(&n)
		return n, err
	}
	err = s.db.QueryRow("SELECT COUNT(*) FROM done_items d WHERE d.annotator_id=? AND d.item_id IN ("+scope+")",
		append([]any{aid}, args...)...).Scan(&n)
	return n, err
}

// ActiveSince is the active time (ms) of the annotator's decisions recorded
// at or after t: the home screen's "today".
func (s *Store) ActiveSince(annotator string, t time.Time) (int64, error) {
	var ms int64
	err := s.db.QueryRow(`SELECT COALESCE(SUM(e.active_ms),0) FROM label_events e JOIN annotators a ON a.id=e.annotator_id
		WHERE a.name=? AND e.created_at>=?`, annotator, t.UTC().Format(time.RFC3339Nano)).Scan(&ms)
	return ms, err
}
