package adjudicate

import (
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// The mouse on the review screens, as on the annotation screens (package
// tui, mouse.go): the wheel scrolls a view's pane, or moves the cell list's
// cursor; a click on an option of the card is its key.

// Wheel hands a wheel event to the view on screen (not under the help).
func (m *Model) Wheel(msg tea.MouseWheelMsg) (ui.Child, tea.Cmd) {
	m.e.act.Touch() // reading counts as active time, as a key does
	if m.e.showHelp {
		return m, nil
	}
	var cmd tea.Cmd
	if w, ok := m.cur.(ui.Wheeler); ok {
		m.cur, cmd = w.Wheel(msg)
	} else if k, ok := ui.WheelKey(msg); ok {
		m.cur, cmd = m.cur.Update(k)
	}
	return m, cmd
}

// Click is the key of the option clicked on the view on screen.
func (m *Model) Click(x, y int) (tea.KeyPressMsg, bool) {
	if c, ok := m.cur.(ui.Clicker); ok && !m.e.showHelp {
		return c.Click(x, y)
	}
	return tea.KeyPressMsg{}, false
}

// Wheel scrolls the item's pane.
func (a *adjScreen) Wheel(msg tea.MouseWheelMsg) (ui.Child, tea.Cmd) {
	a.p.Wheel(msg)
	return a, nil
}

// Click picks the final label clicked on the card.
func (a *adjScreen) Click(x, y int) (tea.KeyPressMsg, bool) {
	k := a.e.keys
	return a.p.CardKeyAt(x, y, k.Pick, k.Yes, k.No, k.Accept)
}

// Wheel scrolls the claim's pane.
func (s *walkerScreen) Wheel(msg tea.MouseWheelMsg) (ui.Child, tea.Cmd) {
	s.p.Wheel(msg)
	return s, nil
}

// Wheel scrolls the seed document.
func (m *AnswersModel) Wheel(msg tea.MouseWheelMsg) (ui.Child, tea.Cmd) {
	m.act.Touch()
	m.pane.Wheel(msg)
	return m, nil
}

// Click accepts or rejects (or picks the reason) as the key clicked.
func (m *AnswersModel) Click(x, y int) (tea.KeyPressMsg, bool) {
	k := m.keys
	return m.pane.CardKeyAt(x, y, k.AcceptAnswer, k.RejectAnswer, k.Pick)
}
