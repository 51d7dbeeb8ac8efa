package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/rivo/uniseg"
)

// inputScreen asks for one or more lines of text at the bottom of the screen
// under it: a note, an item id to go to, or the three parts of a missed claim.
// enter moves to the next part (or finishes), esc cancels.
type inputScreen struct {
	e       *env
	under   Child
	title   string
	prompts []string
	values  []string
	step    int
	ti      lineInput
	done    func(values []string) tea.Cmd
	hint    string
	w, h    int
}

func newInput(e *env, under Child, title string, prompts []string, initial string, done func([]string) tea.Cmd) *inputScreen {
	in := &inputScreen{e: e, under: under, title: title, prompts: prompts, done: done, w: e.w, h: e.h}
	in.ti.SetValue(initial)
	in.setPrompt()
	in.SetSize(e.w, e.h)
	return in
}

func (in *inputScreen) setPrompt() {
	in.ti.prompt = in.prompts[in.step] + ": "
	in.ti.width = max(1, in.w-textWidth(in.ti.prompt)-1)
}

func (in *inputScreen) SetSize(w, h int) {
	in.w, in.h = w, h
	in.under.SetSize(w, h)
	in.setPrompt()
}

func (in *inputScreen) Update(msg tea.Msg) (Child, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		// Answers to earlier commands still go to the screen underneath.
		if _, isPaste := msg.(tea.PasteMsg); !isPaste {
			var cmd tea.Cmd
			in.under, cmd = in.under.Update(msg)
			return in, cmd
		}
	}
	if ok {
		switch km.String() {
		case "esc", "ctrl+c":
			in.e.status = "Cancelled."
			return in.under, nil
		case "enter":
			v := strings.TrimSpace(in.ti.value())
			if v == "" && len(in.prompts) > 1 {
				in.hint = "Please fill in the " + in.prompts[in.step] + " (esc cancels)."
				return in, nil
			}
			in.values = append(in.values, v)
			if in.step+1 < len(in.prompts) {
				in.step++
				in.hint = ""
				in.ti.SetValue("")
				in.setPrompt()
				return in, nil
			}
			return in.under, in.done(in.values)
		}
	}
	in.ti.update(msg)
	return in, nil
}

// View draws the screen underneath with the input panel over its last lines.
func (in *inputScreen) View() string {
	st := in.e.styles
	panel := []string{
		st.Title.Render(truncate(in.title, in.w)),
		truncateStyled(in.ti.view(st), in.w),
	}
	hint := in.hint
	if hint == "" {
		hint = "enter ok · esc cancel"
		if len(in.prompts) > 1 {
			hint = "part " + itoa(in.step+1) + " of " + itoa(len(in.prompts)) + " · " + hint
		}
	}
	panel = append(panel, st.Dim.Render(truncate(hint, in.w)))
	under := strings.Split(in.under.View(), "\n")
	keep := max(0, in.h-len(panel)-1)
	if len(under) > keep {
		under = under[:keep]
	}
	rule := st.Rule.Render(strings.Repeat("─", in.w))
	return strings.Join(append(append(under, rule), panel...), "\n")
}

// newNoteInput edits the item's note (empty clears it); enter saves it
// through store.SetNote.
func newNoteInput(e *env, s *itemScreen) *inputScreen {
	item, field := s.d.ref.ItemID, s.guideField()
	return newInput(e, s, "Note on "+sanitizeLine(s.d.ref.ExtID)+" (empty to clear)", []string{"note"}, s.d.note,
		func(v []string) tea.Cmd {
			return setNoteCmd(e.store, e.annotator, item, field, v[0], e.session)
		})
}

// newGotoInput asks for an item id and opens that item.
func newGotoInput(e *env, under Child) *inputScreen {
	return newInput(e, under, "Go to item", []string{"item id"}, "", func(v []string) tea.Cmd {
		if v[0] == "" {
			return nil
		}
		return gotoCmd(e.store, e.annotator, v[0])
	})
}

// newAddClaimInput asks for the subject, predicate and object of a claim the
// extractor missed.
func newAddClaimInput(e *env, s *itemScreen) *inputScreen {
	return newInput(e, s, "Add a missed claim to "+sanitizeLine(s.d.qa.ID), []string{"subject", "predicate", "object"}, "",
		func(v []string) tea.Cmd {
			return s.addClaim([3]string{v[0], v[1], v[2]})
		})
}

// lineInput is a one-line text editor: typing and pasting insert, left,
// right, home/ctrl+a, end/ctrl+e move, backspace and delete remove,
// ctrl+u clears to the start, ctrl+k to the end. What it shows is sanitised
// and scrolled horizontally to keep the cursor in view.
type lineInput struct {
	prompt string
	runes  []rune
	cur    int
	width  int
}

func (l *lineInput) SetValue(s string) {
	l.runes = []rune(strings.ReplaceAll(s, "\n", " "))
	l.cur = len(l.runes)
}

func (l *lineInput) value() string { return string(l.runes) }

func (l *lineInput) insert(s string) {
	var rs []rune
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			rs = append(rs, ' ')
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			// control characters are not text
		default:
			rs = append(rs, r)
		}
	}
	if len(l.runes)+len(rs) > 4000 {
		rs = rs[:max(0, 4000-len(l.runes))]
	}
	l.runes = append(l.runes[:l.cur], append(rs, l.runes[l.cur:]...)...)
	l.cur += len(rs)
}

func (l *lineInput) update(msg tea.Msg) {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		l.insert(msg.Content)
	case tea.KeyPressMsg:
		switch msg.String() {
		case "left", "ctrl+b":
			l.cur = max(0, l.cur-1)
		case "right", "ctrl+f":
			l.cur = min(len(l.runes), l.cur+1)
		case "home", "ctrl+a":
			l.cur = 0
		case "end", "ctrl+e":
			l.cur = len(l.runes)
		case "backspace", "ctrl+h":
			if l.cur > 0 {
				l.runes = append(l.runes[:l.cur-1], l.runes[l.cur:]...)
				l.cur--
			}
		case "delete", "ctrl+d":
			if l.cur < len(l.runes) {
				l.runes = append(l.runes[:l.cur], l.runes[l.cur+1:]...)
			}
		case "ctrl+u":
			l.runes = l.runes[l.cur:]
			l.cur = 0
		case "ctrl+k":
			l.runes = l.runes[:l.cur]
		default:
			if msg.Text != "" && msg.Mod&(tea.ModCtrl|tea.ModAlt) == 0 {
				l.insert(msg.Text)
			}
		}
	}
}

// view renders the prompt and the text around the cursor, the cursor shown
// in reverse video.
func (l *lineInput) view(st Styles) string {
	before := sanitizeLine(string(l.runes[:l.cur]))
	at := " "
	after := ""
	if l.cur < len(l.runes) {
		at = sanitizeLine(string(l.runes[l.cur]))
		after = sanitizeLine(string(l.runes[l.cur+1:]))
	}
	room := max(1, l.width-1)
	// Keep the end of the text before the cursor in view.
	for uniseg.StringWidth(before) > room-1 && before != "" {
		_, rest, _, _ := uniseg.FirstGraphemeClusterInString(before, -1)
		before = rest
	}
	after = truncate(after, max(0, room-uniseg.StringWidth(before)-1))
	return st.Label.Render(l.prompt) + before + st.Selected.Render(at) + after
}
