package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

func ctrl(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl} }

// seedAnswers: two queries of one seed group with their answer tasks, the
// seed document, and a generated answer with two claims and the judge's
// verdicts.
func seedAnswers(t *testing.T, s *store.Store) {
	storetest.Seed(t, s, func(b *storetest.Builder) {
		b.Document(store.Document{ID: "doc-1", Title: "Tremblay v. Maple", Citation: "2099 ONSC 1", Text: "A landlord may enter without notice only in an emergency."})
		b.Query(store.Query{ID: "q1", Text: "Can my landlord come in without notice?", Persona: "lay", Jurisdiction: "ON", SeedDoc: "doc-1", SeedGroup: "g"})
		b.Query(store.Query{ID: "q2", Text: "What notice must a landlord give?", Persona: "professional", Jurisdiction: "ON", SeedDoc: "doc-1", SeedGroup: "g"})
		b.AnswerTask("q1")
		b.AnswerTask("q2")
		b.GenAnswer(store.GenAnswer{ID: "a1", Query: "q1", System: "SECRET-SYSTEM", Condition: "oracle", Answer: "No. Only in an emergency.",
			Documents: []string{"doc-1"}, Claims: []store.GenClaim{
				{ID: "a1-c1", Position: 1, Text: "A landlord may enter only in an emergency.", Predictions: map[string]map[string]string{"judge": {"grounded": "PREDICTED-SECRET"}}},
				{ID: "a1-c2", Position: 2, Text: "The tenant must always agree."},
			}})
	})
}

func (h *harness) answer() *answerScreen {
	h.t.Helper()
	s, ok := h.m.cur.(*answerScreen)
	if !ok {
		h.t.Fatalf("screen is %T, not the answer screen:\n%s", h.m.cur, h.view())
	}
	return s
}

func draftOf(t *testing.T, s *store.Store, ext string) (store.AnswerDraft, bool) {
	t.Helper()
	ref, _ := storetest.Read(t, s).Resolve(ext)
	d, ok, err := storetest.Read(t, s).Draft("jo", ref.ItemID)
	if err != nil {
		t.Fatal(err)
	}
	return d, ok
}

