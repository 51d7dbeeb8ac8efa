package store

import (
	"strconv"

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
	return s.queueCount(q, true)
}

// QueueDone is the number of items of a queue the annotator has finished.
func (s *Store) QueueDone(q QueueQuery) (int, error) {
	return s.queueCount(q, false)
}

// queueCount reads a queue's size (total: items queued minus those gated)
// or its done count from the kept counts.
func (s *Store) queueCount(q QueueQuery, total bool) (int, error) {
	return queueCountIn(s.db, q, total)
}

// queueCountIn is queueCount on db: the pool, or a snapshot (the dashboard).
func queueCountIn(db querier, q QueueQuery, total bool) (int, error) {
	sc, err := queueScopeOf(db, q)
	if err != nil {
		return 0, err
	}
	return sc.count(db, total)
}

// count is queueCountIn on a resolved scope.
func (sc queueScope) count(db querier, total bool) (int, error) {
	c := queueCounter{q: db, aid: sc.annotator, total: total}
	switch sc.mode {
	case scopeBatch, scopeBatchAssigned:
		return c.batch(sc.batch, sc.batchKind, sc.mode == scopeBatch)
	case scopeAssigned:
		ids, err := int64s(db, "SELECT b.id FROM batches b JOIN batch_assignees x ON x.batch_id=b.id WHERE x.annotator_id=? AND b.kind=? ORDER BY b.id", sc.annotator, sc.kind)
		if err != nil {
			return 0, err
		}
		n := 0
		for _, id := range ids {
			m, err := c.batch(id, sc.kind, false)
			if err != nil {
				return 0, err
			}
			n += m
		}
		return n, nil
	}
	return c.kind(sc.kind)
}

// queueCounter reads one annotator's queue sizes (total) or done counts
// from the kept counts.
type queueCounter struct {
	q     querier
	aid   int64 // 0: no such annotator
	total bool
}

// sum adds up a kept count of a rater over one value of a (and of b).
func (c queueCounter) sum(name string, rater int64, a string, b ...string) (int, error) {
	query := "SELECT COALESCE(SUM(n),0) FROM kept_counts WHERE name=? AND rater=? AND a=?"
	args := []any{name, rater, a}
	if len(b) > 0 {
		query += " AND b=?"
		args = append(args, b[0])
	}
	var n int
	err := c.q.QueryRow(query, args...).Scan(&n)
	return n, err
}

// offered counts the items of a kind that waits for its parent's labels
// that are asked of the annotator: asked at once (of everyone, or of them),
// or because of their labels, less those their labels withhold; in one
// batch (suffix InBatch, b) or overall.
func (c queueCounter) offered(kind, suffix string, b ...string) (int, error) {
	n := 0
	for _, t := range []struct {
		name  string
		rater int64
		sign  int
	}{{tally.AtOnce, tally.Anyone, 1}, {tally.AtOnce, c.aid, 1}, {tally.Offered, c.aid, 1}, {tally.Withheld, c.aid, -1}} {
		if t.rater == 0 {
			continue // no such annotator: nothing asked of them but what everyone is asked
		}
		m, err := c.sum(t.name+suffix, t.rater, kind, b...)
		if err != nil {
			return 0, err
		}
		n += t.sign * m
	}
	return n, nil
}

// batch counts one batch, of the annotator's own items when it has
// assignees (open: it has none).
func (c queueCounter) batch(bid int64, kind string, open bool) (int, error) {
	b := strconv.FormatInt(bid, 10)
	if !c.total {
		return c.sum(tally.Done+tally.InBatch, c.aid, kind, b)
	}
	if schema.WaitsForParent(schema.Kind(kind)) {
		return c.offered(kind, tally.InBatch, b)
	}
	rater := c.aid
	if open {
		rater = tally.Anyone
	}
	n, err := c.sum(tally.Queued, rater, kind, b)
	if err != nil {
		return 0, err
	}
	gated, err := c.sum(tally.Gated+tally.InBatch, c.aid, kind, b)
	return n - gated, err
}

// kind counts every item of the kind that has a queue (the open mode).
func (c queueCounter) kind(kind string) (int, error) {
	if !c.total {
		return c.sum(tally.Done, c.aid, kind)
	}
	if schema.WaitsForParent(schema.Kind(kind)) {
		return c.offered(kind, "")
	}
	n, err := c.sum(tally.Items, tally.Anyone, kind)
	if err != nil {
		return 0, err
	}
	gated, err := c.sum(tally.Gated, c.aid, kind)
	return n - gated, err
}
