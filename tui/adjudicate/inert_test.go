package adjudicate

import (
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
	"github.com/annotate-dev/annotate/tui/tuitest"
)

// hostile is tuitest.Hostile: data that would drive a terminal if it
// reached one raw; notInert (tuitest.NotInert) says what in a rendering could.
const hostile = tuitest.Hostile

var notInert = tuitest.NotInert

// hostileReviewStore: a QA pair, its claims, a relevance pair and a
// generated claim whose every shown field is hostile, on which jo and sam
// disagree (one of sam's values, kept verbatim at import, is hostile too),
// with hostile system predictions and notes.
func hostileReviewStore(t testing.TB) *store.Store {
	s := openStore(t)
	h := hostile
	storetest.Seed(t, s, func(b *storetest.Builder) {
		qa := store.QAPair{ID: "qa\x1b[2J", Source: "GD\x1b]0;t\x07PR", Language: "e\u202en", Question: h, Answer: h, Rationale: h, Category: h,
			Contexts: []store.Context{{ID: "p\x07", Text: h}}}
		id, _, err := b.Tx.PutQA(qa, "hqa", "t", false)
		b.Fail(err, "qa")
		b.IDs[qa.ID] = id
		id, _, err = b.Tx.PutClaim(store.Claim{ID: "c\x1b[5m", QAID: qa.ID, Position: 1, Triplet: [3]string{h, h, h},
			Predictions: map[string]string{"refchecker": h}}, "hc", "t", false)
		b.Fail(err, "claim")
		b.IDs["c\x1b[5m"] = id
		b.Labels("jo", qa.ID, "question_validity=valid", "category=factual_recall", "persona=citizen", "answer_correctness=correct")
		b.Labels("sam", qa.ID, "question_validity=valid", "category="+h, "persona=citizen", "answer_correctness=correct")
		b.Labels("jo", "c\x1b[5m", "claim_validity=correct", "entailment=entailment")
		b.Labels("sam", "c\x1b[5m", "claim_validity=correct", "entailment="+h)

		b.Query(store.Query{ID: "q\x1b[5m", Text: h, Persona: h, Jurisdiction: h, Issue: "\x1b[38;5;201m" + h, SeedDoc: "d\x07", SeedGroup: h})
		b.Document(store.Document{ID: "d\x07", Title: h, Citation: h, Court: h, Jurisdiction: h, Text: strings.Repeat(h+" ", 5)})
		b.Fail(b.Tx.BeginRuns(), "runs")
		b.Fail(b.Tx.StageRunRow(store.RunRow{Run: "bm25", Query: "q\x1b[5m", Doc: "d\x07", Rank: 1, Score: 9, Line: 1}), "run row")
		_, err = b.Tx.WriteRuns(false, func(int) string { return "bm25.run" })
		b.Fail(err, "runs")
		b.GenAnswer(store.GenAnswer{ID: "a\x1b[1m", Query: "q\x1b[5m", System: h, Condition: "oracle", Answer: h,
			Documents: []string{"d\x07", "missing\x1b[1m"}, Claims: []store.GenClaim{{ID: "a-c\x07", Position: 1, Text: h}}})
		b.Labels("jo", "a-c\x07", schema.AccuracySupport+"=supported", schema.Grounded+"=grounded")
		b.Labels("sam", "a-c\x07", schema.AccuracySupport+"=supported", schema.Grounded+"=not_grounded")
		b.AnswerTask("q\x1b[5m")
	})
	if _, err := s.CreatePool(store.PoolSpec{Name: "pool\x1b[1m", Runs: []string{"bm25"}, Depth: 1, Assign: []string{"jo", "sam"}}); err != nil {
		t.Fatal(err)
	}
	pair, err := storetest.Read(t, s).Resolve(store.RelevanceID("q\x1b[5m", "d\x07"))
	if err != nil {
		t.Fatal(err)
	}
	for who, v := range map[string]string{"jo": "relevant", "sam": "not_relevant"} {
		if _, err := s.RecordLabel(store.Label{Annotator: who, ItemID: pair.ItemID, Field: schema.Relevance, Value: v}); err != nil {
			t.Fatal(err)
		}
	}
	task, _ := storetest.Read(t, s).Resolve(store.AnswerTaskID("q\x1b[5m"))
	if err := s.SubmitAnswer("jo", task.ItemID, h, []string{"d\x07", h}, 0, 0); err != nil {
		t.Fatal(err)
	}
	for _, who := range []string{"jo", "sam", "lead"} {
		for _, item := range []string{"qa\x1b[2J", "c\x1b[5m", "a-c\x07"} {
			ref, _ := storetest.Read(t, s).Resolve(item)
			if err := s.SetNote(who, ref.ItemID, "", h, 0); err != nil {
				t.Fatal(err)
			}
			s.SetFlag(who, ref.ItemID, "", true, 0)
		}
	}
	return s
}

