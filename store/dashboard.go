package store

import (
	"database/sql"
	"hash/fnv"
	"strconv"
	"time"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// The lead's dashboard reads everything it draws in one snapshot per
// refresh: its own rows here (progress from the kept counts, the per-day
// counts the label_days triggers keep, sessions and rates), and the
// reports' reads through the view it hands to the caller, whose Read reuses
// the same snapshot. Nothing here scans the label log.

// Dashboard is one refresh of the dashboard's own rows.
type Dashboard struct {
	Taken      time.Time
	Annotators []DashboardAnnotator // creation order
	Queues     []QueueProgress      // per annotator (creation order), batches then kinds
	Days       []LabelDay           // the last days, oldest first, every day present
	Sessions   []SessionSpan        // for the session hours (cost)
	Done       map[[2]string]int    // (annotator, kind) -> items finished
	// Fingerprint changes whenever what the reports read may have: the
	// kept counts, the annotators, the batches' assignees, the label log,
	// the items and the runs. Equal fingerprints: the reports of the last
	// refresh still hold (report.Dashboard reuses them).
	Fingerprint uint64
}

// DashboardAnnotator is an annotator with their rate and role.
type DashboardAnnotator struct {
	AnnotatorRate
	ID    int64
	Human bool
}

// QueueProgress is one annotator's done and total in one queue: a batch, or
// (Batch "") every item of a kind, counted as the annotation screens count
// them.
type QueueProgress struct {
	Annotator, Batch, Kind string
	Pilot                  bool
	Done, Total            int
}

// LabelDay is one day's decisions and active time, by annotator.
type LabelDay struct {
	Day      string           // YYYY-MM-DD (UTC)
	Labels   map[string]int   // annotator -> decisions
	ActiveMs map[string]int64 // annotator -> active time
}

// Dashboard reads the dashboard's rows of the last days (up to and including
// now's day) and then runs fn, if given, with them and a view of the store
// whose Read sees the same snapshot: the reports fn builds (agreement, metrics…) add up
// with the progress read here. The view is for reports that read through
// Read only; it is valid until fn returns.
func (s *Store) Dashboard(now time.Time, days int, fn func(d *Dashboard, view *Store) error) (*Dashboard, error) {
	c, err := s.openReadConn()
	if err != nil {
		return nil, err
	}
	defer c.close()
	d := &Dashboard{Taken: now, Done: map[[2]string]int{}}
	if err := d.read(c, now, days); err != nil {
		return nil, err
	}
	if fn != nil {
		if err := fn(d, &Store{db: s.db, Path: s.Path, snap: c, busyMS: s.busyMS}); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func (d *Dashboard) read(q querier, now time.Time, days int) error {
	name := map[int64]string{}
	err := eachRow(q, "SELECT id, name, human, rate, currency, role FROM annotators ORDER BY id", nil, func(sc func(...any) error) error {
		var a DashboardAnnotator
		var rate sql.NullFloat64
		if err := sc(&a.ID, &a.Name, &a.Human, &rate, &a.Currency, &a.Role); err != nil {
			return err
		}
		if rate.Valid {
			a.Rate = &rate.Float64
		}
		name[a.ID] = a.Name
		d.Annotators = append(d.Annotators, a)
		return nil
	})
	if err != nil {
		return err
	}
	if err := d.readQueues(q); err != nil {
		return err
	}
	err = eachRow(q, "SELECT rater, a, SUM(n) FROM kept_counts WHERE name=? GROUP BY rater, a", []any{tally.Done}, func(sc func(...any) error) error {
		var rater int64
		var kind string
		var n int
		if err := sc(&rater, &kind, &n); err != nil {
			return err
		}
		d.Done[[2]string{name[rater], kind}] += n
		return nil
	})
	if err != nil {
		return err
	}
	if err := d.readDays(q, name, now, days); err != nil {
		return err
	}
	if d.Sessions, err = sessionSpansIn(q, ""); err != nil {
		return err
	}
	d.Fingerprint, err = fingerprint(q)
	return err
}

// fingerprint hashes what the reports read, cheaply: the kept counts are a
// few hundred rows whatever the size of the database, and the largest ids
// of the log, the items and the runs are one index lookup each (an undo or
// a changed label is a new event; an import, new items or runs).
func fingerprint(q querier) (uint64, error) {
	h := fnv.New64a()
	for _, query := range []string{
		"SELECT name, rater, source_id, a, b, n FROM kept_counts",
		"SELECT id, name, human, role FROM annotators",
		"SELECT batch_id, annotator_id FROM batch_assignees",
		"SELECT (SELECT MAX(id) FROM label_events), (SELECT MAX(id) FROM items), (SELECT MAX(id) FROM runs), (SELECT COUNT(*) FROM runs)",
	} {
		rows, err := q.Query(query)
		if err != nil {
			return 0, err
		}
		cols, _ := rows.Columns()
		vals := make([]sql.RawBytes, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				rows.Close()
				return 0, err
			}
			for _, v := range vals {
				h.Write(v)
				h.Write([]byte{0})
			}
			h.Write([]byte{1})
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return 0, err
		}
		h.Write([]byte{2})
	}
	return h.Sum64(), nil
}

// readQueues measures every human annotator's queues: the batches assigned
// to them (or open batches they have finished something in), then every
// kind the database holds items of. An annotator with no label, no item
// finished and no batch (a name created and never used) is left out.
func (d *Dashboard) readQueues(q querier) error {
	type batch struct {
		name, kind string
		pilot      bool
		assignees  map[int64]bool
	}
	var batches []*batch
	byID := map[int64]*batch{}
	err := eachRow(q, "SELECT id, name, kind, pilot FROM batches ORDER BY id", nil, func(sc func(...any) error) error {
		var id int64
		b := &batch{assignees: map[int64]bool{}}
		if err := sc(&id, &b.name, &b.kind, &b.pilot); err != nil {
			return err
		}
		batches, byID[id] = append(batches, b), b
		return nil
	})
	if err != nil {
		return err
	}
	err = eachRow(q, "SELECT batch_id, annotator_id FROM batch_assignees", nil, func(sc func(...any) error) error {
		var bid, aid int64
		if err := sc(&bid, &aid); err != nil {
			return err
		}
		if b := byID[bid]; b != nil {
			b.assignees[aid] = true
		}
		return nil
	})
	if err != nil {
		return err
	}
	items := map[string]int{}
	err = eachRow(q, "SELECT a, SUM(n) FROM kept_counts WHERE name=? AND rater=? GROUP BY a", []any{tally.Items, tally.Anyone}, func(sc func(...any) error) error {
		var kind string
		var n int
		if err := sc(&kind, &n); err != nil {
			return err
		}
		items[kind] = n
		return nil
	})
	if err != nil {
		return err
	}
	labelled := map[int64]bool{}
	// Whose labels stand, as the reports say (labels that count, labels not
	// asked, claims added).
	err = eachRow(q, "SELECT DISTINCT rater FROM kept_counts WHERE name IN (?,?,?) AND n > 0", []any{tally.Label, tally.NotAsked, tally.Added}, func(sc func(...any) error) error {
		var id int64
		err := sc(&id)
		labelled[id] = true
		return err
	})
	if err != nil {
		return err
	}
	measure := func(qq QueueQuery) (QueueProgress, error) {
		p := QueueProgress{Annotator: qq.Annotator, Batch: qq.Batch, Kind: qq.Kind}
		var err error
		if p.Total, err = queueCountIn(q, qq, true); err != nil {
			return p, err
		}
		p.Done, err = queueCountIn(q, qq, false)
		return p, err
	}
	for _, a := range d.Annotators {
		if !a.Human {
			continue
		}
		mine := len(d.Queues)
		for _, b := range batches {
			assigned := len(b.assignees) > 0
			if assigned && !b.assignees[a.ID] {
				continue
			}
			p, err := measure(QueueQuery{Annotator: a.Name, Kind: b.kind, Batch: b.name})
			if err != nil {
				return err
			}
			if !assigned && p.Done == 0 {
				continue
			}
			p.Pilot = b.pilot
			d.Queues = append(d.Queues, p)
		}
		for _, k := range schema.Kinds() {
			if items[string(k)] == 0 {
				continue // a kind the database holds nothing of has no queue
			}
			p, err := measure(QueueQuery{Annotator: a.Name, Kind: string(k)})
			if err != nil {
				return err
			}
			d.Queues = append(d.Queues, p)
		}
		if !labelled[a.ID] && !working(d.Queues[mine:]) {
			d.Queues = d.Queues[:mine] // a name with nothing to show
		}
	}
	return nil
}

// working reports whether an annotator's queues show work: an item
// finished, or a batch assigned.
func working(qs []QueueProgress) bool {
	for _, q := range qs {
		if q.Done > 0 || q.Batch != "" {
			return true
		}
	}
	return false
}

// readDays reads the per-day counts of the last days, every day present
// (a day without decisions is a zero, which a sparkline must show).
func (d *Dashboard) readDays(q querier, name map[int64]string, now time.Time, days int) error {
	if days <= 0 {
		return nil
	}
	now = now.UTC()
	first := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 0, -(days - 1))
	index := map[string]int{}
	for i := range days {
		day := first.AddDate(0, 0, i).Format(time.DateOnly)
		index[day] = i
		d.Days = append(d.Days, LabelDay{Day: day, Labels: map[string]int{}, ActiveMs: map[string]int64{}})
	}
	return eachRow(q, "SELECT day, annotator_id, labels, active_ms FROM label_days WHERE day >= ? ORDER BY day",
		[]any{first.Format(time.DateOnly)}, func(sc func(...any) error) error {
			var day string
			var aid, ms int64
			var n int
			if err := sc(&day, &aid, &n, &ms); err != nil {
				return err
			}
			i, ok := index[day]
			if !ok {
				return nil // a stamp later than now (a clock moved back)
			}
			who := name[aid]
			if who == "" {
				who = strconv.FormatInt(aid, 10)
			}
			d.Days[i].Labels[who] += n
			d.Days[i].ActiveMs[who] += ms
			return nil
		})
}

// Roles lists every annotator with their role ("" : none), in creation
// order: who is a lead (package roles decides what a lead may do).
func (s *Store) Roles() ([]AnnotatorRate, error) { return roles(s.db) }

func roles(q querier) ([]AnnotatorRate, error) {
	var out []AnnotatorRate
	err := eachRow(q, "SELECT name, role FROM annotators ORDER BY id", nil, func(sc func(...any) error) error {
		var a AnnotatorRate
		err := sc(&a.Name, &a.Role)
		out = append(out, a)
		return err
	})
	return out, err
}
