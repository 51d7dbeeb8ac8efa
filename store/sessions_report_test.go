package store_test

import (
	"testing"
	"time"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// t0 is the hand-set start of the first session (stamps are moved after the
// fact: the store stamps the wall clock, and a two-hour session cannot be
// waited for in a test).
var t0 = time.Date(2025, 3, 3, 9, 0, 0, 0, time.UTC)

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// seedSessions writes three sessions through the store's own methods, then
// moves their stamps to known times:
//
//	jo #1  09:00–11:30 (ended), labels at 09:10 and 09:20 (1.5 s + 2.5 s active), a note at 09:25
//	jo #2  next day 14:00, never ended, a label at 14:05 (4 s), a flag at 14:40
//	sam #3 next day 15:00, never ended, nothing recorded
//
// plus a label of jo's with no session (an import), which no session counts.
func seedSessions(t *testing.T) *store.Store {
	t.Helper()
	s := storetest.Open(t)
	err := s.Import(func(tx *store.Tx) error {
		for _, id := range []string{"q1", "q2", "q3"} {
			if _, _, err := tx.PutQA(store.QAPair{ID: id, Source: "GDPR", Question: "Q?", Answer: "A.",
				Contexts: []store.Context{{ID: "p", Text: "t"}}}, "h"+id, "f", false); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	item := func(ext string) int64 {
		ref, err := storetest.Read(t, s).Resolve(ext)
		if err != nil {
			t.Fatal(err)
		}
		return ref.ItemID
	}
	db := storetest.DB(t, s)
	move := func(q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatal(err)
		}
	}
	label := func(who, ext, value string, ms int64, sess int64, at time.Time) {
		t.Helper()
		id, err := s.RecordLabel(store.Label{Annotator: who, ItemID: item(ext), Field: "question_validity", Value: value, ActiveMs: ms, SessionID: sess})
		if err != nil {
			t.Fatal(err)
		}
		move("UPDATE label_events SET created_at=? WHERE id=?", stamp(at), id)
	}

	s1, err := s.StartSession("jo", "local")
	if err != nil {
		t.Fatal(err)
	}
	label("jo", "q1", "valid", 1500, s1.ID, t0.Add(10*time.Minute))
	label("jo", "q2", "invalid", 2500, s1.ID, t0.Add(20*time.Minute))
	if err := s.SetNote("jo", item("q1"), "question_validity", "unclear", s1.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.EndSession(s1.ID); err != nil {
		t.Fatal(err)
	}
	move("UPDATE notes SET created_at=? WHERE session_id=?", stamp(t0.Add(25*time.Minute)), s1.ID)
	move("UPDATE sessions SET started_at=?, ended_at=? WHERE id=?", stamp(t0), stamp(t0.Add(150*time.Minute)), s1.ID)

	day2 := t0.Add(29 * time.Hour) // 14:00 the next day
	s2, err := s.StartSession("jo", "ssh")
	if err != nil {
		t.Fatal(err)
	}
	label("jo", "q3", "valid", 4000, s2.ID, day2.Add(5*time.Minute))
	if err := s.SetFlag("jo", item("q3"), "", true, s2.ID); err != nil {
		t.Fatal(err)
	}
	move("UPDATE flags SET created_at=? WHERE session_id=?", stamp(day2.Add(40*time.Minute)), s2.ID)
	move("UPDATE sessions SET started_at=? WHERE id=?", stamp(day2), s2.ID)

	s3, err := s.StartSession("sam", "local")
	if err != nil {
		t.Fatal(err)
	}
	move("UPDATE sessions SET started_at=? WHERE id=?", stamp(day2.Add(time.Hour)), s3.ID)

	label("jo", "q3", "invalid", 9000, 0, day2.Add(50*time.Minute)) // no session
	return s
}

func TestSessionSpans(t *testing.T) {
	s := seedSessions(t)
	got, err := storetest.Read(t, s).SessionSpans("")
	if err != nil {
		t.Fatal(err)
	}
	day2 := t0.Add(29 * time.Hour)
	want := []store.SessionSpan{
		{Annotator: "jo", Client: "local", StartedAt: t0, EndedAt: t0.Add(150 * time.Minute), LastEvent: t0.Add(25 * time.Minute), ActiveMs: 4000, Decisions: 2},
		{Annotator: "jo", Client: "ssh", StartedAt: day2, LastEvent: day2.Add(40 * time.Minute), ActiveMs: 4000, Decisions: 1},
		{Annotator: "sam", Client: "local", StartedAt: day2.Add(time.Hour)},
	}
	if len(got) != len(want) {
		t.Fatalf("%d sessions, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Annotator != w.Annotator || g.Client != w.Client || !g.StartedAt.Equal(w.StartedAt) || !g.EndedAt.Equal(w.EndedAt) ||
			!g.LastEvent.Equal(w.LastEvent) || g.ActiveMs != w.ActiveMs || g.Decisions != w.Decisions {
			t.Errorf("session %d:\n got %+v\nwant %+v", i+1, g, w)
		}
	}
	jo, err := storetest.Read(t, s).SessionSpans("jo")
	if err != nil || len(jo) != 2 || jo[0].Annotator != "jo" || jo[1].Annotator != "jo" {
		t.Fatalf("jo's sessions: %v %+v", err, jo)
	}
}

func TestBatchPool(t *testing.T) {
	s := storetest.Open(t)
	err := s.Import(func(tx *store.Tx) error {
		for _, q := range []struct{ id, src string }{{"g1", "GDPR"}, {"g2", "GDPR"}, {"c1", "CIVIL"}} {
			if _, _, err := tx.PutQA(store.QAPair{ID: q.id, Source: q.src, Question: "Q?", Answer: "A.",
				Contexts: []store.Context{{ID: "p" + q.id, Text: "t"}}}, "h"+q.id, "f", false); err != nil {
				return err
			}
			for i := 1; i <= 2; i++ {
				if _, _, err := tx.PutClaim(store.Claim{ID: q.id + "-c" + string(rune('0'+i)), QAID: q.id, Position: i,
					Triplet: [3]string{"s", "p", "o"}}, "h"+q.id+string(rune('0'+i)), "f", false); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	pool := func(kind, src string) store.BatchPool {
		t.Helper()
		p, err := storetest.Read(t, s).BatchPool(store.BatchSpec{Kind: kind, Source: src, OnlyCorrectAnswers: kind == "claim", Assign: []string{"jo"}})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if p := pool("claim", ""); p != (store.BatchPool{Items: 6, Free: 6}) {
		t.Errorf("no labels: %+v", p)
	}
	ref, _ := storetest.Read(t, s).Resolve("g1")
	for _, l := range [][2]string{{"question_validity", "valid"}, {"answer_correctness", "correct"}} {
		if _, err := s.RecordLabel(store.Label{Annotator: "jo", ItemID: ref.ItemID, Field: l[0], Value: l[1]}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.CreateBatch(store.BatchSpec{Name: "b", Kind: "claim", Size: 1}); err != nil { // takes g1-c1
		t.Fatal(err)
	}
	// GDPR: 4 claims, 3 free; one answer judged correct, one free claim of it.
	if p := pool("claim", "GDPR"); p != (store.BatchPool{Items: 4, Free: 3, CorrectAnswers: 1, FreeOfCorrect: 1}) {
		t.Errorf("GDPR claims: %+v", p)
	}
	if p := pool("claim", "CIVIL"); p != (store.BatchPool{Items: 2, Free: 2}) {
		t.Errorf("CIVIL claims: %+v", p)
	}
	if p := pool("qa", ""); p != (store.BatchPool{Items: 3, Free: 3}) {
		t.Errorf("qa: %+v", p)
	}
	if p := pool("qa", "PENAL"); p != (store.BatchPool{}) {
		t.Errorf("unknown source: %+v", p)
	}
}
