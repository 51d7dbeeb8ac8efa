package store

import (
	"slices"
	"sort"
	"time"

	"github.com/annotate-dev/annotate/internal/clock"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// Progress is how far one annotator is in one queue: a batch, or (Batch "")
// every item of a kind.
type Progress struct {
	Annotator string
	Batch     string
	Pilot     bool
	Kind      string
	Done      int
	Total     int
	ActiveMs  int64 // active time spent on the queue's items
	TodayMs   int64 // of which today (local time)
	MedianMs  int64 // median active time per finished item with active time (Timed of them)
	Timed     int   // finished items with active time: 0 leaves the median undefined
}

// Remaining is Total - Done.
func (p Progress) Remaining() int { return p.Total - p.Done }

// ItemsPerHour is finished items per hour of active time; false without
// active time (items/hour over 0 s has nothing to count).
func (p Progress) ItemsPerHour() (float64, bool) {
	if p.ActiveMs == 0 {
		return 0, false
	}
	return float64(p.Done) / (float64(p.ActiveMs) / 3.6e6), true
}

// Progress reports every annotator's progress ("" : all annotators): one row per
// batch they are assigned to (or have labelled in, for open batches), and one
// per kind over all items.
func (s *Store) Progress(annotator string) ([]Progress, error) {
	names, err := s.Annotators()
	if err != nil {
		return nil, err
	}
	batches, err := s.Batches()
	if err != nil {
		return nil, err
	}
	y, m, d := clock.Now().Date()
	midnight := time.Date(y, m, d, 0, 0, 0, 0, time.Local).UTC()
	var out []Progress
	for _, a := range names {
		if annotator != "" && a.Name != annotator {
			continue
		}
		for _, b := range batches {
			assigned := len(b.Assignees) > 0
			if assigned && !slices.Contains(b.Assignees, a.Name) {
				continue
			}
			p, err := s.progressOf(a, QueueQuery{Annotator: a.Name, Kind: b.Kind, Batch: b.Name}, midnight)
			if err != nil {
				return nil, err
			}
			if !assigned && p.Done == 0 && p.ActiveMs == 0 {
				continue
			}
			p.Batch, p.Pilot = b.Name, b.Pilot
			out = append(out, p)
		}
		for _, k := range schema.Kinds() {
			kind := string(k)
			if n, err := s.kindItems(k); err != nil || n == 0 {
				if err != nil {
					return nil, err
				}
				continue // a kind the database holds nothing of has no queue
			}
			p, err := s.progressOf(a, QueueQuery{Annotator: a.Name, Kind: kind}, midnight)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
	}
	return out, nil
}

// progressOf measures one queue: its size and done count as the annotation
// screens count them, and the active time of the annotator's events on it.
func (s *Store) progressOf(a Annotator, q QueueQuery, midnight time.Time) (Progress, error) {
	p := Progress{Annotator: a.Name, Kind: q.Kind}
	var err error
	if p.Total, err = s.QueueTotal(q); err != nil {
		return p, err
	}
	if p.Done, err = s.QueueDone(q); err != nil {
		return p, err
	}
	sc, err := queueScopeOf(s.db, q)
	if err != nil {
		return p, err
	}
	// The open queue is every item of the kind: join on the kind rather than
	// listing a million ids; the annotator's events come from their index.
	scope, args := sc.itemIDs()
	where, wargs := "e.item_id IN ("+scope+")", args
	if sc.mode == scopeOpen {
		where, wargs = "e.item_id IN (SELECT id FROM items WHERE id=e.item_id AND kind=?)", []any{q.Kind}
	}
	rows, err := s.db.Query(`SELECT e.item_id, SUM(e.active_ms), SUM(CASE WHEN e.created_at>=? THEN e.active_ms ELSE 0 END),
		       EXISTS(SELECT 1 FROM done_items d WHERE d.annotator_id=e.annotator_id AND d.item_id=e.item_id AND NOT d.gated)
		FROM label_events e WHERE e.annotator_id=? AND `+where+` GROUP BY e.item_id`,
		append([]any{midnight.Format(time.RFC3339Nano), a.ID}, wargs...)...)
	if err != nil {
		return p, err
	}
	defer rows.Close()
	var perItem []int64
	for rows.Next() {
		var id, ms, today int64
		var done bool
		if err := rows.Scan(&id, &ms, &today, &done); err != nil {
			return p, err
		}
		p.ActiveMs += ms
		p.TodayMs += today
		if done && ms > 0 {
			perItem = append(perItem, ms)
		}
	}
	p.MedianMs, p.Timed = median(perItem), len(perItem)
	return p, rows.Err()
}

// median is the middle value of v (the mean of the two middle ones), 0 for
// none; it sorts v.
func median(v []int64) int64 {
	if len(v) == 0 {
		return 0
	}
	sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// KindItems counts the items of a kind that have queues of their own (of
// claims, the extracted ones), asked of anybody or not.
func (s *Store) KindItems(kind string) (int, error) { return s.kindItems(schema.Kind(kind)) }

// kindItems counts the items of a kind that have queues.
func (s *Store) kindItems(k schema.Kind) (int, error) {
	var n int
	err := s.db.QueryRow("SELECT COALESCE(SUM(n),0) FROM kept_counts WHERE name=? AND rater=? AND a=?", tally.Items, tally.Anyone, string(k)).Scan(&n)
	return n, err
}
