package store

import (
	"sort"
	"time"
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
	MedianMs  int64 // median active time per finished item
}

// Remaining is Total - Done.
func (p Progress) Remaining() int { return p.Total - p.Done }

// ItemsPerHour is finished items per hour of active time (0 without time).
func (p Progress) ItemsPerHour() float64 {
	if p.ActiveMs == 0 {
		return 0
	}
	return float64(p.Done) / (float64(p.ActiveMs) / 3.6e6)
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
	y, m, d := time.Now().Date()
	midnight := time.Date(y, m, d, 0, 0, 0, 0, time.Local).UTC()
	var out []Progress
	for _, a := range names {
		if annotator != "" && a.Name != annotator {
			continue
		}
		for _, b := range batches {
			assigned := len(b.Assignees) > 0
			if assigned && !contains(b.Assignees, a.Name) {
				continue
			}
			scope := `SELECT bi.item_id FROM batch_items bi JOIN batches bt ON bt.id=bi.batch_id WHERE bt.name=?`
			args := []any{b.Name}
			if assigned {
				scope = `SELECT x.item_id FROM assignments x JOIN batches bt ON bt.id=x.batch_id WHERE bt.name=? AND x.annotator_id=?`
				args = append(args, a.ID)
			}
			p, err := s.progressOver(a, scope, args, midnight)
			if err != nil {
				return nil, err
			}
			if !assigned && p.Done == 0 && p.ActiveMs == 0 {
				continue
			}
			p.Batch, p.Kind, p.Pilot = b.Name, b.Kind, b.Pilot
			out = append(out, p)
		}
		for _, kind := range []string{"qa", "claim"} {
			scope := `SELECT i.id FROM items i WHERE i.kind=? AND (i.kind<>'claim' OR EXISTS (SELECT 1 FROM claims c WHERE c.item_id=i.id AND c.origin='extracted'))`
			p, err := s.progressOver(a, scope, []any{kind}, midnight)
			if err != nil {
				return nil, err
			}
			p.Kind = kind
			out = append(out, p)
		}
	}
	return out, nil
}

func (s *Store) progressOver(a Annotator, scope string, args []any, midnight time.Time) (Progress, error) {
	p := Progress{Annotator: a.Name}
	all := append(append([]any{}, args...), a.ID)
	err := s.db.QueryRow(`WITH scope(id) AS (`+scope+`)
		SELECT (SELECT COUNT(*) FROM scope), (SELECT COUNT(*) FROM done_items d WHERE d.annotator_id=? AND d.item_id IN scope)`,
		all...).Scan(&p.Total, &p.Done)
	if err != nil {
		return p, err
	}
	rows, err := s.db.Query(`WITH scope(id) AS (`+scope+`)
		SELECT e.item_id, SUM(e.active_ms), SUM(CASE WHEN e.created_at>=? THEN e.active_ms ELSE 0 END),
		       EXISTS(SELECT 1 FROM done_items d WHERE d.annotator_id=e.annotator_id AND d.item_id=e.item_id)
		FROM label_events e WHERE e.annotator_id=? AND e.item_id IN scope GROUP BY e.item_id`,
		append(append(append([]any{}, args...), midnight.Format(time.RFC3339Nano)), a.ID)...)
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
		if done {
			perItem = append(perItem, ms)
		}
	}
	p.MedianMs = median(perItem)
	return p, rows.Err()
}

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

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Annotator is a person (or an imported label set) that labels items.
type Annotator struct {
	ID    int64
	Name  string
	Human bool
}

// Annotators lists annotators in creation order.
func (s *Store) Annotators() ([]Annotator, error) {
	rows, err := s.db.Query("SELECT id, name, human FROM annotators ORDER BY id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Annotator
	for rows.Next() {
		var a Annotator
		if err := rows.Scan(&a.ID, &a.Name, &a.Human); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}
