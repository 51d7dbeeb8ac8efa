package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
	"github.com/annotate-dev/annotate/tui/adjudicate"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// cellOf finds text on the rendered screen, its last occurrence (the card
// is drawn last): its column (in cells) and row.
func cellOf(t testing.TB, view, text string) (x, y int) {
	t.Helper()
	lines := strings.Split(ansi.Strip(view), "\n")
	for y := len(lines) - 1; y >= 0; y-- {
		if i := strings.Index(lines[y], text); i >= 0 {
			return ansi.StringWidth(lines[y][:i]), y
		}
	}
	t.Fatalf("%q is not on the screen:\n%s", text, ansi.Strip(view))
	return 0, 0
}

func click(x, y int) tea.MouseClickMsg {
	return tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft}
}

func wheel(b tea.MouseButton) tea.MouseWheelMsg { return tea.MouseWheelMsg{Button: b} }

// A click on an option of the field card is pressing its key: a click on
// the word "invalid" writes question_validity=invalid (its key is n/2) and
// the card asks the next field, invalid_reason; a click on "[2] linguistic"
// answers it. A click beside the options (the card's bar, the item's text)
// writes nothing.
func TestClickPicksAnOption(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.at("q1", "question_validity")
	x, y := cellOf(t, h.m.render(), "[n/2]")
	h.send(click(0, y))                                                     // the card's bar
	h.send(click(cellOf(t, h.m.render(), "Question 1: what does Article"))) // the question
	h.wantLabels("q1", map[string]string{})
	h.send(click(x+len("[n/2] in"), y)) // on the word "invalid"
	h.wantLabels("q1", map[string]string{"question_validity": "invalid"})
	h.at("q1", "invalid_reason")
	h.send(click(cellOf(t, h.m.render(), "[2] linguistic")))
	h.wantLabels("q1", map[string]string{"question_validity": "invalid", "invalid_reason": "linguistic"})
	if w := h.m.View().MouseMode; w != tea.MouseModeCellMotion {
		t.Errorf("the view's mouse mode is %v, want cell motion", w)
	}
}

// While the terminal is too small the screen is hidden: a click writes
// nothing (a right click never does).
func TestClickOnHiddenScreenWritesNothing(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	x, y := cellOf(t, h.m.render(), "[y/1]")
	h.send(tea.MouseClickMsg{X: x + 1, Y: y, Button: tea.MouseRight})
	h.send(tea.WindowSizeMsg{Width: 20, Height: 6})
	h.send(click(x+1, y))
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.wantLabels("q1", map[string]string{})
}

// The wheel scrolls the context pane, without the focus, 3 lines a notch,
// and stops at the top.
func TestWheelScrollsThePane(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.send(tea.WindowSizeMsg{Width: 50, Height: 16})
	h.m.render()
	p := &h.item().pane
	if !p.Pane.Scrollable() {
		t.Fatalf("the pane does not scroll at 50x16 (the test would prove nothing):\n%s", h.view())
	}
	h.send(wheel(tea.MouseWheelDown))
	if got := p.Pane.Offset(); got != 3 {
		t.Fatalf("offset %d after a notch down, want 3", got)
	}
	if p.Focus {
		t.Error("the wheel gave the pane the focus")
	}
	h.send(wheel(tea.MouseWheelUp))
	h.send(wheel(tea.MouseWheelUp))
	if got := p.Pane.Offset(); got != 0 {
		t.Fatalf("offset %d after two notches up, want 0", got)
	}
	h.wantLabels("q1", map[string]string{})
}

// On a screen without a pane the wheel moves the list's cursor: home's
// queues (down selects the next row, as ↓ does) and the guidelines scroll.
func TestWheelMovesLists(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 1)
	h := newHarness(t, s, Options{})
	home, ok := h.m.cur.(*homeScreen)
	if !ok {
		t.Fatalf("not on home: %T", h.m.cur)
	}
	was := home.sel
	h.send(wheel(tea.MouseWheelDown))
	moved := home.sel
	if moved == was {
		t.Fatalf("the wheel did not move home's selection from row %d:\n%s", was, h.view())
	}
	h.keys("up", "down") // ↓ from the first row selects what the wheel did
	if home.sel != moved {
		t.Fatalf("↓ selects row %d, the wheel %d", home.sel, moved)
	}
	h.send(wheel(tea.MouseWheelUp))
	if home.sel != was {
		t.Fatalf("home's selection %d after a notch up, want %d", home.sel, was)
	}
	h.keys("?")
	g, ok := h.m.cur.(*guideScreen)
	if !ok {
		t.Fatalf("? on home does not open the guidelines: %T", h.m.cur)
	}
	h.send(wheel(tea.MouseWheelDown))
	if got := g.vp.YOffset(); got != 3 {
		t.Fatalf("the guidelines scrolled to %d after a notch, want 3", got)
	}
}

