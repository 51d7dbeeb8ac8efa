package ui

import (
	"strings"
	"sync"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/annotate-dev/annotate/internal/textsafe"
)

// Editor is a multi-line text editor (bubbles textarea) for text an expert
// writes, such as a gold answer: enter starts a new line, long lines wrap,
// the view scrolls to the cursor, ctrl+z undoes typing (word by word, a
// paste or a deletion at a time) and ctrl+y redoes it. Its text keeps
// newlines; typed or pasted control characters (but newlines), C1 controls
// and bidirectional formatting are dropped and tabs become spaces, so what
// it draws never carries a sequence from the clipboard or from data.
//
// As with Input, clipboard false disables ctrl+v (and copying a selection):
// under `annotate serve` the clipboard is the server's. A paste from the
// annotator's own terminal (bracketed paste) always works.
type Editor struct {
	ta         textarea.Model
	undo, redo []edit
	lastKind   editKind
}

// edit is the text and cursor an undo goes back to.
type edit struct {
	value     string
	line, col int
}

type editKind int

const (
	editNone editKind = iota
	editType
	editDelete
	editOther
)

// undoDepth bounds the undo history.
const undoDepth = 1000

// editorKeys are the key map whose undo and redo keys the editor takes
// (an editor is made without one), built on first use: the key map's help
// builds the language catalog, which a command without a screen (an
// import) has no use for.
var editorKeys = sync.OnceValue(DefaultKeyMap)

// NewEditor returns a focused editor.
func NewEditor(st Styles, clipboard bool, placeholder string) *Editor {
	e := &Editor{ta: textarea.New()}
	e.ta.ShowLineNumbers = false
	e.ta.Prompt = ""
	e.ta.CharLimit = 0
	e.ta.MaxHeight = 0 // as many lines as an answer needs
	e.ta.Placeholder = placeholder
	// enter typed before raw mode arrives as ^J (KeyMap.Accept).
	e.ta.KeyMap.InsertNewline.SetKeys("enter", "ctrl+m", "ctrl+j")
	e.ta.KeyMap.Paste.SetEnabled(clipboard)
	e.ta.KeyMap.CopySelection.SetEnabled(clipboard)
	e.SetStyles(st)
	e.ta.Focus()
	return e
}

// SetStyles draws the editor with the screens' styles (a steady cursor).
func (e *Editor) SetStyles(st Styles) {
	plain := lipgloss.NewStyle()
	state := textarea.StyleState{Base: plain, Text: plain, LineNumber: plain, CursorLineNumber: plain,
		CursorLine: plain, EndOfBuffer: plain, Placeholder: st.Dim, Prompt: st.Label, Selection: st.Selected}
	e.ta.SetStyles(textarea.Styles{Focused: state, Blurred: state, Cursor: textarea.CursorStyle{Blink: false}})
}

// CanPaste reports whether ctrl+v reads the local clipboard.
func (e *Editor) CanPaste() bool { return e.ta.KeyMap.Paste.Enabled() }

// SetSize fits the editor in w×h cells.
func (e *Editor) SetSize(w, h int) {
	e.ta.SetWidth(max(1, w))
	e.ta.SetHeight(max(1, h))
}

// Focus and Blur show or hide the cursor; a blurred editor takes no keys.
func (e *Editor) Focus()        { e.ta.Focus() }
func (e *Editor) Blur()         { e.ta.Blur() }
func (e *Editor) Focused() bool { return e.ta.Focused() }

// SetValue puts text from data (a draft, a submitted answer) in the
// editor, made inert; the cursor goes to its end and the history is cleared.
func (e *Editor) SetValue(s string) {
	e.ta.SetValue(cleanText(s))
	e.ta.MoveToEnd()
	e.undo, e.redo, e.lastKind = nil, nil, editNone
}

// Value is the text.
func (e *Editor) Value() string { return e.ta.Value() }

