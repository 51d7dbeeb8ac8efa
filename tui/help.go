package tui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
)

// helpBar renders one line of key help from KeyMap bindings (bubbles/help
// drops what does not fit and ends with "…").
func (e *env) helpBar(b []key.Binding, w int) string {
	e.help.SetWidth(w)
	return e.help.ShortHelpView(b)
}

// fullHelp renders every key in columns, for screens with room for it.
func (e *env) fullHelp(w int) string {
	e.help.SetWidth(w)
	return e.help.FullHelpView(e.keys.FullHelp())
}

// statusLine is the line above the help bar: an error (kept until the next
// successful action), else a status, else "saving…" while a write is in flight.
func (e *env) statusLine(w int, saving bool) string {
	st := e.styles
	switch {
	case e.err != "":
		return st.Error.Render(truncate("✗ "+sanitizeLine(e.err), w))
	case e.status != "":
		return st.Status.Render(truncate(e.status, w))
	case saving:
		return st.Dim.Render(truncate("saving…", w))
	}
	return ""
}

// plainBar draws a progress bar of n cells (unstyled: the lines it is on
// carry a style of their own).
func plainBar(done, total, n int) string {
	full := 0
	if total > 0 {
		full = min(n, done*n/total)
	}
	return strings.Repeat("█", full) + strings.Repeat("░", n-full)
}

func percent(done, total int) string {
	if total <= 0 {
		return "0%"
	}
	return strconv.Itoa(done*100/total) + "%"
}

func itoa(n int) string { return strconv.Itoa(n) }

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// fitPieces joins pieces with sep, dropping the optional ones (from the end
// of the list) until the line fits in w; the result may still need truncation.
type piece struct {
	text     string // already styled
	optional bool
}

func fitPieces(pieces []piece, sep string, w int) string {
	for {
		var parts []string
		for _, p := range pieces {
			if p.text != "" {
				parts = append(parts, p.text)
			}
		}
		line := strings.Join(parts, sep)
		if ansiWidth(line) <= w {
			return line
		}
		dropped := false
		for i := len(pieces) - 1; i >= 0; i-- {
			if pieces[i].optional && pieces[i].text != "" {
				pieces[i].text = ""
				dropped = true
				break
			}
		}
		if !dropped {
			return line
		}
	}
}

// truncateStyled cuts a styled line to w cells, ending with "…".
func truncateStyled(s string, w int) string {
	if ansiWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}
