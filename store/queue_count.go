package store

import (
	"strconv"
	"time"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// Queue sizes for the annotation screens' header ("item k of n"). They count
// the same items Queue walks through, cheaply enough to ask after every
// finished item: QueueDone reads only the annotator's done items.

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
	sc, err := queueScopeOf(s.db, q)
	if err != nil {
		return 0, err
	}
	aid := sc.annotator
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
	switch sc.mode {
	case scopeBatch, scopeBatchAssigned:
		return batch(sc.batch, sc.batchKind, sc.mode == scopeBatch)
	case scopeAssigned:
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

// ActiveSince is the active time (ms) of the annotator's decisions recorded
// at or after t: the home screen's "today".
func (s *Store) ActiveSince(annotator string, t time.Time) (int64, error) {
	var ms int64
	err := s.db.QueryRow(`SELECT COALESCE(SUM(e.active_ms),0) FROM label_events e JOIN annotators a ON a.id=e.annotator_id
		WHERE a.name=? AND e.created_at>=?`, annotator, t.UTC().Format(time.RFC3339Nano)).Scan(&ms)
	return ms, err
}