// Every review screen, with hostile data in every field it shows (item
// texts and ids, annotators' label values, system predictions, notes, gold
// answers and citations), renders bytes that cannot drive a terminal.
func TestHostileDataIsInertOnEveryReviewScreen(t *testing.T) {
	experts := []store.LabelSet{{Annotator: "jo"}, {Annotator: "sam"}, {Adjudicated: true}}
	for _, c := range []struct {
		name string
		opt  Options
		keys []string
	}{
		{"adjudicate", Options{}, nil},
		{"adjudicate-next", Options{}, []string{"right"}},
		{"adjudicate-next2", Options{}, []string{"right", "right"}},
		{"adjudicate-next3", Options{}, []string{"right", "right", "right"}},
		{"adjudicate-next4", Options{}, []string{"right", "right", "right", "right"}},
		{"adjudicate-focus", Options{}, []string{"tab", "pgdown"}},
		{"adjudicated", Options{}, []string{"1"}},
		{"confirm", Options{}, []string{"A"}},
		{"note", Options{}, []string{"m"}},
		{"help", Options{}, []string{"?"}},
		{"cells", Options{StartSystem: true, System: "refchecker", Experts: experts}, nil},
		{"walker", Options{StartSystem: true, System: "refchecker", Experts: experts}, []string{"enter"}},
		{"walker-focus", Options{StartSystem: true, System: "refchecker", Experts: experts}, []string{"enter", "tab", "pgdown"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := hostileReviewStore(t)
			if c.opt.Experts == nil {
				c.opt.Experts = experts
			}
			h := newHarness(t, s, c.opt, 160, 50)
			h.keys(c.keys...)
			for _, size := range [][2]int{{160, 50}, {100, 30}, {40, 12}} {
				h.send(sizeMsg(size[0], size[1]))
				v := h.m.View()
				if bad := notInert(v); bad != "" {
					t.Fatalf("%dx%d: %s on screen:\n%q", size[0], size[1], bad, v)
				}
				if bad := notInert(h.m.Title()); bad != "" {
					t.Fatalf("window title: %s", bad)
				}
				// The screens that show an item show its data, inert.
				shows := c.name != "help" && c.name != "confirm" && c.name != "cells"
				if size[0] == 160 && os.Getenv("REVIEW_SHOW") != "" {
					t.Logf("\n%s", h.screen())
				}
				if size[0] == 160 && shows && !strings.Contains(h.screen(), "␛") {
					t.Fatalf("no data shown (as ␛): the screen is not the one meant:\n%s", h.screen())
				}
			}
		})
	}
	// The review of gold answers: the query, the answer, its citations and
	// the seed document.
	s := hostileReviewStore(t)
	a := &answersHarness{t: t, m: NewAnswers(AnswerOptions{Store: s, Lead: "lead"}, testHost)}
	a.send(tea.WindowSizeMsg{Width: 160, Height: 50})
	tuitest.Run(a.m.Init(), a.send)
	for _, ks := range [][]string{nil, {"tab", "pgdown"}, {"n"}} {
		a.keys(ks...)
		for _, size := range [][2]int{{160, 50}, {100, 30}, {40, 12}} {
			a.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			if bad := notInert(a.m.View()); bad != "" {
				t.Fatalf("answers review after %v, %dx%d: %s on screen:\n%q", ks, size[0], size[1], bad, a.m.View())
			}
		}
	}
	a.send(tea.WindowSizeMsg{Width: 160, Height: 50})
	if v := a.view(); !strings.Contains(v, "pink␛[38;5;201m") {
		t.Fatalf("the answers review does not show the answer:\n%s", v)
	}
}
