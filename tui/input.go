package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// inputScreen asks for text at the bottom of the screen under it: a note
// (a wrapped text area), an item id to go to, or the three parts of a
// missed claim (one line each). enter moves to the next part (or finishes),
// esc cancels. Under `annotate serve` ctrl+v cannot read the server's
// clipboard (ui.Input).
type inputScreen struct {
	e       *env
	under   ui.Child
	title   string
	prompts []string
	values  []string
	step    int
	area    bool
	in      *ui.Input
	done    func(values []string) tea.Cmd
	hint    string
	// recall is the previous entry, which ↑ brings back (a search opens
	// empty, the last one a key away); "": none.
	recall string
	w, h   int
}

func newInput(e *env, under ui.Child, title string, prompts []string, area bool, initial string, done func([]string) tea.Cmd) *inputScreen {
	in := &inputScreen{e: e, under: under, title: title, prompts: prompts, area: area, done: done, w: e.w, h: e.h}
	in.reset()
	in.in.SetValue(initial)
	in.SetSize(e.w, e.h)
	return in
}

// reset starts an empty input for the current part.
func (in *inputScreen) reset() {
	in.in = ui.NewInput(in.e.styles, in.area, in.e.client != "ssh")
	in.in.SetPrompt(in.e.lang.Sprintf("%s: ", in.prompts[in.step]))
	in.in.SetSize(in.w, in.h-4)
}

func (in *inputScreen) SetSize(w, h int) {
	in.w, in.h = w, h
	in.under.SetSize(w, h)
	in.in.SetSize(w, h-4)
}

func (in *inputScreen) Update(msg tea.Msg) (ui.Child, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		switch msg.(type) {
		case tea.PasteMsg:
			return in, in.in.Update(msg)
		case tea.BackgroundColorMsg, tea.EnvMsg:
			in.in.SetStyles(in.e.styles)
		}
		// Answers to earlier commands still go to the screen underneath.
		var cmd tea.Cmd
		in.under, cmd = in.under.Update(msg)
		return in, cmd
	}
	k := in.e.keys
	switch {
	case in.recall != "" && !in.area && keyIs(km, k.Recall):
		in.in.SetValue(in.recall)
		return in, nil
	case keyIs(km, k.Close, k.Interrupt):
		in.e.status = in.e.lang.Sprintf("Cancelled.")
		return in.under, nil
	case keyIs(km, k.Accept):
		v := strings.TrimSpace(in.in.Value())
		if v == "" && len(in.prompts) > 1 {
			in.hint = in.e.lang.Sprintf("Please fill in the %s (esc cancels).", in.prompts[in.step])
			return in, nil
		}
		in.values = append(in.values, v)
		if in.step+1 < len(in.prompts) {
			in.step++
			in.hint = ""
			in.reset()
			return in, nil
		}
		return in.under, in.done(in.values)
	}
	return in, in.in.Update(msg)
}

// View draws the screen underneath with the input panel over its last lines.
func (in *inputScreen) View() string {
	st, say := in.e.styles, in.e.lang
	panel := []string{st.Title.Render(ui.Truncate(in.title, in.w))}
	for _, l := range strings.Split(in.in.View(), "\n") {
		panel = append(panel, ui.TruncateStyled(l, in.w))
	}
	hint := in.hint
	if hint == "" {
		hint = say.Sprintf("enter ok · esc cancel")
		if in.recall != "" {
			hint = say.Sprintf("↑ the last one (%s)", ui.SanitizeLine(in.recall)) + " · " + hint
		}
		if len(in.prompts) > 1 {
			hint = say.Sprintf("part %d of %d", in.step+1, len(in.prompts)) + " · " + hint
		}
	}
	panel = append(panel, st.Dim.Render(ui.Truncate(hint, in.w)))
	under := strings.Split(in.under.View(), "\n")
	keep := max(0, in.h-len(panel)-1)
	if len(under) > keep {
		under = under[:keep]
	}
	rule := st.Rule.Render(strings.Repeat("─", in.w))
	return strings.Join(append(append(under, rule), panel...), "\n")
}

// newNoteInput edits the note on the field on screen (empty clears it);
// enter saves it through store.SetNote, filed under that field.
func newNoteInput(e *env, s *itemScreen) *inputScreen {
	item, field := s.d.ref.ItemID, s.noteField()
	l := e.lang
	on := l.Sprintf("the item")
	if field != "" {
		on = l.Field(field)
	}
	return newInput(e, s, l.Sprintf("Note on %s · %s (empty to clear)", ui.SanitizeLine(s.d.ref.ExtID), on), []string{l.Sprintf("note")}, true, s.d.notes[field],
		func(v []string) tea.Cmd {
			return tea.Batch(s.ownWrite(), setNoteCmd(e.store, e.annotator, item, field, v[0], e.session))
		})
}

// newGotoInput asks for an item id and opens that item.
func newGotoInput(e *env, under ui.Child) *inputScreen {
	return newInput(e, under, e.lang.Sprintf("Go to item"), []string{e.lang.Sprintf("item id")}, false, "", func(v []string) tea.Cmd {
		if v[0] == "" {
			return nil
		}
		e.going = true
		return gotoCmd(e.store, e.lang, e.annotator, e.suggest, v[0])
	})
}

// newAddClaimInput asks for the subject, predicate and object of a claim the
// extractor missed.
func newAddClaimInput(e *env, s *itemScreen) *inputScreen {
	l := e.lang
	return newInput(e, s, l.Sprintf("Add a missed claim to %s", ui.SanitizeLine(s.d.qa.ID)), []string{l.Sprintf("subject"), l.Sprintf("predicate"), l.Sprintf("object")}, false, "",
		func(v []string) tea.Cmd {
			return s.addClaim([3]string{v[0], v[1], v[2]})
		})
}
