package adjudicate

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/store"
)

func wheelMsg(b tea.MouseButton) tea.MouseWheelMsg { return tea.MouseWheelMsg{Button: b} }

// The wheel on the review screens (the root hands it to the review screen
// as it does to any: tui's TestReviewMouse clicks): the adjudication
// screen's pane scrolls 3 lines a notch without the focus; the system
// view's cell list moves its selection as ↓ and ↑ do; under the help the
// wheel does nothing.
func TestReviewWheel(t *testing.T) {
	s := openStore(t)
	seedTwenty(t, s)
	h := newHarness(t, s, Options{Lead: "lead"}, 60, 16)
	h.m.View()
	a := h.m.e.adj
	if !a.p.Pane.Scrollable() {
		t.Fatalf("the pane does not scroll at 60x16 (the test would prove nothing):\n%s", h.screen())
	}
	h.m.Wheel(wheelMsg(tea.MouseWheelDown))
	if got := a.p.Pane.Offset(); got != 3 || a.p.Focus {
		t.Fatalf("offset %d (focus %v) after a notch down, want 3 without the focus", got, a.p.Focus)
	}
	h.keys("?")
	h.m.Wheel(wheelMsg(tea.MouseWheelUp))
	if got := a.p.Pane.Offset(); got != 3 {
		t.Fatalf("the wheel scrolled under the help: offset %d", got)
	}

	s2 := openStore(t)
	seedSystem(t, s2)
	h2 := newHarness(t, s2, Options{Lead: "lead", StartSystem: true,
		Experts: []store.LabelSet{{Annotator: "jo"}}}, 100, 30)
	c := h2.m.e.cells
	if c.rev == nil || len(c.rev.Cells) < 2 {
		t.Fatalf("fewer than two cells: %+v", c.rev)
	}
	h2.m.Wheel(wheelMsg(tea.MouseWheelDown))
	if c.sel != 1 {
		t.Fatalf("cell %d selected after a notch down, want 1", c.sel)
	}
	h2.m.Wheel(wheelMsg(tea.MouseWheelUp))
	if c.sel != 0 {
		t.Fatalf("cell %d selected after a notch up, want 0", c.sel)
	}
}
