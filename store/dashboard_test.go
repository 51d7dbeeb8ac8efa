package store

import (
	"database/sql"
	"testing"
	"time"

	"github.com/annotate-dev/annotate/tally"
)

// The dashboard's progress is the progress the screens and `annotate
// progress` count (Progress is the reference); its days are what was
// labelled, counted by hand; and what the view reads is the snapshot the
// progress was read in, not a label written meanwhile.
func TestDashboardReadsOneSnapshot(t *testing.T) {
	s := openTemp(t)
	seed(t, s, 3, 2)
	label(t, s, "jo", "q1", "question_validity", "valid")
	label(t, s, "jo", "q1", "answer_correctness", "correct")
	label(t, s, "jo", "q2", "question_validity", "invalid")
	if _, err := s.CreateBatch(BatchSpec{Name: "b1", Kind: "qa", Size: 2, Assign: []string{"kim"}}); err != nil {
		t.Fatal(err)
	}
	label(t, s, "kim", "q2", "question_validity", "invalid")
	label(t, s, "lee", "q1", "question_validity", "valid")
	if _, _, err := s.Undo("lee"); err != nil {
		t.Fatal(err)
	}

	labelsNow := func(rx *ReadTx) int {
		cs, err := rx.Counts(tally.Label)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, c := range cs {
			n += c.N
		}
		return n
	}
	var before, inView int
	s.Read(func(rx *ReadTx) error { before = labelsNow(rx); return nil })
	now := time.Now()
	var d *Dashboard
	err := s.Read(func(rx *ReadTx) (err error) {
		if d, err = rx.Dashboard(now, 7); err != nil {
			return err
		}
		label(t, s, "jo", "q3", "question_validity", "valid") // written after the snapshot began
		inView = labelsNow(rx)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if inView != before {
		t.Errorf("the view saw %d labels, want the snapshot's %d", inView, before)
	}
	var after int
	s.Read(func(rx *ReadTx) error { after = labelsNow(rx); return nil })
	if after != before+1 {
		t.Errorf("after the refresh %d labels, want %d", after, before+1)
	}

	// Progress: kim's queues did not change after the snapshot, so
	// Progress read now is the reference.
	want, err := s.pooled().Progress("kim", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var got []QueueProgress
	for _, q := range d.Queues {
		if q.Annotator == "kim" {
			got = append(got, q)
		}
	}
	if len(got) != len(want) || len(want) == 0 {
		t.Fatalf("kim's queues: %+v, want %+v", got, want)
	}
	if got[0].Batch != "b1" {
		t.Errorf("kim's first queue %+v, want the batch b1", got[0])
	}
	for i := range want {
		if got[i].Kind != want[i].Kind || got[i].Batch != want[i].Batch || got[i].Done != want[i].Done || got[i].Total != want[i].Total {
			t.Errorf("kim queue %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	// jo, by hand: 3 pairs. lee has no label left, no batch: left out.
	for _, q := range d.Queues {
		if q.Annotator == "jo" && q.Kind == "qa" && q.Total != 3 {
			t.Errorf("jo's qa queue holds %d items, want 3", q.Total)
		}
		if q.Annotator == "lee" {
			t.Errorf("lee, who undid their only label, has a queue: %+v", q)
		}
	}

	// Days: 7 of them, today last; today jo made 3 decisions of 1 s each
	// (the fourth came after the snapshot), kim 1, lee 1 (the undo is no
	// decision).
	if len(d.Days) != 7 {
		t.Fatalf("%d days, want 7", len(d.Days))
	}
	today := d.Days[6]
	if today.Day != now.UTC().Format(time.DateOnly) {
		t.Errorf("last day %s, want today", today.Day)
	}
	if today.Labels["jo"] != 3 || today.ActiveMs["jo"] != 3000 || today.Labels["kim"] != 1 || today.Labels["lee"] != 1 {
		t.Errorf("today: labels %v, active %v; want jo 3 (3000 ms), kim 1, lee 1", today.Labels, today.ActiveMs)
	}
	for _, day := range d.Days[:6] {
		if len(day.Labels) != 0 {
			t.Errorf("%s: %v, want no decision", day.Day, day.Labels)
		}
	}
}

// The fingerprint stays while nothing changes and moves with a label and
// with its undo (which brings the kept counts back: the log moved on).
func TestDashboardFingerprint(t *testing.T) {
	s := openTemp(t)
	seed(t, s, 2, 1)
	print := func() uint64 {
		t.Helper()
		d, err := s.pooled().Dashboard(time.Now(), 1)
		if err != nil {
			t.Fatal(err)
		}
		return d.Fingerprint
	}
	a, b := print(), print()
	if a != b {
		t.Fatalf("no change, yet %x then %x", a, b)
	}
	label(t, s, "jo", "q1", "question_validity", "valid")
	c := print()
	if c == b {
		t.Errorf("a label did not move the fingerprint")
	}
	if _, _, err := s.Undo("jo"); err != nil {
		t.Fatal(err)
	}
	if d := print(); d == c || d == b {
		t.Errorf("the undo: %x (before the label %x, after %x)", d, b, c)
	}
}

// The per-day counts of a migrated database are its log's, and stay so
// when an event moves in time.
func TestLabelDaysMatchTheLog(t *testing.T) {
	s, err := Open(copyV1(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	check := func(when string) {
		t.Helper()
		var want, got sql.NullInt64
		s.db.QueryRow("SELECT COUNT(*) FROM label_events WHERE retracts IS NULL").Scan(&want)
		s.db.QueryRow("SELECT SUM(labels) FROM label_days").Scan(&got)
		if want.Int64 == 0 || got != want {
			t.Errorf("%s: label_days sum %v, the log %v", when, got, want)
		}
		rows := rowsOf(t, s.db, `SELECT substr(created_at,1,10), annotator_id, SUM(retracts IS NULL), SUM(active_ms) FROM label_events GROUP BY 1, 2
			EXCEPT SELECT day, annotator_id, labels, active_ms FROM label_days`)
		if len(rows) > 0 {
			t.Errorf("%s: days that differ from the log: %v", when, rows)
		}
	}
	check("after the migration")
	if _, err := s.db.Exec("UPDATE label_events SET created_at='2020-01-02T03:04:05Z', active_ms=active_ms+7 WHERE id=(SELECT MIN(id) FROM label_events)"); err != nil {
		t.Fatal(err)
	}
	check("after moving an event")
}
