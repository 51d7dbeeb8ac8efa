package store

import (
	"database/sql"
	"errors"
	"strconv"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
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

// QueueTotal is the number of items in a queue that ask the annotator
// something, done or not: claims are in it once the annotator judged their
// answer correct (or at once, when the answer is not under review), never
// those of answers judged otherwise (the asked-when rule).
func (s *Store) QueueTotal(q QueueQuery) (int, error) {
	return s.queueCount(q, tally.Queued, true)
}

// QueueDone is the number of items of a queue the annotator has finished.
func (s *Store) QueueDone(q QueueQuery) (int, error) {
	return s.queueCount(q, tally.Done, false)
}

// queueCount reads a queue's size (total: items queued minus those gated)
// or its done count from the kept counts.
func (s *Store) queueCount(q QueueQuery, name string, total bool) (int, error) {
	var aid int64
	err := s.db.QueryRow("SELECT id FROM annotators WHERE name=?", q.Annotator).Scan(&aid)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	sum := func(name string, rater int64, a string, b ...string) (int, error) {
		query := "SELECT COALESCE(SUM(n),0) FROM kept_counts WHERE name=? AND rater=? AND a=?"
		args := []any{name, rater, a}
		if len(b) > 0 {
			query += " AND b=?"
			args = append(args, b[0])
		}
		var n int
		err := s.db.QueryRow(query, args...).Scan(&n)
		return n, err
	}
	// offered counts the items of a kind that waits for its parent's
	// labels that are asked of the annotator: asked at once (of everyone,
	// or of them), or because of their labels, less those their labels
	// withhold; in one batch (suffix InBatch, b) or overall.
	offered := func(kind, suffix string, b ...string) (int, error) {
		n := 0
		for _, c := range []struct {
			name  string
			rater int64
			sign  int
		}{{tally.AtOnce, tally.Anyone, 1}, {tally.AtOnce, aid, 1}, {tally.Offered, aid, 1}, {tally.Withheld, aid, -1}} {
			if c.rater == 0 {
				continue // no such annotator: nothing asked of them but what everyone is asked
			}
			m, err := sum(c.name+suffix, c.rater, kind, b...)
			if err != nil {
				return 0, err
			}
			n += c.sign * m
		}
		return n, nil
	}
	// batch counts one batch, of the annotator's own when it has assignees.
	batch := func(bid int64, kind string, open bool) (int, error) {
		b := strconv.FormatInt(bid, 10)
		if !total {
			return sum(tally.Done+tally.InBatch, aid, kind, b)
		}
		if schema.WaitsForParent(schema.Kind(kind)) {
			return offered(kind, tally.InBatch, b)
		}
		rater := aid
		if open {
			rater = tally.Anyone
		}
		n, err := sum(tally.Queued, rater, kind, b)
		if err != nil {
			return 0, err
		}
		gated, err := sum(tally.Gated+tally.InBatch, aid, kind, b)
		return n - gated, err
	}
	switch {
	case q.Batch != "":
		var bid int64
		var kind string
		var assigned bool
		if err := s.db.QueryRow("SELECT id, kind, EXISTS(SELECT 1 FROM batch_assignees WHERE batch_id=batches.id) FROM batches WHERE name=?", q.Batch).Scan(&bid, &kind, &assigned); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return 0, notFound("batch", q.Batch)
			}
			return 0, err
		}
		return batch(bid, kind, !assigned)
	case s.hasAssignments(aid, q.Kind):
		ids, err := int64s(s.db, "SELECT b.id FROM batches b JOIN batch_assignees x ON x.batch_id=b.id WHERE x.annotator_id=? AND b.kind=? ORDER BY b.id", aid, q.Kind)
		if err != nil {
			return 0, err
		}
		n := 0
		for _, id := range ids {
			m, err := batch(id, q.Kind, false)
			if err != nil {
				return 0, err
			}
			n += m
		}
		return n, nil
	}
	if !total {
		return sum(tally.Done, aid, q.Kind)
	}
	if schema.WaitsForParent(schema.Kind(q.Kind)) {
		return offered(q.Kind, "")
	}
	n, err := sum(tally.Items, tally.Anyone, q.Kind)
	if err != nil {
		return 0, err
	}
	gated, err := sum(tally.Gated, aid, q.Kind)
	return n - gated, err
}
