package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/internal/lang"
)

// KeyMap is every key of every screen, the annotation screens (docs/keys.md) and the lead's review screens alike: a lawyer who annotated
// adjudicates with the same fingers. Screens match keys with Is against it
// and the help is generated from it, so a key and its help cannot disagree;
// a screen that gives a key another meaning says so with With.
type KeyMap struct {
	Yes, No key.Binding // two-way fields
	Pick    key.Binding // 1…9: the n-th option
	Accept  key.Binding // enter: the preselected option; none missed; start; open
	Add     key.Binding // a: add a missed claim
	Undo    key.Binding
	Skip    key.Binding
	Flag    key.Binding
	Note    key.Binding
	Help    key.Binding // ?: guidelines of the current field (review: every key)
	Focus   key.Binding // tab: focus the context pane
	Goto    key.Binding
	// Search: find text in the queue's items (in a relevance document, /
	// searches the document and ctrl+f the queue); SearchNext and
	// SearchPrev go to the next and previous match, wrapping round (not n
	// and N: n is "no" on every two-way field); Filter picks a filter.
	Search, SearchNext, SearchPrev key.Binding
	Filter                         key.Binding
	Quit                           key.Binding // q, ctrl+c: back to home; quit from home
	Interrupt                      key.Binding // ctrl+c alone: leaves whatever waits (an input, keys typed ahead)
	Up, Down                       key.Binding
	PageUp                         key.Binding
	PageDown                       key.Binding
	Top                            key.Binding
	Bottom                         key.Binding
	Close                          key.Binding // esc
	Prev                           key.Binding // review: the previous unit or claim
	Next                           key.Binding // review: the next one
	AcceptAll                      key.Binding // review: accept every agreement that is ready
	// AcceptSingle: review, accept the agreements and the lone labels of
	// single-label units that are ready.
	AcceptSingle key.Binding
	Expert       key.Binding // review: cycle whose labels the system view compares
	Mode         key.Binding // review: adjudication or the system view
	Refresh      key.Binding // r: read again now (dashboard)
	// The answer review: y or 1 accepts a gold answer, n or 2 rejects it.
	AcceptAnswer, RejectAnswer key.Binding
	Check                      key.Binding // space: check an option of a checklist step

	// The relevance screen's document.
	DocSearch key.Binding // /: find text in the document (ctrl+f: the queue)
	NextMatch key.Binding // n (while the document has the focus)
	PrevMatch key.Binding // N
	Chunk     key.Binding // c: the next retrieved passage
	Grade     key.Binding // 0-2: a graded pool's grade

	// The answer screen, where letters and digits are text: its keys are
	// control keys.
	Submit    key.Binding // ctrl+s
	NextFocus key.Binding // tab: answer, citations, document
	PrevFocus key.Binding // shift+tab
	Leave     key.Binding // esc, ctrl+c: home, the draft kept
	Later     key.Binding // ctrl+n: the next task, the draft kept
	Guide     key.Binding // f1: the guidelines of the focused editor
	Paste     key.Binding // ctrl+v (when the terminal cannot paste itself)
	// Inside an editor: its own undo and redo of typing.
	UndoTyping, RedoTyping key.Binding
	Recall                 key.Binding // ↑ in a one-line input: the previous entry (the last search)

	// lang is the language of the keys' help (the groups' own wording).
	lang *lang.Printer
}

// DefaultKeyMap returns the default keys, their help in English.
func DefaultKeyMap() KeyMap { return KeyMapIn(nil) }

