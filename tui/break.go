package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// breakScreen reminds the annotator to take a break after SessionLimit of
// active time. Any of enter, esc or q dismisses it; it comes back after
// another SessionLimit.
type breakScreen struct {
	e       *env
	under   ui.Child
	ignored string // the last key ignored: the reminder hides the item
	w, h    int
}

func newBreak(e *env, under ui.Child) *breakScreen {
	return &breakScreen{e: e, under: under, w: e.w, h: e.h}
}

func (b *breakScreen) SetSize(w, h int) { b.w, b.h = w, h; b.under.SetSize(w, h) }

func (b *breakScreen) Update(msg tea.Msg) (ui.Child, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		var cmd tea.Cmd
		b.under, cmd = b.under.Update(msg)
		return b, cmd
	}
	k := b.e.keys
	if keyIs(km, k.Accept, k.Close, k.Quit) {
		b.e.nextBreak = b.e.act.session() + b.e.limit
		return b.under, nil
	}
	b.ignored = ignoredKey(km)
	return b, nil
}

// ignoredKey names a key an overlay ignores because it hides the item, for
// the line that says so: no key acts on an item the screen does not show.
func ignoredKey(km tea.KeyPressMsg) string {
	return ui.SanitizeLine(km.String())
}

func (b *breakScreen) View() string {
	st, l := b.e.styles, b.e.lang
	msg := l.Sprintf("You have annotated for %s of active time in this session. Time for a break: everything is saved. Press enter to continue.", clock(b.e.act.session()))
	if b.ignored != "" {
		msg += " " + l.Sprintf("(%s ignored: this reminder hides the item.)", b.ignored)
	}
	inner := max(10, min(60, b.w-6))
	lines := ui.Wrap(msg, inner)
	box := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1).BorderForeground(st.Warn.GetBackground())
	body := box.Render(st.Warn.Render(strings.Join(padLines(lines, inner), "\n")))
	return lipgloss.Place(b.w, b.h, lipgloss.Center, lipgloss.Center, body)
}

func padLines(lines []string, w int) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = ui.PadRight(l, w)
	}
	return out
}