// Drafts are written at most once a second while the expert types (the
// clock is the harness's), when they leave, and come back when they return;
// nothing is a label until ctrl+s, which writes one event per field with
// the active time.
func TestAnswerDraftsAndSubmission(t *testing.T) {
	s := openStore(t)
	seedAnswers(t, s)
	h := newHarness(t, s, Options{Kind: "answer_task"})
	a := h.answer()
	if a.d.ref.ExtID != "q1/answer" || !strings.Contains(h.view(), "Can my landlord come in without notice?") || !strings.Contains(h.view(), "Tremblay v. Maple") {
		t.Fatalf("first screen:\n%s", h.view())
	}
	h.typeText("Hello")
	if _, ok := draftOf(t, s, "q1/answer"); ok {
		t.Fatal("a draft was written within the first second")
	}
	h.clock.add(time.Second)
	h.typeText(" world") // the first key is a second after the last write: written
	if d, ok := draftOf(t, s, "q1/answer"); !ok || d.GoldAnswer != "Hello " {
		t.Fatalf("draft after a second: %+v %v", d, ok)
	}
	h.clock.add(1500 * time.Millisecond)
	h.typeText("!")
	if d, _ := draftOf(t, s, "q1/answer"); d.GoldAnswer != "Hello world!" {
		t.Fatalf("draft %q", d.GoldAnswer)
	}
	// The citations: a known document and an unknown citation, marked.
	h.keys("tab")
	h.typeText("doc-1")
	h.keys("enter")
	h.typeText("Foo v Bar")
	if !strings.Contains(h.view(), "4 words") && !strings.Contains(h.view(), "2 words") {
		t.Errorf("no word count:\n%s", h.view())
	}
	h.keys("esc") // home: the draft is written first
	if d, _ := draftOf(t, s, "q1/answer"); d.Citations != "doc-1\nFoo v Bar" || d.GoldAnswer != "Hello world!" {
		t.Fatalf("draft on leaving %+v", d)
	}
	if n := count(t, s, "SELECT COUNT(*) FROM label_events"); n != 0 {
		t.Fatalf("%d label events before any submission", n)
	}
	// Another session: the draft is back, with its marks.
	h2 := newHarness(t, s, Options{Kind: "answer_task"})
	a = h2.answer()
	if a.answer.Value() != "Hello world!" || a.cites.Value() != "doc-1\nFoo v Bar" {
		t.Fatalf("draft not restored: %q %q", a.answer.Value(), a.cites.Value())
	}
	if a.citationMark(0) != "✓ " || a.citationMark(1) != "? " || !strings.Contains(h2.view(), "✓ 1 known · ? 1 unknown") {
		t.Errorf("marks %q %q\n%s", a.citationMark(0), a.citationMark(1), h2.view())
	}
	h2.clock.add(2 * time.Minute)
	h2.send(ctrl('s'))
	h2.wantLabels("q1/answer", map[string]string{"gold_answer": "Hello world!", "citations": `["doc-1","Foo v Bar"]`})
	if _, ok := draftOf(t, s, "q1/answer"); ok {
		t.Error("the draft outlived the submission")
	}
	if got := h2.history("q1/answer"); got != `gold_answer=Hello world! citations=["doc-1","Foo v Bar"]` {
		t.Errorf("history %s", got)
	}
	if ms := count(t, s, "SELECT active_ms FROM label_events WHERE field='gold_answer'"); ms < 2*60*1000 {
		t.Errorf("active time %d ms", ms)
	}
	// The next query of the queue is on screen, counted.
	if a := h2.answer(); a.d.ref.ExtID != "q2/answer" || !strings.Contains(h2.view(), "item 2 of 2") {
		t.Errorf("after submitting:\n%s", h2.view())
	}
	// An empty answer is not submitted.
	h2.send(ctrl('s'))
	if n := count(t, s, "SELECT COUNT(*) FROM label_events"); n != 2 || !strings.Contains(h2.view(), "The answer is empty") {
		t.Errorf("an empty answer: %d events\n%s", n, h2.view())
	}
}

// Citations cleared: the marks and counts go with them once the draft is
// written (no citation left to look up, and none asked of the database).
func TestAnswerCitationsCleared(t *testing.T) {
	s := openStore(t)
	seedAnswers(t, s)
	ref, _ := storetest.Read(t, s).Resolve("q1/answer")
	if err := s.SaveDraft("jo", ref.ItemID, "An answer.", "doc-1", 0); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, s, Options{Kind: "answer_task"})
	if !strings.Contains(h.view(), "✓ 1 known · ? 0 unknown") {
		t.Fatalf("the draft's citation is not marked:\n%s", h.view())
	}
	h.keys("tab", "backspace", "backspace", "backspace", "backspace")
	h.clock.add(time.Second)
	h.keys("backspace") // the citations are empty; the draft is written
	if d, _ := draftOf(t, s, "q1/answer"); d.Citations != "" {
		t.Fatalf("draft citations %q", d.Citations)
	}
	if a := h.answer(); a.citationMark(0) != "  " || !strings.Contains(h.view(), "✓ 0 known · ? 0 unknown") {
		t.Errorf("mark %q\n%s", a.citationMark(0), h.view())
	}
}

// Undo of typing, and the clipboard key under annotate serve.
func TestAnswerEditorUndoAndPaste(t *testing.T) {
	s := openStore(t)
	seedAnswers(t, s)
	h := newHarness(t, s, Options{Kind: "answer_task", Client: "ssh"})
	a := h.answer()
	h.typeText("One two three")
	h.send(ctrl('z'))
	if a.answer.Value() != "One two" {
		t.Errorf("undo gave %q", a.answer.Value())
	}
	h.send(ctrl('y'))
	if a.answer.Value() != "One two three" {
		t.Errorf("redo gave %q", a.answer.Value())
	}
	if a.answer.CanPaste() || strings.Contains(h.view(), "ctrl+v") {
		t.Error("ctrl+v reads the server's clipboard under annotate serve")
	}
	// The annotator's own terminal pastes (bracketed paste), made inert.
	h.send(tea.PasteMsg{Content: "\nPasted\x1b[2J line\u202e."})
	if a.answer.Value() != "One two three\nPasted[2J line." {
		t.Errorf("paste gave %q", a.answer.Value())
	}
	h.send(ctrl('z'))
	if a.answer.Value() != "One two three" {
		t.Errorf("undoing the paste gave %q", a.answer.Value())
	}
}