// Update edits the text with a key press or a paste; it reports whether
// the text changed.
func (e *Editor) Update(msg tea.Msg) (tea.Cmd, bool) {
	kind := editOther
	switch m := msg.(type) {
	case tea.PasteMsg:
		m.Content = cleanText(m.Content)
		msg = m
	case tea.KeyPressMsg:
		switch {
		case key.Matches(m, editorKeys().UndoTyping):
			return nil, e.step(&e.undo, &e.redo)
		case key.Matches(m, editorKeys().RedoTyping):
			return nil, e.step(&e.redo, &e.undo)
		case key.Matches(m, e.ta.KeyMap.DeleteCharacterBackward, e.ta.KeyMap.DeleteCharacterForward,
			e.ta.KeyMap.DeleteWordBackward, e.ta.KeyMap.DeleteWordForward, e.ta.KeyMap.DeleteAfterCursor, e.ta.KeyMap.DeleteBeforeCursor):
			kind = editDelete
		case m.Text != "":
			m.Text = cleanText(m.Text)
			msg = m
			kind = editType
		}
	}
	before := edit{e.ta.Value(), e.ta.Line(), e.ta.Column()}
	var cmd tea.Cmd
	e.ta, cmd = e.ta.Update(msg)
	after := e.ta.Value()
	if after == before.value {
		return cmd, false
	}
	if v := cleanText(after); v != after { // a clipboard paste: cleaned here
		e.ta.SetValue(v)
		after = v
	}
	// A new undo step: at each word of typing (a space or a newline starts
	// one), at a change between typing and deleting, at every paste.
	boundary := kind == editType && strings.ContainsAny(lastRune(after, before), " \n")
	if kind != e.lastKind || kind == editOther || boundary || len(e.undo) == 0 {
		e.undo = append(e.undo, before)
		if len(e.undo) > undoDepth {
			e.undo = e.undo[1:]
		}
	}
	e.lastKind = kind
	e.redo = nil
	return cmd, true
}

// lastRune is what a typing step added at the cursor, as a string.
func lastRune(after string, before edit) string {
	if len(after) <= len(before.value) {
		return ""
	}
	// The typed text is where the old and new values first differ.
	i := 0
	for i < len(before.value) && before.value[i] == after[i] {
		i++
	}
	r, _ := utf8.DecodeRuneInString(after[i:])
	return string(r)
}

// step moves one edit from one history to the other (undo or redo).
func (e *Editor) step(from, to *[]edit) bool {
	if len(*from) == 0 {
		return false
	}
	last := (*from)[len(*from)-1]
	*from = (*from)[:len(*from)-1]
	*to = append(*to, edit{e.ta.Value(), e.ta.Line(), e.ta.Column()})
	e.ta.SetValue(last.value)
	e.ta.MoveToEnd()
	for e.ta.Line() > last.line {
		e.ta.CursorUp()
	}
	e.ta.SetCursorColumn(last.col)
	e.lastKind = editNone
	return true
}

// View draws the editor.
func (e *Editor) View() string { return e.ta.View() }

// cleanText keeps what an expert may type in a text: letters, spaces,
// newlines; tabs become spaces; CR, other control characters, C1 controls,
// bidirectional formatting and invalid UTF-8 are dropped.
func cleanText(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return unsafeRune(r) || r == '\t' || r == '\r' || r == utf8.RuneError }) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size <= 1:
		case r == '\t':
			b.WriteByte(' ')
		case r == '\r':
			if i >= len(s) || s[i] != '\n' {
				b.WriteByte('\n')
			}
		case unsafeRune(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func unsafeRune(r rune) bool {
	return r != '\n' && (r < 0x20 || r == 0x7f) || textsafe.IsC1(r) || textsafe.IsBidiControl(r) || r == '\u2028' || r == '\u2029'
}

// SetGutter draws a mark of width w before each line of the text (line is
// the 0-based line of the text; soft-wrapped rows repeat it): the
// citations editor marks known and unknown citations.
func (e *Editor) SetGutter(w int, mark func(line int) string) {
	e.ta.SetPromptFunc(w, func(p textarea.PromptInfo) string { return mark(p.LineNumber) })
}

// Line is the 0-based line of the cursor.
func (e *Editor) Line() int { return e.ta.Line() }
