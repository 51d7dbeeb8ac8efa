package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
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
}

// DefaultKeyMap returns the default keys. ctrl+j is enter too: a key typed
// before the terminal is in raw mode (while the program starts) went through
// the tty's line discipline, which turns the enter key's CR into LF (^J).
func DefaultKeyMap() KeyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return KeyMap{
		Yes:          b([]string{"y"}, "y", "yes"),
		No:           b([]string{"n"}, "n", "no"),
		Pick:         b([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1-9", "pick"),
		Accept:       b([]string{"enter", "ctrl+j"}, "enter", "accept"),
		Add:          b([]string{"a"}, "a", "add claim"),
		Undo:         b([]string{"u", "backspace"}, "u", "undo"),
		Skip:         b([]string{"s"}, "s", "skip"),
		Flag:         b([]string{"f"}, "f", "flag"),
		Note:         b([]string{"m"}, "m", "note"),
		Help:         b([]string{"?"}, "?", "guidelines"),
		Focus:        b([]string{"tab"}, "tab", "context"),
		Goto:         b([]string{"g"}, "g", "go to"),
		Search:       b([]string{"/", "ctrl+f"}, "/", "search"),
		SearchNext:   b([]string{"ctrl+n"}, "ctrl+n", "next match"),
		SearchPrev:   b([]string{"ctrl+p"}, "ctrl+p", "previous match"),
		Filter:       b([]string{"F", "shift+f"}, "F", "filter"),
		Quit:         b([]string{"q", "ctrl+c"}, "q", "home"),
		Interrupt:    b([]string{"ctrl+c"}, "ctrl+c", "quit"),
		Up:           b([]string{"up", "k"}, "↑", "up"),
		Down:         b([]string{"down", "j"}, "↓", "down"),
		PageUp:       b([]string{"pgup"}, "pgup", "page up"),
		PageDown:     b([]string{"pgdown", "space"}, "pgdn", "page down"),
		Top:          b([]string{"home"}, "home", "top"),
		Bottom:       b([]string{"end"}, "end", "bottom"),
		Close:        b([]string{"esc"}, "esc", "close"),
		Prev:         b([]string{"left", "h"}, "←", "previous"),
		Next:         b([]string{"right", "l"}, "→", "next"),
		AcceptAll:    b([]string{"A", "shift+a"}, "A", "accept agreements"),
		AcceptSingle: b([]string{"S", "shift+s"}, "S", "accept single labels"),
		Expert:       b([]string{"e"}, "e", "expert"),
		Mode:         b([]string{"v"}, "v", "system view"),
		Refresh:      b([]string{"r"}, "r", "refresh"),
		AcceptAnswer: b([]string{"y", "1"}, "y/1", "accept"),
		RejectAnswer: b([]string{"n", "2"}, "n/2", "reject"),
		Check:        b([]string{"space"}, "space", "check"),

		DocSearch: b([]string{"/"}, "/", "search the document"),
		NextMatch: b([]string{"n"}, "n/N", "next/prev match"),
		PrevMatch: b([]string{"N", "shift+n"}, "N", "previous match"),
		Chunk:     b([]string{"c"}, "c", "retrieved passage"),
		Grade:     b([]string{"0", "1", "2"}, "0-2", "grade"),

		Submit:    b([]string{"ctrl+s"}, "ctrl+s", "submit"),
		NextFocus: b([]string{"tab"}, "tab", "next: answer, citations, document"),
		PrevFocus: b([]string{"shift+tab"}, "shift+tab", "previous"),
		Leave:     b([]string{"esc", "ctrl+c"}, "esc", "home (draft kept)"),
		Later:     b([]string{"ctrl+n"}, "ctrl+n", "skip (draft kept)"),
		Guide:     b([]string{"f1"}, "f1", "guidelines"),
		Paste:     b([]string{"ctrl+v"}, "ctrl+v", "paste"),

		UndoTyping: b([]string{"ctrl+z"}, "ctrl+z", "undo typing"),
		RedoTyping: b([]string{"ctrl+y"}, "ctrl+y", "redo"),
		Recall:     b([]string{"up"}, "↑", "the last one"),
	}
}

// AnnotateHelp groups the keys of the annotation screens by purpose.
func (k KeyMap) AnnotateHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Yes, k.No, k.Pick, k.Accept, k.Add},
		{k.Undo, k.Skip, k.Flag, k.Note, k.Goto, k.Search, With(k.SearchNext, "^n ^p", "next/prev match"), k.Filter},
		{k.Help, k.Focus, k.Up, k.Down, k.PageUp, k.PageDown},
		{k.Top, k.Bottom, k.Close, k.Quit},
	}
}

// ReviewHelp groups the keys of the review screens.
func (k KeyMap) ReviewHelp() [][]key.Binding {
	return [][]key.Binding{
		{With(k.Pick, "1-9", "final label"), k.Yes, k.No, k.AcceptAll, k.AcceptSingle, k.Undo},
		{k.Prev, k.Next, k.Skip, k.Flag, k.Note},
		{k.Focus, k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{With(k.Accept, "enter", "open"), With(k.Close, "esc", "back"), k.Expert, k.Mode, With(k.Quit, "q", "quit")},
	}
}

// DashboardHelp groups the keys of the lead's dashboard and its details.
func (k KeyMap) DashboardHelp() [][]key.Binding {
	return [][]key.Binding{
		{With(k.Focus, "tab", "next panel"), With(k.PrevFocus, "shift+tab", "previous panel"), With(k.Up, "↑↓←→", "move between panels")},
		{With(k.Accept, "enter", "open detail"), With(k.Close, "esc", "back"), k.Refresh, With(k.Quit, "q", "quit")},
		{k.PageUp, k.PageDown, k.Top, k.Bottom},
	}
}

// ForReview is the key map with the help the review screens give some
// keys: a digit picks the final label, ? lists every key, q quits.
func (k KeyMap) ForReview() KeyMap {
	k.Pick = With(k.Pick, "1-9", "final label")
	k.Help = With(k.Help, "?", "all keys")
	k.Quit = With(k.Quit, "q", "quit")
	return k
}

// With returns a copy of a binding with other help text (the bar says what a
// key does on the screen at hand, e.g. q "quit" on home).
func With(b key.Binding, k, desc string) key.Binding {
	b.SetHelp(k, desc)
	return b
}

// Is reports whether a key press is one of the bindings.
func Is(msg tea.KeyPressMsg, b ...key.Binding) bool { return key.Matches(msg, b...) }
