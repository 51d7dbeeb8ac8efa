package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// The report of issue 16: on the "please enlarge" screen of a 20×6
// terminal, n 1 judged a question nobody could see invalid (domain). No
// key acts on an item the screen does not show: the keys are ignored and
// counted, the screen says so, and once the terminal is large again the
// item is where it was.
func TestTooSmallIgnoresKeys(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.at("q1", schema.QuestionValidity)
	h.send(tea.WindowSizeMsg{Width: 20, Height: 6})
	h.keys("n", "1", "s", "f", "u")
	if got := h.history("q1"); got != "" {
		t.Fatalf("keys on the hidden item were applied: %s", got)
	}
	if _, flagged, _ := storetest.Read(t, s).ItemNote("jo", h.labelsItem("q1")); flagged {
		t.Fatal("f flagged the hidden item")
	}
	if v := h.view(); !strings.Contains(strings.ReplaceAll(v, "\n", " "), "5 keys ignored") {
		t.Fatalf("the small screen does not say the keys were ignored:\n%s", v)
	}
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.at("q1", schema.QuestionValidity)
	if v := h.view(); !strings.Contains(v, "5 keys typed while the terminal was too small were ignored") {
		t.Fatalf("the status line does not say the keys were ignored:\n%s", v)
	}
	h.keys("n", "1")
	h.wantLabels("q1", map[string]string{"invalid_reason": "domain", "question_validity": "invalid"})
	h.at("q2", schema.QuestionValidity)
	// q still leaves from a small terminal (nothing is lost).
	h.send(tea.WindowSizeMsg{Width: 30, Height: 8})
	h.keys("q")
	if _, home := h.m.cur.(*homeScreen); !home {
		t.Fatalf("q on the small screen: %T, want home", h.m.cur)
	}
}

// Keys typed ahead while a save was in flight wait while the terminal is
// too small and are applied, in order, once the screen shows again.
func TestTooSmallKeepsKeysTypedAhead(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	// Hold the save: the keys typed meanwhile wait at the root.
	h.item().saving = true
	h.keys("y", "enter")
	h.send(tea.WindowSizeMsg{Width: 20, Height: 6})
	h.item().saving = false
	h.send(tea.WindowSizeMsg{Width: 20, Height: 6})
	if got := h.history("q1"); got != "" {
		t.Fatalf("waiting keys applied to the hidden item: %s", got)
	}
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.wantLabels("q1", map[string]string{"category": "factual_recall", "question_validity": "valid"})
	h.at("q1", schema.Persona)
}

// The guidelines and the break reminder hide the item: a decision key on
// them is not applied, and they say it was ignored.
func TestOverlaysIgnoreDecisionKeys(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0)
	h := newHarness(t, s, Options{Kind: "qa", SessionLimit: 4 * time.Minute})
	h.keys("?")
	if _, ok := h.m.cur.(*guideScreen); !ok {
		t.Fatalf("? opened %T", h.m.cur)
	}
	h.keys("y", "1", "enter", "s")
	if got := h.history("q1"); got != "" {
		t.Fatalf("keys on the guidelines were applied: %s", got)
	}
	if v := h.view(); !strings.Contains(v, "s ignored while the guidelines are open") {
		t.Fatalf("the guidelines do not say the key was ignored:\n%s", v)
	}
	h.keys("esc")
	h.at("q1", schema.QuestionValidity)

	h.clock.add(5 * time.Minute) // a gap counts at most 5 minutes of active time
	h.keys("y")                  // the reminder comes after this decision
	if _, ok := h.m.cur.(*breakScreen); !ok {
		t.Fatalf("no break reminder: %T", h.m.cur)
	}
	h.keys("1", "n")
	if v := strings.ReplaceAll(h.view(), "\n", " "); !strings.Contains(v, "n ignored") {
		t.Fatalf("the reminder does not say the key was ignored:\n%s", h.view())
	}
	h.wantLabels("q1", map[string]string{"question_validity": "valid"})
	h.keys("enter") // dismisses the reminder, accepts nothing
	h.at("q1", schema.Category)
	h.wantLabels("q1", map[string]string{"question_validity": "valid"})
}

// enter typed while the program starts reaches it as ctrl+j (the tty's
// line discipline turned CR into LF): it is enter all the same.
func TestCtrlJIsEnter(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.keys("y", "ctrl+j", "1", "2")
	h.wantLabels("q1", map[string]string{"answer_correctness": "partially_correct", "category": "factual_recall",
		"persona": "citizen", "question_validity": "valid"})
}

// Keys typed before the first frame (the terminal's size not known yet,
// the queue still loading) wait, then apply in order to the right fields.
func TestKeysBeforeFirstFrame(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0)
	m := New(Options{Store: s, Annotator: "jo", Kind: "qa", Now: newClock().now})
	m.e.noTicks = true
	h := &harness{t: t, s: s, m: m}
	init := m.Init()
	for _, k := range []string{"y", "ctrl+j", "1", "2", "n", "3"} {
		h.send(keyMsg(k))
	}
	h.run(init) // the queue and the first item load
	if got := h.history("q1"); got != "" {
		t.Fatalf("keys applied before the screen was up: %s", got)
	}
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.wantLabels("q1", map[string]string{"answer_correctness": "partially_correct", "category": "factual_recall",
		"persona": "citizen", "question_validity": "valid"})
	if got := h.labels("jo", "q2"); got["question_validity"] != "invalid" || got["invalid_reason"] != "both" {
		t.Fatalf("q2 labels %v, want invalid (both)", got)
	}
}

func labelsOf(t *testing.T, s *store.Store, ext string) map[string]string {
	t.Helper()
	ref, err := storetest.Read(t, s).Resolve(ext)
	if err != nil {
		t.Fatal(err)
	}
	cur, err := storetest.Read(t, s).CurrentLabels("jo", ref.ItemID)
	if err != nil {
		t.Fatal(err)
	}
	return cur
}

func sameMap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
