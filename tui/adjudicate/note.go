package adjudicate

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/store"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// noteInput edits the lead's note on an item over the last lines of the
// screen under it: enter saves (empty clears), esc cancels. The note goes to
// the notes table under the lead's name, so `annotate notes` lists it with
// the annotators' for the feedback meeting.
type noteInput struct {
	e     *env
	under ui.Child
	ref   store.ItemRef
	field string
	in    *ui.Input
	w, h  int
}

func newNoteInput(e *env, under ui.Child, ref store.ItemRef, field, current string) *noteInput {
	n := &noteInput{e: e, under: under, ref: ref, field: field, w: e.w, h: e.h}
	n.in = ui.NewInput(e.styles, true, true) // the review runs on the lead's own machine
	n.in.SetValue(current)
	n.SetSize(e.w, e.h)
	return n
}

func (n *noteInput) SetSize(w, h int) {
	n.w, n.h = w, h
	n.under.SetSize(w, h)
	n.in.SetSize(w, h-4)
}

func (n *noteInput) Update(msg tea.Msg) (ui.Child, tea.Cmd) {
	if km, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case keyIs(km, n.e.keys.Close):
			n.e.ok(n.e.say().Sprintf("Cancelled: the note is unchanged."))
			return n.under, nil
		case keyIs(km, n.e.keys.Accept):
			text := strings.TrimSpace(n.in.Value())
			return n.under, setNoteCmd(n.e.store, n.e.lead, n.ref.ItemID, n.field, text, n.e.session)
		}
	}
	return n, n.in.Update(msg)
}

func (n *noteInput) View() string {
	st, say := n.e.styles, n.e.say()
	panel := []string{
		st.Rule.Render(strings.Repeat("─", n.w)),
		st.Title.Render(ui.Truncate(say.Sprintf("Your note on %s (empty clears it)", ui.SanitizeLine(n.ref.ExtID)), n.w)),
	}
	for _, l := range strings.Split(n.in.View(), "\n") {
		panel = append(panel, ui.TruncateStyled(l, n.w))
	}
	panel = append(panel, ui.HelpBar(&n.e.help, []key.Binding{ui.With(n.e.keys.Accept, "enter", say.Sprintf("save")), ui.With(n.e.keys.Close, "esc", say.Sprintf("cancel"))}, n.w, 1)...)
	under := strings.Split(n.under.View(), "\n")
	keep := max(0, n.h-len(panel))
	if len(under) > keep {
		under = under[:keep]
	}
	return strings.Join(append(under, panel...), "\n")
}
