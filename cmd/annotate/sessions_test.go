package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// seedSessionsDB writes two sessions of jo through the store, then moves
// their stamps to hand-set times (the store stamps the wall clock):
//
//	#1 2025-03-03 09:00–11:30, closed; labels at 09:10 (1.5 s active) and 09:20 (2.5 s)
//	#2 2025-03-04 14:00, never closed; a label at 14:05 (4 s), a flag at 14:40
func seedSessionsDB(t *testing.T) string {
	t.Helper()
	path, s := storetest.Create(t, "annotate.db")
	defer s.Close()
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
	at := func(day, hour, min int) string {
		return time.Date(2025, 3, day, hour, min, 0, 0, time.UTC).Format(time.RFC3339Nano)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := s.DB().Exec(q, args...); err != nil {
			t.Fatal(err)
		}
	}
	label := func(ext string, ms, sess int64, when string) {
		t.Helper()
		ref, err := s.Resolve(ext)
		if err != nil {
			t.Fatal(err)
		}
		id, err := s.RecordLabel(store.Label{Annotator: "jo", ItemID: ref.ItemID, Field: "question_validity", Value: "valid", ActiveMs: ms, SessionID: sess})
		if err != nil {
			t.Fatal(err)
		}
		exec("UPDATE label_events SET created_at=? WHERE id=?", when, id)
	}
	s1, err := s.StartSession("jo", "local")
	if err != nil {
		t.Fatal(err)
	}
	label("q1", 1500, s1.ID, at(3, 9, 10))
	label("q2", 2500, s1.ID, at(3, 9, 20))
	if err := s.EndSession(s1.ID); err != nil {
		t.Fatal(err)
	}
	exec("UPDATE sessions SET started_at=?, ended_at=? WHERE id=?", at(3, 9, 0), at(3, 11, 30), s1.ID)
	s2, err := s.StartSession("jo", "ssh")
	if err != nil {
		t.Fatal(err)
	}
	label("q3", 4000, s2.ID, at(4, 14, 5))
	ref, _ := s.Resolve("q3")
	if err := s.SetFlag("jo", ref.ItemID, "", true, s2.ID); err != nil {
		t.Fatal(err)
	}
	exec("UPDATE flags SET created_at=? WHERE session_id=?", at(4, 14, 40), s2.ID)
	exec("UPDATE sessions SET started_at=? WHERE id=?", at(4, 14, 0), s2.ID)
	if err := s.EnsureAnnotator("sam"); err != nil { // an annotator with no session
		t.Fatal(err)
	}
	return path
}

func TestProgressSessionsJSON(t *testing.T) {
	db := seedSessionsDB(t)
	out, err := execute(t, "--db", db, "progress", "--sessions", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Limit      float64 `json:"session_limit_seconds"`
		Annotators map[string]struct {
			Count     int
			OverLimit int     `json:"over_limit"`
			NotClosed int     `json:"not_closed"`
			Length    float64 `json:"length_seconds"`
			Active    float64 `json:"active_seconds"`
			Sessions  []struct {
				Client    string
				StartedAt string  `json:"started_at"`
				EndedAt   *string `json:"ended_at"`
				LastEvent *string `json:"last_event_at"`
				Closed    bool
				Length    float64 `json:"length_seconds"`
				Active    float64 `json:"active_seconds"`
				Decisions int
				OverLimit bool `json:"over_limit"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	jo := rep.Annotators["jo"]
	if rep.Limit != 7200 || len(rep.Annotators) != 1 || len(jo.Sessions) != 2 {
		t.Fatalf("limit %v, annotators %v\n%s", rep.Limit, rep.Annotators, out)
	}
	// #1: 09:00–11:30 = 9000 s > 7200 s; active 1.5 + 2.5 = 4 s.
	s1 := jo.Sessions[0]
	if s1.StartedAt != "2025-03-03T09:00:00Z" || s1.EndedAt == nil || *s1.EndedAt != "2025-03-03T11:30:00Z" || !s1.Closed ||
		s1.Length != 9000 || s1.Active != 4 || s1.Decisions != 2 || !s1.OverLimit || s1.Client != "local" {
		t.Errorf("session 1: %+v", s1)
	}
	// #2: never closed, so until its last event, the flag at 14:40: 2400 s.
	s2 := jo.Sessions[1]
	if s2.EndedAt != nil || s2.Closed || s2.LastEvent == nil || *s2.LastEvent != "2025-03-04T14:40:00Z" ||
		s2.Length != 2400 || s2.Active != 4 || s2.Decisions != 1 || s2.OverLimit {
		t.Errorf("session 2: %+v", s2)
	}
	if jo.Count != 2 || jo.OverLimit != 1 || jo.NotClosed != 1 || jo.Length != 11400 || jo.Active != 8 {
		t.Errorf("totals: %+v", jo)
	}
	// A limit of 30 minutes flags both.
	out, err = execute(t, "--db", db, "progress", "--sessions", "--session-limit", "30m", "--json")
	if err != nil || !strings.Contains(out, `"over_limit":2`) || !strings.Contains(out, `"session_limit_seconds":1800`) {
		t.Errorf("--session-limit 30m: %v\n%s", err, out)
	}
}

func TestProgressSessionsText(t *testing.T) {
	defer func(l *time.Location) { time.Local = l }(time.Local)
	time.Local = time.UTC
	db := seedSessionsDB(t)
	out, err := execute(t, "--db", db, "progress", "--sessions")
	if err != nil {
		t.Fatal(err)
	}
	want := `jo: 2 sessions, 3h10m wall clock, 8s active; 1 longer than 2h00m
  STARTED           LENGTH  ACTIVE  DECISIONS  CLIENT
  2025-03-03 09:00  2h30m   4s      2          local   over 2h00m
  2025-03-04 14:00  40m     4s      1          ssh     not closed

Length is wall clock, from start to end; a session not closed (the program was killed or crashed, or is still open) counts until its last decision, note or flag. Active time is the sum of the gaps between key presses on an item, each gap counted up to 5 minutes.
`
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
	out, err = execute(t, "--db", db, "progress", "--sessions", "--annotator", "sam")
	if err != nil || out != "sam has no sessions yet\n" {
		t.Errorf("sam: %v %q", err, out)
	}
	if _, err := execute(t, "--db", db, "progress", "--sessions", "--annotator", "lea"); err == nil || err.Error() != `--annotator: no annotator "lea" (annotators: jo, sam)` {
		t.Errorf("lea: %v", err)
	}
}
