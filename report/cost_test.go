package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// A campaign worked out by hand. jo (20 CAD an hour) sits 2 h, 10:00–12:00:
// one gold answer with 30 min active and three generated claims with 10 min
// active, so the session's 2 h are shared 1.5 h / 0.5 h. The lead (40 CAD)
// sits 30 min reviewing the answer, 5 min active. sam has no rate.
func TestCostByHand(t *testing.T) {
	s := paperFixture(t)
	db := storetest.DB(t, s)
	session := func(who, start, end string) int64 {
		sess, err := s.StartSession(who, "local")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec("UPDATE sessions SET started_at=?, ended_at=? WHERE id=?", start, end, sess.ID); err != nil {
			t.Fatal(err)
		}
		return sess.ID
	}
	// The fixture's earlier answers and reviews were made outside sessions:
	// they have no session time.
	joSess := session("jo", "2026-03-02T10:00:00Z", "2026-03-02T12:00:00Z")
	leadSess := session("lead", "2026-03-02T13:00:00Z", "2026-03-02T13:30:00Z")
	if err := s.SaveDraft("jo", mustRef(t, s, "q-x/answer"), "draft", "", 600_000); err == nil {
		t.Fatal("a draft of a task that does not exist")
	}
	seed(t, s, func(b *builder) {
		b.AnswerTask("q-x")
		// A gold set's judgment of a pair no pool holds: not work, no row.
		b.Document(store.Document{ID: "d-gold", Text: "text"})
		b.Relevance("q-x", "d-gold")
		b.Label("gold", "q-x/d-gold", "relevance", "relevant")
	})
	task := mustRef(t, s, "q-x/answer")
	if err := s.SaveDraft("jo", task, "Gold", "", 600_000); err != nil {
		t.Fatal(err)
	}
	if err := s.SubmitAnswer("jo", task, "Gold answer.", nil, 1_200_000, joSess); err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"c31", "c32", "c33"} {
		id := mustRef(t, s, c)
		for i, f := range [][2]string{{"accuracy_support", "supported"}, {"grounded", "grounded"}} {
			ms := int64(0)
			if i == 0 {
				ms = 200_000
			}
			if _, err := s.RecordLabel(store.Label{Annotator: "jo", ItemID: id, Field: f[0], Value: f[1], ActiveMs: ms, SessionID: joSess}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := s.ReviewAnswer("lead", task, "jo", true, "", store.AnswerReviewOptions{ActiveMs: 300_000, Session: leadSess}); err != nil {
		t.Fatal(err)
	}
	rate := func(who string, r float64) {
		if _, err := s.SetAnnotator(nil, who, &r, "CAD", "student"); err != nil {
			t.Fatal(err)
		}
	}
	rate("jo", 20)
	rate("lead", 40)
	rep, err := store.ReadValue(s, Cost)
	if err != nil {
		t.Fatal(err)
	}
	jo := rep.Annotators["jo"]
	if jo.SessionHours != 2 || *jo.Cost != 40 || jo.Currency != "CAD" || jo.Role != "student" {
		t.Errorf("jo %+v", jo)
	}
	at, gc := jo.Kinds["answer_task"], jo.Kinds["gen_claim"]
	// 30 min active on the answer (the draft's 10 and 20 at submission).
	near(t, "jo answer active h", at.ActiveHours, 0.5, 1e-12)
	near(t, "jo answer session h", at.SessionHours, 1.5, 1e-9)
	near(t, "jo answer cost", at.Cost, 30, 1e-9)
	if at.Items != 1 {
		t.Errorf("answers %d", at.Items)
	}
	near(t, "minutes per answer", at.MinutesPerItem, 90, 1e-9)
	// jo judged claims 1–30 and p1-c1 in the fixture, then 31–33: 34 done.
	if gc.Items != 34 {
		t.Errorf("claims %d", gc.Items)
	}
	near(t, "jo claims session h", gc.SessionHours, 0.5, 1e-9)
	near(t, "jo claims cost", gc.Cost, 10, 1e-9)
	lead := rep.Annotators["lead"]
	near(t, "lead review session h", lead.Kinds["review"].SessionHours, 0.5, 1e-9)
	near(t, "lead cost", lead.Cost, 20, 1e-9)
	if rep.Total.Currency != "CAD" {
		t.Errorf("currency %q", rep.Total.Currency)
	}
	near(t, "total cost", rep.Total.Cost, 60, 1e-9)
	near(t, "total cost of answers", rep.Total.Kinds["answer_task"].Cost, 30, 1e-9)
	near(t, "total cost of reviews", rep.Total.Kinds["review"].Cost, 20, 1e-9)
	if len(rep.Total.NoRate) != 1 || rep.Total.NoRate[0] != "sam" {
		t.Errorf("no rate %v", rep.Total.NoRate)
	}
	if rep.Annotators["gold"] != nil {
		t.Errorf("the gold set is costed: %+v", rep.Annotators["gold"])
	}
	if rep.Annotators["sam"].Cost != nil {
		t.Error("sam has a cost without a rate")
	}
	b, _ := json.Marshal(rep)
	for _, k := range []string{`"annotators":{`, `"jo":{"rate":20,"currency":"CAD"`, `"active_hours":`, `"session_hours":`, `"kinds":{"answer_task":{"items":1`, `"total":{`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("JSON has no %s: %s", k, b)
		}
	}
	out := render(t, rep.WriteText)
	found := false
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[0] == "jo" && f[1] == "answer_task" {
			found = strings.Join(f[2:], " ") == "1 0.50 1.50 90.0 30.00 CAD"
		}
	}
	if !found {
		t.Errorf("no row jo answer_task 1 0.50 1.50 90.0 30.00 CAD in\n%s", out)
	}
	// Two currencies: no single total.
	eur := 30.0
	s.SetAnnotator(nil, "lead", &eur, "EUR", "")
	rep, _ = store.ReadValue(s, Cost)
	if rep.Total.Cost != nil || rep.Total.Costs["EUR"] != 15 || rep.Total.Costs["CAD"] != 40 || rep.Total.Kinds["review"].Cost != nil {
		t.Errorf("two currencies: %+v", rep.Total)
	}
}

