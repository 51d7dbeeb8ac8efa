package ui

import (
	"reflect"
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

	// The textarea's drawing is redone only when the editor changed (a
	// frame after every message would otherwise draw it anew, which costs
	// more than the rest of the answer screen): gen counts the changes,
	// drawn is the drawing of generation drawnGen with the gutter marks
	// it asked for. A pristine editor (nothing typed, nothing set) is drawn
	// as every pristine editor of its size, focus, styles and placeholder
	// is, so a new item's empty editors come from a drawing kept once
	// (pristineDrawings).
	gen       uint64
	drawn     string
	drawnGen  uint64
	marks     []gutterMark
	recording bool
	pristine  bool
	styleKey  string
	mark      func(line int) string // the gutter (nil: none)
	markW     int                   // the gutter's width
}

// gutterMark is a gutter mark a drawing asked for: the line and the mark.
type gutterMark struct {
	line int
	mark string
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

// Undo and redo keys of the editor (those of the key map: an editor is
// made without one).
var (
	UndoKey = DefaultKeyMap().UndoTyping
	RedoKey = DefaultKeyMap().RedoTyping
)

// NewEditor returns a focused editor.
func NewEditor(st Styles, clipboard bool, placeholder string) *Editor {
	e := &Editor{ta: textarea.New(), pristine: true}
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
	// What the drawing takes from st, for the drawings kept of pristine
	// editors: the placeholder's, prompt's and selection's attributes.
	e.styleKey = st.Dim.Render("x") + "\x00" + st.Label.Render("x") + "\x00" + st.Selected.Render("x")
	e.gen++
}

// CanPaste reports whether ctrl+v reads the local clipboard.
func (e *Editor) CanPaste() bool { return e.ta.KeyMap.Paste.Enabled() }

// SetSize fits the editor in w×h cells.
func (e *Editor) SetSize(w, h int) {
	w, h = max(1, w), max(1, h)
	if w == e.ta.Width() && h == e.ta.Height() {
		return // the screens size their editors at every frame
	}
	e.ta.SetWidth(w)
	e.ta.SetHeight(h)
	e.gen++
}

// Focus and Blur show or hide the cursor; a blurred editor takes no keys.
func (e *Editor) Focus()        { e.ta.Focus(); e.gen++ }
func (e *Editor) Blur()         { e.ta.Blur(); e.gen++ }
func (e *Editor) Focused() bool { return e.ta.Focused() }

// SetValue puts text from data (a draft, a submitted answer) in the
// editor, made inert; the cursor goes to its end and the history is cleared.
func (e *Editor) SetValue(s string) {
	s = cleanText(s)
	if s == "" && e.pristine {
		// Nothing to put in a new editor: it is empty already, and
		// emptying a textarea allocates its lines anew (240 kB).
		return
	}
	e.ta.SetValue(s)
	e.ta.MoveToEnd()
	e.undo, e.redo, e.lastKind = nil, nil, editNone
	e.gen++
	e.pristine = e.pristine && e.ta.Value() == ""
}

// Value is the text.
func (e *Editor) Value() string { return e.ta.Value() }

// Update edits the text with a key press or a paste; it reports whether
// the text changed.
func (e *Editor) Update(msg tea.Msg) (tea.Cmd, bool) {
	if !forTextarea(msg) {
		return nil, false
	}
	kind := editOther
	switch m := msg.(type) {
	case tea.PasteMsg:
		m.Content = cleanText(m.Content)
		msg = m
	case tea.KeyPressMsg:
		switch {
		case key.Matches(m, UndoKey):
			return nil, e.step(&e.undo, &e.redo)
		case key.Matches(m, RedoKey):
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
	// Any message may move the cursor, the scroll or a selection.
	e.gen++
	e.pristine = false
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

// forTextarea reports whether the textarea acts on msg: a key, a paste, a
// message of Bubble Tea's (the mouse, the terminal's focus) or one of its
// own commands' (a clipboard read, a cursor blink). The program's own
// messages (an item loaded, a count) it would only draw itself anew for,
// which costs more than the rest of the answer screen's frame: they pass it
// by.
func forTextarea(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		return true
	case nil:
		return false
	}
	t := reflect.TypeOf(msg)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	pkg := t.PkgPath()
	return strings.HasPrefix(pkg, "charm.land/bubbletea/") || strings.HasPrefix(pkg, "charm.land/bubbles/")
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
	e.gen++
	e.pristine = false
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

// View draws the editor: the drawing kept if nothing changed since it was
// made and the gutter marks it asked for are still the same.
func (e *Editor) View() string {
	if e.drawnGen == e.gen && e.drawn != "" && e.marksHold() {
		return e.drawn
	}
	var key pristineKey
	if e.pristine {
		key = pristineKey{e.ta.Placeholder, e.ta.Width(), e.ta.Height(), e.markW, e.ta.Focused(), e.styleKey}
		if d, ok := pristineDrawings.get(key); ok && e.keep(d.view, d.marks) {
			return d.view
		}
	}
	e.recording, e.marks = true, nil
	v := e.ta.View()
	e.recording = false
	e.keep(v, e.marks)
	if e.pristine {
		pristineDrawings.put(key, pristineDrawing{v, e.marks})
	}
	return v
}

// keep makes view the editor's drawing if the gutter marks it was drawn
// with are the editor's now; it reports whether they are.
func (e *Editor) keep(view string, marks []gutterMark) bool {
	e.drawn, e.drawnGen, e.marks = "", 0, marks
	if !e.marksHold() {
		return false
	}
	e.drawn, e.drawnGen = view, e.gen
	return true
}

// marksHold reports whether the gutter gives the marks the drawing kept
// asked for (the marks follow data the editor does not own: the
// citations found in the database).
func (e *Editor) marksHold() bool {
	for _, m := range e.marks {
		if e.mark == nil || e.mark(m.line) != m.mark {
			return false
		}
	}
	return true
}

// pristineKey is what the drawing of a pristine editor depends on.
type pristineKey struct {
	placeholder string
	w, h, markW int
	focused     bool
	styles      string
}

type pristineDrawing struct {
	view  string
	marks []gutterMark
}

// pristineDrawings are the drawings of pristine editors: one per editor of
// a screen, size and focus seen, shared by the sessions of annotate serve.
var pristineDrawings = keptDrawings{m: map[pristineKey]pristineDrawing{}}

// keptDrawingsMax bounds the drawings kept (a terminal resized through many
// sizes leaves one for each).
const keptDrawingsMax = 64

type keptDrawings struct {
	mu sync.Mutex
	m  map[pristineKey]pristineDrawing
}

func (k *keptDrawings) get(key pristineKey) (pristineDrawing, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	d, ok := k.m[key]
	return d, ok
}

func (k *keptDrawings) put(key pristineKey, d pristineDrawing) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.m) >= keptDrawingsMax {
		clear(k.m)
	}
	k.m[key] = d
}

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
	e.mark, e.markW = mark, w
	e.ta.SetPromptFunc(w, func(p textarea.PromptInfo) string {
		m := mark(p.LineNumber)
		if e.recording {
			e.marks = append(e.marks, gutterMark{p.LineNumber, m})
		}
		return m
	})
	e.gen++
}

// Line is the 0-based line of the cursor.
func (e *Editor) Line() int { return e.ta.Line() }
