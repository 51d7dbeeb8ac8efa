package review

import "charm.land/bubbles/v2/key"

// KeyMap is every key of the review screens. Screens match keys with
// key.Matches against it and the help bar is built from it, so a key and
// its help cannot disagree. Decision keys are those of the annotation TUI
// (DESIGN.md "TUI keys"): a lawyer who annotated adjudicates with the same
// fingers.
type KeyMap struct {
	Pick       key.Binding // 1…9: the n-th value of the field is the final label
	Yes, No    key.Binding // y/n on two-way fields; also answer a confirmation
	Prev, Next key.Binding // move between units or claims
	Skip       key.Binding // the next undecided unit
	Undo       key.Binding
	Accept     key.Binding // accept every agreement that is ready
	Flag, Note key.Binding
	Focus      key.Binding // tab: the context pane
	Up, Down   key.Binding
	PageUp     key.Binding
	PageDown   key.Binding
	Open       key.Binding // enter: open a cell of the system view
	Back       key.Binding // esc
	Expert     key.Binding // cycle whose labels the system view compares
	Mode       key.Binding // switch between adjudication and the system view
	Help       key.Binding
	Quit       key.Binding
}

// DefaultKeyMap returns the review keys.
func DefaultKeyMap() KeyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return KeyMap{
		Pick:     b([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1-9", "final label"),
		Yes:      b([]string{"y"}, "y", "yes"),
		No:       b([]string{"n"}, "n", "no"),
		Prev:     b([]string{"left", "h"}, "←", "previous"),
		Next:     b([]string{"right", "l"}, "→", "next"),
		Skip:     b([]string{"s"}, "s", "skip"),
		Undo:     b([]string{"u", "backspace"}, "u", "undo"),
		Accept:   b([]string{"A", "shift+a"}, "A", "accept agreements"),
		Flag:     b([]string{"f"}, "f", "flag"),
		Note:     b([]string{"m"}, "m", "note"),
		Focus:    b([]string{"tab"}, "tab", "context"),
		Up:       b([]string{"up", "k"}, "↑", "up"),
		Down:     b([]string{"down", "j"}, "↓", "down"),
		PageUp:   b([]string{"pgup"}, "pgup", "page up"),
		PageDown: b([]string{"pgdown", "space"}, "pgdn", "page down"),
		Open:     b([]string{"enter"}, "enter", "open"),
		Back:     b([]string{"esc"}, "esc", "back"),
		Expert:   b([]string{"e"}, "e", "expert"),
		Mode:     b([]string{"v"}, "v", "system view"),
		Help:     b([]string{"?"}, "?", "all keys"),
		Quit:     b([]string{"q", "ctrl+c"}, "q", "quit"),
	}
}

// with returns a copy of a binding with the help a screen needs.
func with(b key.Binding, k, desc string) key.Binding {
	b.SetHelp(k, desc)
	return b
}
