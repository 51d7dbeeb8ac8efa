package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/internal/textsafe"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
	"github.com/annotate-dev/annotate/tui/tuitest"
)

// hostile is tuitest.Hostile: data that would drive a terminal if it
// reached one raw; notInert (tuitest.NotInert) says what in a rendering could.
const hostile = tuitest.Hostile

var notInert = tuitest.NotInert

// hostileStore holds one item of every kind with hostile data in every
// field a screen shows: ids, source, language, question, answer, rationale,
// generated category, contexts, claims (triplet and text), a query's text,
// persona, jurisdiction, issue and seed, a document's id, title, citation,
// court, jurisdiction and text, a generated answer and its claims, the
// accepted gold answer and its citations, a batch name and jo's own notes.
func hostileStore(t *testing.T) *store.Store {
	t.Helper()
	s := openStore(t)
	h := hostile
	long := strings.Repeat("The tribunal reviewed the lease. ", 40)
	storetest.Seed(t, s, func(b *storetest.Builder) {
		qa := store.QAPair{ID: "qa\x1b[2J-1", Source: "GD\x1b]0;t\x07PR", Language: "e\u202en", Hop: "multi",
			Question: h, Answer: h, Rationale: h, Category: h,
			Contexts: []store.Context{{ID: "p\x07" + h, Text: h}, {ID: "p2", Text: long + h}}}
		_, _, err := b.Tx.PutQA(qa, "hqa", "t", false)
		b.Fail(err, "qa")
		_, _, err = b.Tx.PutClaim(store.Claim{ID: "c\x1b[5m1", QAID: qa.ID, Position: 1, Triplet: [3]string{h, h, h},
			Predictions: map[string]string{"refchecker": h}}, "hc1", "t", false)
		b.Fail(err, "claim")
		_, _, err = b.Tx.PutClaim(store.Claim{ID: "c2\u202e", QAID: qa.ID, Position: 2, Text: h}, "hc2", "t", false)
		b.Fail(err, "claim 2")
		b.Document(store.Document{ID: "doc\x07", Title: h, Citation: h, Court: h, Jurisdiction: h, Year: 2031, Text: long + h + long,
			Chunks: []store.Chunk{{ID: "doc\x07#1", Start: len(long), End: len(long) + len(h)}}})
		b.Query(store.Query{ID: "q\x1b[5m", Text: h, Persona: h, Jurisdiction: h, Issue: "\x1b[38;5;201m" + h, SeedDoc: "doc\x07", SeedGroup: h})
		b.AnswerTask("q\x1b[5m")
		task := store.AnswerTaskID("q\x1b[5m")
		b.Adjudicate("lead", task, "gold_answer", h)
		b.Adjudicate("lead", task, "citations", `["doc\u0007","`+strings.ReplaceAll(h, `"`, ``)+`"]`)
		b.Adjudicate("lead", task, "answer_review", "accept")
		b.GenAnswer(store.GenAnswer{ID: "a\x1b[1m", Query: "q\x1b[5m", System: h, Condition: "oracle", Answer: h,
			Documents: []string{"doc\x07", "missing\x1b[1m"}, Claims: []store.GenClaim{{ID: "a-c1\x07", Position: 1, Text: h}}})
		b.Fail(b.Tx.BeginRuns(), "runs")
		b.Fail(b.Tx.StageRunRow(store.RunRow{Run: "run\x1b[1m", Query: "q\x1b[5m", Doc: "doc\x07#1", Rank: 1, Score: 1, Line: 1}), "run row")
		_, err = b.Tx.WriteRuns(false, func(int) string { return "t.run" })
		b.Fail(err, "write runs")
	})
	seed := int64(1)
	if _, err := s.CreatePool(store.PoolSpec{Name: "pool\x1b[1m", Runs: []string{"run\x1b[1m"}, Depth: 10, Seed: &seed}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateBatch(store.BatchSpec{Name: "batch\x1b[31m" + h, Kind: "qa", Assign: []string{"jo"}}); err != nil {
		t.Fatal(err)
	}
	qa, err := storetest.Read(t, s).Resolve("qa\x1b[2J-1")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"question_validity", "category", ""} {
		if err := s.SetNote("jo", qa.ItemID, f, h, 0); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// Every screen of the annotation TUI, with hostile data in every field,
// renders bytes that cannot drive a terminal: no escape sequence but the
// screens' own styles, no control character, no C1, no bidirectional
// control, no line separator, valid UTF-8; at a wide and a narrow size.
func TestHostileDataIsInertOnEveryScreen(t *testing.T) {
	// The claims are asked once jo judged their answer correct.
	correct := func(t *testing.T, s *store.Store) {
		qa, _ := storetest.Read(t, s).Resolve("qa\x1b[2J-1")
		for _, l := range [][2]string{{"question_validity", "valid"}, {"category", "factual_recall"}, {"persona", "citizen"}, {"answer_correctness", "correct"}} {
			if _, err := s.RecordLabel(store.Label{Annotator: "jo", ItemID: qa.ItemID, Field: l[0], Value: l[1]}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, sc := range []struct {
		name string
		opt  Options
		keys []string
		want string // shown on the screen (as inert text): the screen is the one meant
		prep func(*testing.T, *store.Store)
	}{
		{"home", Options{}, nil, "batch␛[31mpink", nil},
		{"qa", Options{Kind: "qa"}, nil, "pink␛[38;5;201m PINK", nil},
		{"qa-batch", Options{Batch: "batch\x1b[31m" + hostile}, nil, "item 1 of 1", nil},
		{"qa-category", Options{Kind: "qa"}, []string{"y"}, "category", nil},
		{"qa-note", Options{Kind: "qa"}, []string{"y", "m"}, "Note on qa␛[2J-1", nil},
		{"qa-pane", Options{Kind: "qa"}, []string{"tab", "pgdown", "pgdown"}, "␛", nil},
		{"qa-undone", Options{Kind: "qa"}, []string{"y", "u"}, "Undone", nil},
		{"qa-done", Options{Kind: "qa"}, []string{"n", "1"}, "", nil},
		{"claim", Options{Kind: "claim"}, nil, "pink␛[38;5;201m", correct},
		{"claim-entailment", Options{Kind: "claim"}, []string{"y"}, "entailment", correct},
		{"claim-text", Options{Kind: "claim"}, []string{"y", "1"}, "c2", correct},
		{"missed", Options{Kind: "claim"}, []string{"y", "1", "y", "1"}, "issed", correct},
		{"query", Options{Kind: "query"}, nil, "␛[38;5;201mpink", nil},
		{"query-pane", Options{Kind: "query"}, []string{"tab", "pgdown"}, "Issue", nil},
		{"relevance", Options{Kind: "relevance"}, nil, "␛[38;5;201m", nil},
		{"relevance-chunk", Options{Kind: "relevance"}, []string{"c"}, "␛", nil},
		{"relevance-reason", Options{Kind: "relevance"}, []string{"n"}, "␛", nil},
		{"answer", Options{Kind: "answer_task"}, nil, "pink␛[38;5;201m", nil},
		{"answer-document", Options{Kind: "answer_task"}, []string{"tab", "tab", "pgdown"}, "␛", nil},
		{"gen-claim", Options{Kind: "gen_claim"}, nil, "pink␛[38;5;201m", nil},
		{"gen-claim-grounded", Options{Kind: "gen_claim"}, []string{"y"}, "␛", nil},
		{"gen-claim-checklist", Options{Kind: "gen_claim"}, []string{"y", "n", "space"}, "␛", nil},
	} {
		t.Run(sc.name, func(t *testing.T) {
			s := hostileStore(t)
			if sc.prep != nil {
				sc.prep(t, s)
			}
			h := newHarness(t, s, sc.opt)
			h.keys(sc.keys...)
			for _, size := range [][2]int{{160, 50}, {100, 30}, {40, 12}} {
				h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				raw := h.m.render()
				if bad := notInert(raw); bad != "" {
					t.Fatalf("%dx%d: %s on screen:\n%q", size[0], size[1], bad, raw)
				}
				if v := h.m.View(); notInert(v.WindowTitle) != "" {
					t.Fatalf("window title %q", v.WindowTitle)
				}
				if size[0] == 160 && sc.want != "" && !strings.Contains(h.view(), sc.want) {
					t.Fatalf("the screen does not show %q:\n%s", sc.want, h.view())
				}
			}
		})
	}
}

// The check itself: a raw string of the hostile data fails it, and the
// sanitised one passes.
func TestNotInertFindsRawData(t *testing.T) {
	for _, bad := range []string{"\x1b[38;5;201m", "\x1b[2J", "\x1b]0;t\x07", "\x07", "\r", "\u009b", "\x9b", "\u202e", "\u2067", "\u200f", "\u2028", "\x7f"} {
		if notInert("ok \x1b[1mstyled\x1b[0m "+bad) == "" {
			t.Errorf("%q passes the check", bad)
		}
	}
	if bad := notInert("\x1b[1;38;5;12mstyled\x1b[0m " + textsafe.Text(hostile)); bad != "" {
		t.Errorf("the sanitised data fails the check: %s", bad)
	}
}
