package adjudicate

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
	"github.com/annotate-dev/annotate/tui/tuitest"
)

// fakeClock is a clock the test moves.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

// TestAdjudicationRecordsSessionAndActiveTime: the review screen opens a
// session of client "review" and charges each decision the gaps between
// key presses since the previous decision, each capped at 5 minutes, as the
// annotation screens do; the sessions report and the cost report read it.
func TestAdjudicationRecordsSessionAndActiveTime(t *testing.T) {
	s := openStore(t)
	seedTwenty(t, s)
	clk := &fakeClock{t: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}
	h := newHarness(t, s, Options{Lead: "lead", Now: clk.now}, 100, 30)
	if h.m.SessionID() == 0 {
		t.Fatalf("no session: %s", h.m.e.err)
	}

	// First decision: 40 s, then 7 min (counts 5), then 20 s: 5 min 60 s.
	clk.advance(40 * time.Second)
	h.keys("right") // browse
	clk.advance(7 * time.Minute)
	h.keys("left")
	clk.advance(20 * time.Second)
	i := disagree[0]
	h.keys(digitOf(joLabel(i)))
	// Second decision: 12 s.
	clk.advance(12 * time.Second)
	h.keys(digitOf(samLabel(disagree[1])))
	// The bulk accept: 3 s to A, 2 s to y: 5 s, on its first event.
	clk.advance(3 * time.Second)
	h.keys("A")
	clk.advance(2 * time.Second)
	h.keys("y")
	if h.m.e.err != "" {
		t.Fatal(h.m.e.err)
	}
	if err := h.m.EndSession(); err != nil {
		t.Fatal(err)
	}

	spans, err := storetest.Read(t, s).SessionSpans("lead")
	if err != nil {
		t.Fatal(err)
	}
	// 40 s + 5 min + 20 s = 360 s; 12 s; 5 s: 377 000 ms over 2 + 35 events.
	if len(spans) != 1 || spans[0].Client != "review" || spans[0].ActiveMs != 377000 || spans[0].Decisions != 37 || spans[0].EndedAt.IsZero() {
		t.Fatalf("sessions %+v, want one closed review session of 377000 ms and 37 decisions", spans)
	}
	_, work, err := storetest.Read(t, s).CostWork()
	if err != nil {
		t.Fatal(err)
	}
	var review *store.KindWork
	for i := range work {
		if work[i].Annotator == "lead" && work[i].Kind == store.ReviewKind {
			review = &work[i]
		}
	}
	if review == nil || review.ActiveMs != 377000 || review.Items != 20 || review.SessionMs <= 0 {
		t.Fatalf("cost work of the review: %+v (all: %+v)", review, work)
	}
}

// TestSingleLabelUnitsOnScreen: sam judged the answer incorrect, so the
// claims asked him nothing; jo's claim labels are single-label units,
// counted in the workload from the start, marked on the screen, and S (then
// y) accepts them once the answer is decided.
func TestSingleLabelUnitsOnScreen(t *testing.T) {
	s := openStore(t)
	seedClaims(t, s, 3, func(int) string { return "" }, func(i int) map[string]map[string]string {
		return map[string]map[string]string{"jo": {schema.ClaimValidity: "correct", schema.Entailment: classes[i%3]}}
	})
	ref, err := storetest.Read(t, s).Resolve("gdpr-001")
	if err != nil {
		t.Fatal(err)
	}
	for who, correctness := range map[string]string{"jo": "correct", "sam": "incorrect"} {
		for _, l := range [][2]string{{schema.QuestionValidity, "valid"}, {schema.Category, "factual_recall"}, {schema.Persona, "citizen"}, {schema.AnswerCorrectness, correctness}} {
			if _, err := s.RecordLabel(store.Label{Annotator: who, ItemID: ref.ItemID, Field: l[0], Value: l[1]}); err != nil {
				t.Fatal(err)
			}
		}
	}
	h := newHarness(t, s, Options{Lead: "lead"}, 120, 30)
	rev := h.m.e.adj.rev
	// The answer's disagreement and the six single labels of the claims.
	if p, _, _ := rev.Counts(""); p != 7 || rev.Singles("") != 6 {
		t.Fatalf("pending %d, singles %d; want 7, 6: %+v", p, rev.Singles(""), rev.Units)
	}
	// S before the answer is decided: nothing is ready.
	h.keys("S")
	if h.m.e.adj.confirm {
		t.Fatal("S asked to accept single labels that wait for the answer")
	}
	// Decide the answer (first unit: answer_correctness, 1 = correct).
	if h.current() != "gdpr-001 answer_correctness" {
		t.Fatalf("first unit %q", h.current())
	}
	h.keys("1")
	if h.current() != "gdpr-001-c01 claim_validity" {
		t.Fatalf("after the answer: %q", h.current())
	}
	if !strings.Contains(h.screen(), "Single label: the other annotators were not asked") {
		t.Errorf("the single label is not marked:\n%s", h.screen())
	}
	rev = h.m.e.adj.rev
	if rev.ReadySingle != 6+3 || rev.Ready != 3 { // the 6 claim labels; the 3 agreeing QA fields
		t.Fatalf("ready with singles %d, ready %d; want 9, 3", rev.ReadySingle, rev.Ready)
	}
	h.keys("S", "y")
	if h.m.e.err != "" {
		t.Fatal(h.m.e.err)
	}
	rev = h.m.e.adj.rev
	if p, d, _ := rev.Counts(""); p != 0 || d != 7 {
		t.Errorf("after S: pending %d, done %d; want 0, 7", p, d)
	}
}

// TestAnswerReviewRecordsActiveTime: the review of gold answers keeps the
// same rule: its session and, per review, the capped gaps between keys.
func TestAnswerReviewRecordsActiveTime(t *testing.T) {
	s := openStore(t)
	storetest.Seed(t, s, func(b *storetest.Builder) {
		b.Query(store.Query{ID: "q1", Text: "First query?", Persona: "lay", Jurisdiction: "ON"})
		b.AnswerTask("q1")
	})
	ref, _ := storetest.Read(t, s).Resolve(store.AnswerTaskID("q1"))
	if err := s.SubmitAnswer("jo", ref.ItemID, "Answer one.", nil, 0, 0); err != nil {
		t.Fatal(err)
	}
	clk := &fakeClock{t: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}
	h := &answersHarness{t: t, m: NewAnswers(AnswerOptions{Store: s, Lead: "lead", Now: clk.now}, testHost)}
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	tuitest.Run(h.m.Init(), h.send)
	clk.advance(90 * time.Second)
	h.keys("down")
	clk.advance(6 * time.Minute) // counts 5 minutes
	h.keys("y")
	if err := h.m.EndSession(); err != nil {
		t.Fatal(err)
	}
	spans, err := storetest.Read(t, s).SessionSpans("lead")
	if err != nil {
		t.Fatal(err)
	}
	// 90 s + 300 s on the review's first event (answer_review).
	if len(spans) != 1 || spans[0].Client != "review" || spans[0].ActiveMs != 390000 {
		t.Fatalf("sessions %+v, want one review session of 390000 ms", spans)
	}
}
