package review

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui"
)

// noteInput edits the lead's note on an item over the last lines of the
// screen under it: enter saves (empty clears), esc cancels. The note goes to
// the notes table under the lead's name, so `annotate notes` lists it with
// the annotators' for the feedback meeting.
type noteInput struct {
	e     *env
	under tui.Child
	ref   store.ItemRef
	field string
	in    tui.LineInput
	w, h  int
}

func newNoteInput(e *env, under tui.Child, ref store.ItemRef, field, current string) *noteInput {
	n := &noteInput{e: e, under: under, ref: ref, field: field, w: e.w, h: e.h}
	n.in.SetValue(current)
	n.SetSize(e.w, e.h)
	return n
}

func (n *noteInput) SetSize(w, h int) {
	n.w, n.h = w, h
	n.under.SetSize(w, h)
	n.in.SetPrompt("note: ", max(1, w-7))
}

func (n *noteInput) Update(msg tea.Msg) (tui.Child, tea.Cmd) {
	if km, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case keyIs(km, n.e.keys.Back):
			n.e.ok("Cancelled: the note is unchanged.")
			return n.under, nil
		case keyIs(km, n.e.keys.Open):
			text := strings.TrimSpace(n.in.Value())
			return n.under, setNoteCmd(n.e.store, n.e.lead, n.ref.ItemID, n.field, text)
		}
	}
	n.in.Update(msg)
	return n, nil
}

func (n *noteInput) View() string {
	st := n.e.styles
	panel := []string{
		st.Rule.Render(strings.Repeat("─", n.w)),
		st.Title.Render(tui.Truncate("Your note on "+tui.SanitizeLine(n.ref.ExtID)+" (empty clears it)", n.w)),
		tui.TruncateStyled(n.in.View(st), n.w),
		n.e.help.ShortHelpView([]key.Binding{with(n.e.keys.Open, "enter", "save"), with(n.e.keys.Back, "esc", "cancel")}),
	}
	under := strings.Split(n.under.View(), "\n")
	keep := max(0, n.h-len(panel))
	if len(under) > keep {
		under = under[:keep]
	}
	return strings.Join(append(under, panel...), "\n")
}
