package adjudicate

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
	"github.com/annotate-dev/annotate/tui/tuitest"
)

// answersHarness drives the review of gold answers at Update level.
type answersHarness struct {
	t testing.TB
	m *AnswersModel
}

func (h *answersHarness) send(msg tea.Msg) {
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		h.m.SetSize(ws.Width, ws.Height)
	}
	_, cmd := h.m.Update(msg)
	tuitest.Run(cmd, h.send)
}

func (h *answersHarness) keys(ks ...string) {
	for _, k := range ks {
		h.send(tuitest.Key(k))
	}
}

func (h *answersHarness) view() string { return ansi.Strip(h.m.View()) }

func TestReviewOfGoldAnswers(t *testing.T) {
	s := storetest.Open(t)
	storetest.Seed(t, s, func(b *storetest.Builder) {
		b.Document(store.Document{ID: "d1", Citation: "2099 ONSC 1", Text: "Seed text."})
		b.Query(store.Query{ID: "q1", Text: "First query?", Persona: "lay", Jurisdiction: "ON", SeedDoc: "d1"})
		b.Query(store.Query{ID: "q2", Text: "Second query?", Persona: "lay", Jurisdiction: "ON"})
		b.AnswerTask("q1")
		b.AnswerTask("q2")
	})
	for q, text := range map[string]string{"q1": "Answer one.", "q2": "Answer two."} {
		ref, _ := s.Resolve(store.AnswerTaskID(q))
		if err := s.SubmitAnswer("jo", ref.ItemID, text, []string{"d1", "Foo v Bar"}, 0, 0); err != nil {
			t.Fatal(err)
		}
	}
	h := &answersHarness{t: t, m: NewAnswers(AnswerOptions{Store: s, Lead: "lead"}, testHost)}
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	tuitest.Run(h.m.Init(), h.send)
	v := h.view()
	if !strings.Contains(v, "First query?") || !strings.Contains(v, "✓ d1") || !strings.Contains(v, "? Foo v Bar") || !strings.Contains(v, "2 pending") || !strings.Contains(v, "Seed text.") {
		t.Fatalf("first screen:\n%s", v)
	}
	h.keys("y")
	if gold, _ := s.GoldAnswerOf("q1"); gold == nil || gold.Text != "Answer one." {
		t.Fatalf("accepted gold %+v", gold)
	}
	// The next pending answer comes; n asks the reason, esc takes it back.
	if v := h.view(); !strings.Contains(v, "Second query?") || !strings.Contains(v, "1 pending") {
		t.Fatalf("after accepting:\n%s", v)
	}
	h.keys("n")
	if !strings.Contains(h.view(), "reject_reason") {
		t.Fatalf("no reason asked:\n%s", h.view())
	}
	h.keys("esc", "n", "3")
	units, _ := s.AnswerUnits("")
	if units[1].Review != store.ReviewRejected || units[1].Reason != "incomplete" {
		t.Fatalf("rejection %+v", units[1])
	}
	if gold, _ := s.GoldAnswerOf("q2"); gold != nil {
		t.Errorf("a rejected answer is gold: %+v", gold)
	}
	h.keys("u")
	units, _ = s.AnswerUnits("")
	if units[1].Review != store.ReviewPending || !strings.Contains(h.view(), "Undone") {
		t.Errorf("after undo %+v\n%s", units[1], h.view())
	}
	for w := 20; w <= 200; w += 9 {
		for ht := 6; ht <= 60; ht += 6 {
			h.send(tea.WindowSizeMsg{Width: w, Height: ht})
			lines := strings.Split(h.m.View(), "\n")
			if len(lines) > ht {
				t.Fatalf("%dx%d: %d lines", w, ht, len(lines))
			}
			for _, l := range lines {
				if ansi.StringWidth(l) > w {
					t.Fatalf("%dx%d: a line of %d cells", w, ht, ansi.StringWidth(l))
				}
			}
		}
	}
}

// The lead's own answer is shown as theirs, and y or n on it is refused
// with the reason (nothing written) unless AllowOwn.
func TestReviewOfTheLeadsOwnAnswerIsRefused(t *testing.T) {
	s := storetest.Open(t)
	storetest.Seed(t, s, func(b *storetest.Builder) {
		b.Query(store.Query{ID: "q1", Text: "First query?", Persona: "lay", Jurisdiction: "ON"})
		b.AnswerTask("q1")
	})
	ref, _ := s.Resolve(store.AnswerTaskID("q1"))
	if err := s.SubmitAnswer("ana", ref.ItemID, "Ana's answer.", nil, 0, 0); err != nil {
		t.Fatal(err)
	}
	for _, allow := range []bool{false, true} {
		h := &answersHarness{t: t, m: NewAnswers(AnswerOptions{Store: s, Lead: "ana", AllowOwn: allow}, testHost)}
		h.send(tea.WindowSizeMsg{Width: 120, Height: 30})
		tuitest.Run(h.m.Init(), h.send)
		if marked := strings.Contains(h.view(), "yours: another lead reviews it"); marked == allow {
			t.Errorf("allow-own %v: marked %v:\n%s", allow, marked, h.view())
		}
		h.keys("y")
		gold, _ := s.GoldAnswerOf("q1")
		if !allow && (gold != nil || !strings.Contains(h.m.status, "ana labelled q1/answer: a lead never adjudicates a unit in which they gave a label")) {
			t.Errorf("ana accepting her own answer: gold %+v, status %q", gold, h.m.status)
		}
		if allow && (gold == nil || gold.Text != "Ana's answer.") {
			t.Errorf("--allow-own: gold %+v, status %q %q", gold, h.m.status, h.m.err)
		}
	}
}