// The review: a click on a final label adjudicates it; the wheel scrolls
// the item's pane.
func TestReviewMouse(t *testing.T) {
	s := reviewStore(t)
	h := reviewHarness(t, s, Review(adjudicate.Options{Store: s, Lead: "lead"}))
	h.send(click(cellOf(t, h.m.render(), "[3] contradiction")))
	if n := leadEvents(t, s); n != 1 {
		t.Fatalf("%d adjudications after the click, want 1", n)
	}
	var item, field, value string
	err := storetest.DB(t, s).QueryRow(`SELECT i.ext_id, e.field, e.value FROM label_events e JOIN annotators a ON a.id=e.annotator_id
		JOIN items i ON i.id=e.item_id WHERE a.name='lead'`).Scan(&item, &field, &value)
	if err != nil || item+" "+field+"="+value != "gdpr-001-c2 entailment=contradiction" {
		t.Fatalf("the lead's adjudication: %s %s=%s (%v)", item, field, value, err)
	}
	if v := h.view(); !strings.Contains(v, "gdpr-001-c3") {
		t.Fatalf("not on c3 after the click:\n%s", v)
	}
}

// OptionKeyAt: a column of a line of options is the key of the option it
// is on; brackets whose content is not an allowed key are not options.
func TestOptionKeyAt(t *testing.T) {
	k := ui.DefaultKeyMap()
	line := "▌ [y/1] valid   [n/2] invalid   see [art. 3]"
	for _, c := range []struct {
		x    int
		want string
	}{
		{0, ""}, {1, ""}, {2, "y"}, {8, "y"}, {15, "y"}, {16, "n"}, {24, "n"}, {40, "n"},
	} {
		got := ""
		if m, ok := ui.OptionKeyAt(line, c.x, k.Yes, k.No); ok {
			got = m.String()
		}
		if got != c.want {
			t.Errorf("column %d: key %q, want %q", c.x, got, c.want)
		}
	}
	if _, ok := ui.OptionKeyAt("[1] a   [3] b", 9, k.Yes); ok {
		t.Error("[3] is a key though only y is allowed")
	}
}

// The real program, its commands running concurrently: a click on an
// option writes the label.
func TestTeatestClick(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0)
	o := &observed{Model: New(Options{Store: s, Annotator: "jo", Kind: "qa", Client: "test"})}
	tm := teatest.NewTestModel(t, o, teatest.WithInitialTermSize(100, 30))
	deadline := time.Now().Add(10 * time.Second)
	for o.at() != "q1/question_validity" {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for q1; on %q", o.at())
		}
		time.Sleep(5 * time.Millisecond)
	}
	// Where [y/1] is: the same screen drawn by the harness on the same data.
	same := openStore(t)
	seedQA(t, same, 0, 0)
	x, y := cellOf(t, newHarness(t, same, Options{Kind: "qa"}).m.render(), "[y/1]")
	tm.Send(click(x+2, y))
	for o.at() != "q1/category" { // valid: the category is asked next
		if time.Now().After(deadline) {
			t.Fatalf("waiting for q1's category after the click; on %q", o.at())
		}
		time.Sleep(5 * time.Millisecond)
	}
	tm.Send(keyMsg("q"))
	tm.Send(keyMsg("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	ref, _ := storetest.Read(t, s).Resolve("q1")
	if cur, _ := storetest.Read(t, s).CurrentLabels("jo", ref.ItemID); cur["question_validity"] != "valid" {
		t.Fatalf("q1's labels after the click: %v", cur)
	}
}

// The answer review: a click on "reject" asks the reason, a click on a
// reason records the rejection with it (as n then the digit).
func TestAnswerReviewClick(t *testing.T) {
	s := openStore(t)
	storetest.Seed(t, s, func(b *storetest.Builder) {
		b.Query(store.Query{ID: "q1", Text: "First query?"})
		b.AnswerTask("q1")
	})
	ref, _ := storetest.Read(t, s).Resolve(store.AnswerTaskID("q1"))
	if err := s.SubmitAnswer("jo", ref.ItemID, "Answer one.", nil, 0, 0); err != nil {
		t.Fatal(err)
	}
	h := reviewHarness(t, s, AnswerReview(adjudicate.AnswerOptions{Store: s, Lead: "lead"}))
	x, y := cellOf(t, h.m.render(), "[n/2] reject")
	h.send(click(x+7, y))
	if !strings.Contains(h.view(), "Why is it rejected?") {
		t.Fatalf("a click on reject does not ask the reason:\n%s", h.view())
	}
	f, _ := schema.Lookup(schema.RejectReason)
	reasons := f.Values
	h.send(click(cellOf(t, h.m.render(), "[2] "+reasons[1])))
	units, err := storetest.Read(t, s).AnswerUnits("")
	if err != nil || len(units) != 1 || units[0].Review != store.ReviewRejected || units[0].Reason != reasons[1] {
		t.Fatalf("after the clicks: %+v (%v), want rejected for %s", units, err, reasons[1])
	}
}