// The generated-claim screen shows the evidence of the field asked, never
// the system or the judge's verdicts, and asks the categories as a checklist.
func TestGenClaimScreenAndChecklist(t *testing.T) {
	s := openStore(t)
	seedAnswers(t, s)
	h := newHarness(t, s, Options{Kind: "gen_claim"})
	h.at("a1-c1", "accuracy_support")
	v := h.view()
	if !strings.Contains(v, "No accepted gold answer for this query yet") || strings.Contains(v, "SECRET") {
		t.Fatalf("accuracy screen:\n%s", v)
	}
	h.keys("y")
	h.at("a1-c1", "grounded")
	if v := h.view(); !strings.Contains(v, "Documents the answer used") || !strings.Contains(v, "only in an emergency") || strings.Contains(v, "SECRET") {
		t.Fatalf("grounded screen:\n%s", v)
	}
	h.keys("n")
	h.at("a1-c1", "error_category")
	h.keys("enter")
	if !strings.Contains(h.view(), "Check at least one category") {
		t.Errorf("enter with nothing checked:\n%s", h.view())
	}
	h.keys("space", "down", "down", "space", "9", "9")
	if !strings.Contains(h.view(), "checked: valid_contextual_statement, false_positive_in_gold") {
		t.Errorf("checklist:\n%s", h.view())
	}
	h.keys("enter")
	h.wantLabels("a1-c1", map[string]string{"accuracy_support": "supported", "grounded": "not_grounded",
		"error_category": `["valid_contextual_statement","false_positive_in_gold"]`})
	h.at("a1-c2", "accuracy_support")
	h.keys("u")
	h.at("a1-c1", "error_category")
	if strings.Contains(h.view(), "[x]") {
		t.Errorf("the checklist after undo starts unchecked:\n%s", h.view())
	}
}

func count(t *testing.T, s *store.Store, q string) int {
	t.Helper()
	var n int
	if err := storetest.DB(t, s).QueryRow(q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The answer, review-free generated-claim and checklist screens at every
// size from 20x6 to 300x100: no panic, never wider or taller than the
// terminal (the sweep of resize_test.go, for these kinds).
func TestAnswerScreensResizeSweep(t *testing.T) {
	long := strings.Repeat("Le locateur doit donner un préavis écrit de 24 heures « conformément » à l’article 27 ; 条約第一条 ", 6)
	for _, sc := range []struct {
		name string
		opt  Options
		keys []string
	}{
		{"answer", Options{Kind: "answer_task"}, nil},
		{"answer-citations", Options{Kind: "answer_task"}, []string{"tab"}},
		{"answer-document", Options{Kind: "answer_task"}, []string{"tab", "tab", "pgdown"}},
		{"gen-claim", Options{Kind: "gen_claim"}, nil},
		{"gen-claim-grounded", Options{Kind: "gen_claim"}, []string{"n"}},
		{"checklist", Options{Kind: "gen_claim"}, []string{"n", "n", "space", "down"}},
	} {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			s := openStore(t)
			seedAnswers(t, s)
			h := newHarness(t, s, sc.opt)
			if sc.opt.Kind == "answer_task" {
				h.typeText(long)
				h.keys("enter")
				h.typeText(long)
			}
			h.keys(sc.keys...)
			for w := 20; w <= 300; w += 11 {
				for ht := 6; ht <= 100; ht += 7 {
					h.send(tea.WindowSizeMsg{Width: w, Height: ht})
					checkFits(t, h.m.View().Content, w, ht)
				}
			}
		})
	}
}
