package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// The mouse (the view asks for cell motion: clicks, releases and the
// wheel). The wheel scrolls the screen's pane when it has one
// (ui.Wheeler), else it is up and down for the screen's list; a left click
// on an option of a card is the option's key, pressed through the same
// path as a typed key (typed ahead while a save is on its way, ignored
// while the screen is hidden).

// wheel hands a wheel event to the screen. It is dropped while the screen
// is hidden or busy: a scroll typed ahead would move what the annotator
// no longer looks at, and a spun wheel would fill the type-ahead.
func (m *Model) wheel(msg tea.MouseWheelMsg) tea.Cmd {
	m.e.act.touch()
	if m.busy() || len(m.e.ahead.keys) > 0 {
		return nil
	}
	var cmd tea.Cmd
	if w, ok := m.cur.(ui.Wheeler); ok {
		m.cur, cmd = w.Wheel(msg)
		return cmd
	}
	if k, ok := ui.WheelKey(msg); ok {
		m.cur, cmd = m.cur.Update(k)
	}
	return cmd
}

// click presses the key of the option clicked, if any.
func (m *Model) click(msg tea.MouseClickMsg) (tea.Model, tea.Cmd) {
	if msg.Button != tea.MouseLeft || m.e.tooSmall() {
		return m, nil
	}
	c, ok := m.cur.(ui.Clicker)
	if !ok {
		return m, nil
	}
	k, ok := c.Click(msg.X, msg.Y)
	if !ok {
		return m, nil
	}
	return m.Update(k)
}

// Wheel scrolls the item's context pane (the document of a relevance
// judgment too), with or without the focus.
func (s *itemScreen) Wheel(msg tea.MouseWheelMsg) (ui.Child, tea.Cmd) {
	s.pane.Wheel(msg)
	return s, nil
}

// Click picks the option of the field card clicked: the key written beside
// it ([1], [y/1], [enter]…).
func (s *itemScreen) Click(x, y int) (tea.KeyPressMsg, bool) {
	k := s.e.keys
	return s.pane.CardKeyAt(x, y, k.Pick, k.Yes, k.No, k.Accept, k.Undo, k.Check, k.Grade, k.Add, k.Quit)
}

// Wheel scrolls the seed document of the answer screen (not the editors'
// cursors).
func (s *answerScreen) Wheel(msg tea.MouseWheelMsg) (ui.Child, tea.Cmd) {
	s.doc.Scroll(ui.WheelStep(msg))
	return s, nil
}

// Wheel scrolls the guidelines.
func (g *guideScreen) Wheel(msg tea.MouseWheelMsg) (ui.Child, tea.Cmd) {
	if n := ui.WheelStep(msg); n < 0 {
		g.vp.ScrollUp(-n)
	} else if n > 0 {
		g.vp.ScrollDown(n)
	}
	return g, nil
}
