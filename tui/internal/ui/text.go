// Package ui holds what every screen of annotate draws with, the annotation
// screens (package tui) and the review screens (package tui/adjudicate) alike:
// one KeyMap with the help generated from it, one Styles built from the
// terminal's background, the text helpers that keep data inert (Sanitize)
// and fitted (Wrap, Truncate), the scrollable context pane and the frame
// that lays a screen out, the help bar, the status line, the header bar,
// the text inputs, and the renderings of QA pairs and claims.
//
// Nothing here does I/O or knows about a store: widgets take values and
// return lines of at most the width they are given.
package ui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/annotate-dev/annotate/internal/lang"
)

// Child is a screen, an overlay or an input. Update returns the Child to
// show from now on (itself, another screen, or the screen under a closing
// overlay), so moving between screens is returning another Child.
type Child interface {
	Update(msg tea.Msg) (Child, tea.Cmd)
	View() string
	SetSize(w, h int)
}

// Width is the display width of a styled string.
func Width(s string) int { return ansi.StringWidth(s) }

// TruncateStyled cuts a styled line to w cells, ending with "…".
func TruncateStyled(s string, w int) string {
	if Width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// ClampView cuts a rendering to w×h cells: a last safety net, the screens
// lay themselves out to fit.
func ClampView(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		if len(l) > w && ansi.StringWidth(l) > w { // a line is never wider than its bytes
			lines[i] = ansi.Truncate(l, w, "")
		}
	}
	return strings.Join(lines, "\n")
}

// PadRight cuts or pads a plain string to exactly w cells.
func PadRight(s string, w int) string {
	s = Truncate(s, w)
	return s + strings.Repeat(" ", max(0, w-TextWidth(s)))
}

// PadLeft right-aligns a plain string in w cells (never cutting it).
func PadLeft(s string, w int) string {
	return strings.Repeat(" ", max(0, w-TextWidth(s))) + s
}

// Plural is "1 item", "3 items".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// Percent is done/total as a whole percentage ("0%" when total is 0), as
// the language writes it ("33 %" in French).
func Percent(l *lang.Printer, done, total int) string {
	if total <= 0 {
		return l.Sprintf("%d%%", 0)
	}
	return l.Sprintf("%d%%", done*100/total)
}

// Bar draws a progress bar of n cells (unstyled: the lines it is on carry
// a style of their own).
func Bar(done, total, n int) string {
	full := 0
	if total > 0 {
		// A count corrected a moment later (the screen's own, then the
		// store's) may be out of range meanwhile: the bar stays in its box.
		full = max(0, min(n, done*n/total))
	}
	n = max(0, n)
	return strings.Repeat("█", full) + strings.Repeat("░", n-full)
}

// Piece is a part of a header line; the optional ones are dropped first
// when the line is short of room.
type Piece struct {
	Text     string // already sanitised (and styled, if at all)
	Optional bool
}

// FitPieces joins pieces with sep, dropping the optional ones (from the end
// of the list) until the line fits in w; the result may still need
// truncation. It does not change pieces.
func FitPieces(pieces []Piece, sep string, w int) string {
	ps := append([]Piece(nil), pieces...)
	for {
		var parts []string
		for _, p := range ps {
			if p.Text != "" {
				parts = append(parts, p.Text)
			}
		}
		line := strings.Join(parts, sep)
		if Width(line) <= w {
			return line
		}
		dropped := false
		for i := len(ps) - 1; i >= 0 && !dropped; i-- {
			if ps[i].Optional && ps[i].Text != "" {
				ps[i].Text, dropped = "", true
			}
		}
		if !dropped {
			return line
		}
	}
}

// Message renders a few wrapped lines (loading, errors, empty states) in
// the body of a screen; text is sanitised here.
func Message(st Styles, text string, w int, isErr bool) []string {
	var out []string
	for _, l := range Wrap(Sanitize(text), w) {
		if isErr {
			out = append(out, st.Error.Render(l))
		} else {
			out = append(out, st.Dim.Render(l))
		}
	}
	return out
}

// NoticeMsg is a status the root model gives the screen it hosts (e.g.
// that keys were ignored while the terminal was too small): a screen with
// a status line of its own shows it there.
type NoticeMsg string

// Host is what the one root model (package tui) gives a screen it hosts
// from another package: the styles, made once from the terminal's
// background and colour settings (the root passes tea.BackgroundColorMsg
// and tea.EnvMsg on to the screen after it has restyled, so the screen
// asks again then), and the one key map.
type Host interface {
	Styles() Styles
	Keys() KeyMap
}