// KeyMapIn returns the default keys, their help in a language (the keys
// are the same in every language). ctrl+j is enter too: a key typed
// before the terminal is in raw mode (while the program starts) went through
// the tty's line discipline, which turns the enter key's CR into LF (^J).
func KeyMapIn(l *lang.Printer) KeyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return KeyMap{lang: l,
		Yes:          b([]string{"y"}, "y", l.Sprintf("yes")),
		No:           b([]string{"n"}, "n", l.Sprintf("no")),
		Pick:         b([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1-9", l.Sprintf("pick")),
		Accept:       b([]string{"enter", "ctrl+j"}, "enter", l.Sprintf("accept")),
		Add:          b([]string{"a"}, "a", l.Sprintf("add claim")),
		Undo:         b([]string{"u", "backspace"}, "u", l.Sprintf("undo")),
		Skip:         b([]string{"s"}, "s", l.Sprintf("skip")),
		Flag:         b([]string{"f"}, "f", l.Sprintf("flag")),
		Note:         b([]string{"m"}, "m", l.Sprintf("note")),
		Help:         b([]string{"?"}, "?", l.Sprintf("guidelines")),
		Focus:        b([]string{"tab"}, "tab", l.Sprintf("context")),
		Goto:         b([]string{"g"}, "g", l.Sprintf("go to")),
		Search:       b([]string{"/", "ctrl+f"}, "/", l.Sprintf("search")),
		SearchNext:   b([]string{"ctrl+n"}, "ctrl+n", l.Sprintf("next match")),
		SearchPrev:   b([]string{"ctrl+p"}, "ctrl+p", l.Sprintf("previous match")),
		Filter:       b([]string{"F", "shift+f"}, "F", l.Sprintf("filter")),
		Quit:         b([]string{"q", "ctrl+c"}, "q", l.Sprintf("home")),
		Interrupt:    b([]string{"ctrl+c"}, "ctrl+c", l.Sprintf("quit")),
		Up:           b([]string{"up", "k"}, "↑", l.Sprintf("up")),
		Down:         b([]string{"down", "j"}, "↓", l.Sprintf("down")),
		PageUp:       b([]string{"pgup"}, "pgup", l.Sprintf("page up")),
		PageDown:     b([]string{"pgdown", "space"}, "pgdn", l.Sprintf("page down")),
		Top:          b([]string{"home"}, "home", l.Sprintf("top")),
		Bottom:       b([]string{"end"}, "end", l.Sprintf("bottom")),
		Close:        b([]string{"esc"}, "esc", l.Sprintf("close")),
		Prev:         b([]string{"left", "h"}, "←", l.Sprintf("previous")),
		Next:         b([]string{"right", "l"}, "→", l.Sprintf("next")),
		AcceptAll:    b([]string{"A", "shift+a"}, "A", l.Sprintf("accept agreements")),
		AcceptSingle: b([]string{"S", "shift+s"}, "S", l.Sprintf("accept single labels")),
		Expert:       b([]string{"e"}, "e", l.Sprintf("expert")),
		Mode:         b([]string{"v"}, "v", l.Sprintf("system view")),
		Refresh:      b([]string{"r"}, "r", l.Sprintf("refresh")),
		AcceptAnswer: b([]string{"y", "1"}, "y/1", l.Sprintf("accept")),
		RejectAnswer: b([]string{"n", "2"}, "n/2", l.Sprintf("reject")),
		Check:        b([]string{"space"}, "space", l.Sprintf("check")),

		DocSearch: b([]string{"/"}, "/", l.Sprintf("search the document")),
		NextMatch: b([]string{"n"}, "n/N", l.Sprintf("next/prev match")),
		PrevMatch: b([]string{"N", "shift+n"}, "N", l.Sprintf("previous match")),
		Chunk:     b([]string{"c"}, "c", l.Sprintf("retrieved passage")),
		Grade:     b([]string{"0", "1", "2"}, "0-2", l.Sprintf("grade")),

		Submit:    b([]string{"ctrl+s"}, "ctrl+s", l.Sprintf("submit")),
		NextFocus: b([]string{"tab"}, "tab", l.Sprintf("next: answer, citations, document")),
		PrevFocus: b([]string{"shift+tab"}, "shift+tab", l.Sprintf("previous")),
		Leave:     b([]string{"esc", "ctrl+c"}, "esc", l.Sprintf("home (draft kept)")),
		Later:     b([]string{"ctrl+n"}, "ctrl+n", l.Sprintf("skip (draft kept)")),
		Guide:     b([]string{"f1"}, "f1", l.Sprintf("guidelines")),
		Paste:     b([]string{"ctrl+v"}, "ctrl+v", l.Sprintf("paste")),

		UndoTyping: b([]string{"ctrl+z"}, "ctrl+z", l.Sprintf("undo typing")),
		RedoTyping: b([]string{"ctrl+y"}, "ctrl+y", l.Sprintf("redo")),
		Recall:     b([]string{"up"}, "↑", l.Sprintf("the last one")),
	}
}

// AnnotateHelp groups the keys of the annotation screens by purpose.
func (k KeyMap) AnnotateHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Yes, k.No, k.Pick, k.Accept, k.Add},
		{k.Undo, k.Skip, k.Flag, k.Note, k.Goto, k.Search, With(k.SearchNext, "^n ^p", k.lang.Sprintf("next/prev match")), k.Filter},
		{k.Help, k.Focus, k.Up, k.Down, k.PageUp, k.PageDown},
		{k.Top, k.Bottom, k.Close, k.Quit},
	}
}

// ReviewHelp groups the keys of the review screens.
func (k KeyMap) ReviewHelp() [][]key.Binding {
	return [][]key.Binding{
		{With(k.Pick, "1-9", k.lang.Sprintf("final label")), k.Yes, k.No, k.AcceptAll, k.AcceptSingle, k.Undo},
		{k.Prev, k.Next, k.Skip, k.Flag, k.Note},
		{k.Focus, k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{With(k.Accept, "enter", k.lang.Sprintf("open")), With(k.Close, "esc", k.lang.Sprintf("back")), k.Expert, k.Mode, With(k.Quit, "q", k.lang.Sprintf("quit"))},
	}
}

// DashboardHelp groups the keys of the lead's dashboard and its details.
func (k KeyMap) DashboardHelp() [][]key.Binding {
	return [][]key.Binding{
		{With(k.Focus, "tab", k.lang.Sprintf("next panel")), With(k.PrevFocus, "shift+tab", k.lang.Sprintf("previous panel")), With(k.Up, "↑↓←→", k.lang.Sprintf("move between panels"))},
		{With(k.Accept, "enter", k.lang.Sprintf("open detail")), With(k.Close, "esc", k.lang.Sprintf("back")), k.Refresh, With(k.Quit, "q", k.lang.Sprintf("quit"))},
		{k.PageUp, k.PageDown, k.Top, k.Bottom},
	}
}

// ForReview is the key map with the help the review screens give some
// keys: a digit picks the final label, ? lists every key, q quits.
func (k KeyMap) ForReview() KeyMap {
	k.Pick = With(k.Pick, "1-9", k.lang.Sprintf("final label"))
	k.Help = With(k.Help, "?", k.lang.Sprintf("all keys"))
	k.Quit = With(k.Quit, "q", k.lang.Sprintf("quit"))
	return k
}

// Lang is the language of the keys' help: a screen that gives a key
// another meaning (With) says it in that language.
func (k KeyMap) Lang() *lang.Printer { return k.lang }

// With returns a copy of a binding with other help text (the bar says what a
// key does on the screen at hand, e.g. q "quit" on home), the description
// already said in the key map's language.
func With(b key.Binding, k, desc string) key.Binding {
	b.SetHelp(k, desc)
	return b
}

// Is reports whether a key press is one of the bindings.
func Is(msg tea.KeyPressMsg, b ...key.Binding) bool { return key.Matches(msg, b...) }