func mustRef(t *testing.T, s *store.Store, ext string) int64 {
	ref, err := storetest.Read(t, s).Resolve(ext)
	if err != nil {
		return -1
	}
	return ref.ItemID
}

func TestCountWords(t *testing.T) {
	for _, c := range []struct {
		n          int
		word, want string
	}{{0, "item", "0 items"}, {1, "item", "1 item"}, {1, "query", "1 query"}, {3, "query", "3 queries"}} {
		if got := count(c.n, c.word); got != c.want {
			t.Errorf("count(%d, %q) = %q, want %q", c.n, c.word, got, c.want)
		}
	}
}

// Relevance judgments cost per query too: kim judges three pairs of two
// queries in a session of one hour, so (by hand) 20 minutes per pair and 30
// per query.
func TestCostPerQueryOfRelevance(t *testing.T) {
	s := openStore(t)
	seed(t, s, func(b *builder) {
		for _, q := range []string{"q1", "q2"} {
			b.Query(store.Query{ID: q, Text: "question " + q})
		}
		for _, d := range []string{"d1", "d2", "d3"} {
			b.Document(store.Document{ID: d, Text: "text " + d})
		}
		b.Relevance("q1", "d1")
		b.Relevance("q1", "d2")
		b.Relevance("q2", "d3")
	})
	sess, err := s.StartSession("kim", "local")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := storetest.DB(t, s).Exec("UPDATE sessions SET started_at=?, ended_at=? WHERE id=?", "2026-03-02T10:00:00Z", "2026-03-02T11:00:00Z", sess.ID); err != nil {
		t.Fatal(err)
	}
	for _, pair := range []string{"q1/d1", "q1/d2", "q2/d3"} {
		if _, err := s.RecordLabel(store.Label{Annotator: "kim", ItemID: mustRef(t, s, pair), Field: "relevance", Value: "relevant", ActiveMs: 100_000, SessionID: sess.ID}); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := store.ReadValue(s, Cost)
	if err != nil {
		t.Fatal(err)
	}
	k := rep.Annotators["kim"].Kinds["relevance"]
	if k == nil || k.Items != 3 || k.Queries != 2 {
		t.Fatalf("kim's relevance work %+v", k)
	}
	near(t, "minutes per pair", k.MinutesPerItem, 20, 1e-9)
	near(t, "minutes per query", k.MinutesPerQuery, 30, 1e-9)
	near(t, "total minutes per query", rep.Total.Kinds["relevance"].MinutesPerQuery, 30, 1e-9)
	if out := render(t, rep.WriteText); !strings.Contains(out, "relevance: 3 items, 20.0 min per item, 30.0 min per query (2 queries)") {
		t.Errorf("no minutes per query in\n%s", out)
	}
}
