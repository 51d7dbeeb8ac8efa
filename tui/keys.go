package tui

import (
	"charm.land/bubbles/v2/key"
)

// KeyMap is every key of the TUI (DESIGN.md "TUI keys"). Screens match keys
// with key.Matches against it, and the help bar is generated from it, so a
// key and its help cannot disagree.
type KeyMap struct {
	Yes, No  key.Binding // two-way fields
	Pick     key.Binding // 1…9: the n-th option
	Accept   key.Binding // enter: the preselected option; none missed; start
	Add      key.Binding // a: add a missed claim
	Undo     key.Binding
	Skip     key.Binding
	Flag     key.Binding
	Note     key.Binding
	Help     key.Binding // ?: guidelines of the current field
	Focus    key.Binding // tab: focus the context pane
	Goto     key.Binding
	Quit     key.Binding // q, ctrl+c: back to home; quit from home
	Up, Down key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding
	Bottom   key.Binding
	Close    key.Binding // esc
}

// DefaultKeyMap returns the keys of DESIGN.md.
func DefaultKeyMap() KeyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return KeyMap{
		Yes:      b([]string{"y"}, "y", "yes"),
		No:       b([]string{"n"}, "n", "no"),
		Pick:     b([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1-9", "pick"),
		Accept:   b([]string{"enter"}, "enter", "accept"),
		Add:      b([]string{"a"}, "a", "add claim"),
		Undo:     b([]string{"u", "backspace"}, "u", "undo"),
		Skip:     b([]string{"s"}, "s", "skip"),
		Flag:     b([]string{"f"}, "f", "flag"),
		Note:     b([]string{"m"}, "m", "note"),
		Help:     b([]string{"?"}, "?", "guidelines"),
		Focus:    b([]string{"tab"}, "tab", "context"),
		Goto:     b([]string{"g"}, "g", "go to"),
		Quit:     b([]string{"q", "ctrl+c"}, "q", "home"),
		Up:       b([]string{"up", "k"}, "↑", "up"),
		Down:     b([]string{"down", "j"}, "↓", "down"),
		PageUp:   b([]string{"pgup"}, "pgup", "page up"),
		PageDown: b([]string{"pgdown", "space"}, "pgdn", "page down"),
		Top:      b([]string{"home"}, "home", "top"),
		Bottom:   b([]string{"end"}, "end", "bottom"),
		Close:    b([]string{"esc"}, "esc", "close"),
	}
}

// ShortHelp is the help bar of an annotation screen.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Yes, k.No, k.Pick, k.Accept, k.Undo, k.Skip, k.Flag, k.Note, k.Help, k.Focus, k.Goto, k.Quit}
}

// FullHelp groups every key by purpose.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Yes, k.No, k.Pick, k.Accept, k.Add},
		{k.Undo, k.Skip, k.Flag, k.Note, k.Goto},
		{k.Help, k.Focus, k.Up, k.Down, k.PageUp, k.PageDown},
		{k.Close, k.Quit},
	}
}

// with returns a copy of a binding with other help text (the bar says what a
// key does on the screen at hand, e.g. q "quit" on home).
func with(b key.Binding, k, desc string) key.Binding {
	b.SetHelp(k, desc)
	return b
}
