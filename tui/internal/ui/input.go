package ui

import (
	"strings"

	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// inputLimit caps what an input holds (a note, an id, a part of a claim).
const inputLimit = 4000

// Input is a text input: one line (bubbles textinput: an item id, a part of
// a claim) or a few wrapped lines (bubbles textarea: a note, which may be
// long). Its text is always one line of plain text: newlines and tabs typed
// or pasted become spaces, control and bidirectional formatting characters
// are dropped, and a value set from data is made inert first, so what the
// widget draws never carries a sequence from data.
//
// With clipboard false, ctrl+v (which reads the clipboard of the machine the
// program runs on) is disabled: under `annotate serve` that machine is the
// server, whose clipboard no session may read. A paste by the annotator's
// own terminal (bracketed paste) comes from their side and always works.
type Input struct {
	area bool
	line textinput.Model
	text textarea.Model
}

// NewInput returns a focused input; area makes it a wrapped text area.
func NewInput(st Styles, area, clipboard bool) *Input {
	in := &Input{area: area}
	if area {
		in.text = textarea.New()
		in.text.ShowLineNumbers = false
		in.text.Prompt = ""
		in.text.CharLimit = inputLimit
		in.text.KeyMap.InsertNewline.SetEnabled(false) // enter saves
		in.text.KeyMap.Paste.SetEnabled(clipboard)
		in.text.KeyMap.CopySelection.SetEnabled(clipboard)
		in.text.SetHeight(3)
		in.text.Focus()
	} else {
		in.line = textinput.New()
		in.line.CharLimit = inputLimit
		in.line.KeyMap.Paste.SetEnabled(clipboard)
		in.line.KeyMap.AcceptSuggestion.SetEnabled(false)
		in.line.KeyMap.NextSuggestion.SetEnabled(false)
		in.line.KeyMap.PrevSuggestion.SetEnabled(false)
		in.line.Focus()
	}
	in.SetStyles(st)
	return in
}

// SetStyles draws the input with the screens' styles: a steady cursor in
// reverse video (a blinking one would need a timer), no colours of its own.
func (in *Input) SetStyles(st Styles) {
	plain := lipgloss.NewStyle()
	if in.area {
		state := textarea.StyleState{Base: plain, Text: plain, LineNumber: plain, CursorLineNumber: plain,
			CursorLine: plain, EndOfBuffer: plain, Placeholder: st.Dim, Prompt: st.Label, Selection: st.Selected}
		in.text.SetStyles(textarea.Styles{Focused: state, Blurred: state, Cursor: textarea.CursorStyle{Blink: false}})
		return
	}
	state := textinput.StyleState{Text: plain, Placeholder: st.Dim, Suggestion: st.Dim, Prompt: st.Label}
	in.line.SetStyles(textinput.Styles{Focused: state, Blurred: state, Cursor: textinput.CursorStyle{Blink: false}})
}

// CanPaste reports whether ctrl+v reads the local clipboard.
func (in *Input) CanPaste() bool {
	if in.area {
		return in.text.KeyMap.Paste.Enabled()
	}
	return in.line.KeyMap.Paste.Enabled()
}

// SetPrompt sets the text before a one-line input.
func (in *Input) SetPrompt(p string) { in.line.Prompt = p }

// SetSize fits the input in w cells (and, for a text area, at most h lines).
func (in *Input) SetSize(w, h int) {
	if in.area {
		in.text.SetWidth(max(1, w))
		in.text.SetHeight(max(1, min(3, h)))
		return
	}
	in.line.SetWidth(max(1, w-TextWidth(in.line.Prompt)-1))
}

// SetValue puts text from data in the input, made inert.
func (in *Input) SetValue(s string) {
	s = strings.ReplaceAll(Sanitize(s), "\n", " ")
	if in.area {
		in.text.SetValue(s)
		in.text.MoveToEnd()
		return
	}
	in.line.SetValue(s)
	in.line.CursorEnd()
}

// Value is the text typed.
func (in *Input) Value() string {
	if in.area {
		return in.text.Value()
	}
	return in.line.Value()
}

// Update edits the text with a key press or a paste.
func (in *Input) Update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case tea.PasteMsg:
		m.Content = cleanInput(m.Content)
		msg = m
	case tea.KeyPressMsg:
		if m.Text != "" {
			m.Text = cleanInput(m.Text)
			msg = m
		}
	}
	var cmd tea.Cmd
	if in.area {
		in.text, cmd = in.text.Update(msg)
	} else {
		in.line, cmd = in.line.Update(msg)
	}
	return cmd
}

// View draws the input.
func (in *Input) View() string {
	if in.area {
		return in.text.View()
	}
	return in.line.View()
}
