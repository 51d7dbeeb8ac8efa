package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// The mouse: the wheel scrolls what a screen scrolls, a click on an option
// of a card presses the option's key. The root model turns a click into
// that key press, so a click goes where a key goes (typed ahead while a
// save is on its way, ignored while the screen is hidden) and writes
// nothing a key would not.

// WheelLines is how many lines one notch of the wheel scrolls.
const WheelLines = 3

// WheelStep is the scroll of one wheel event: -WheelLines up, +WheelLines
// down, 0 for a sideways wheel.
func WheelStep(m tea.MouseWheelMsg) int {
	switch m.Button {
	case tea.MouseWheelUp:
		return -WheelLines
	case tea.MouseWheelDown:
		return WheelLines
	}
	return 0
}

// WheelKey is the key a list takes for a wheel event: up or down (a list
// scrolls by moving its cursor); ok is false for a sideways wheel.
func WheelKey(m tea.MouseWheelMsg) (tea.KeyPressMsg, bool) {
	switch m.Button {
	case tea.MouseWheelUp:
		return tea.KeyPressMsg{Code: tea.KeyUp}, true
	case tea.MouseWheelDown:
		return tea.KeyPressMsg{Code: tea.KeyDown}, true
	}
	return tea.KeyPressMsg{}, false
}

// Wheel scrolls the pane for a wheel event, whether or not it has the
// focus; it reports whether the pane moved.
func (p *PaneState) Wheel(m tea.MouseWheelMsg) bool {
	was := p.Pane.Offset()
	p.Pane.Scroll(WheelStep(m))
	return p.Pane.Offset() != was
}

// CardKeyAt is the key press of the option of the card drawn at column x
// of row y of the last Render (rows count from the top of the frame): an
// option is a "[k]" or "[k/d]" token of the card and the text after it up
// to the next token, and its key is k. Only keys among allowed count, so
// that text in brackets that is not an option is never a key.
func (p *PaneState) CardKeyAt(x, y int, allowed ...key.Binding) (tea.KeyPressMsg, bool) {
	i := y - p.cardTop
	if i < 0 || i >= len(p.card) {
		return tea.KeyPressMsg{}, false
	}
	return OptionKeyAt(ansi.Strip(p.card[i]), x, allowed...)
}

// OptionKeyAt is the key of the option at column x of a line of options
// (CardKeyAt).
func OptionKeyAt(line string, x int, allowed ...key.Binding) (tea.KeyPressMsg, bool) {
	type token struct {
		col  int
		name string
	}
	var toks []token
	col := 0
	for i := 0; i < len(line); {
		if line[i] == '[' {
			if end := strings.IndexByte(line[i:], ']'); end > 1 && end <= 12 && !strings.ContainsAny(line[i+1:i+end], " [") {
				name, _, _ := strings.Cut(line[i+1:i+end], "/")
				toks = append(toks, token{col, name})
			}
		}
		_, n := nextCluster(line[i:])
		col += Width(line[i : i+n])
		i += n
	}
	for k := len(toks) - 1; k >= 0; k-- {
		if x < toks[k].col {
			continue
		}
		msg := KeyPress(toks[k].name)
		if msg.Code == 0 || !Is(msg, allowed...) {
			return tea.KeyPressMsg{}, false
		}
		return msg, true
	}
	return tea.KeyPressMsg{}, false
}

// nextCluster is the first character of s and its length in bytes.
func nextCluster(s string) (string, int) {
	for n := 1; n <= len(s); n++ {
		if n == len(s) || s[n]&0xC0 != 0x80 {
			return s[:n], n
		}
	}
	return s, len(s)
}

// KeyPress is the key press of a key's name as the cards write it: "enter",
// "esc", "tab", "space" or one character. Code 0: not a key.
func KeyPress(name string) tea.KeyPressMsg {
	switch name {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	if r := []rune(name); len(r) == 1 {
		return tea.KeyPressMsg{Code: r[0], Text: name}
	}
	return tea.KeyPressMsg{}
}

// Wheeler is a screen that scrolls itself on the wheel (its pane); a
// screen that is not gets the wheel as up and down keys (WheelKey).
type Wheeler interface {
	Wheel(m tea.MouseWheelMsg) (Child, tea.Cmd)
}

// Clicker is a screen with options a click picks: Click is the key press
// of the option at (x, y), if there is one.
type Clicker interface {
	Click(x, y int) (tea.KeyPressMsg, bool)
}
