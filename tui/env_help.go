package tui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// helpBar renders the key help of a screen from KeyMap bindings: on two
// lines when the terminal has room for them, else on one.
func (e *env) helpBar(b []key.Binding, w int) []string {
	lines := 2
	if e.h < 16 {
		lines = 1
	}
	return ui.HelpBar(&e.help, b, w, lines)
}

// fullHelp renders every key of the annotation screens in columns.
func (e *env) fullHelp(w int) string {
	return strings.Join(ui.FullHelp(&e.help, e.keys.AnnotateHelp(), w), "\n")
}

// statusLine is the line above the help bar: an error (kept until the next
// successful action) or the keys the full type-ahead queue refused, else a
// status, else what the screen waits for (a save, the database, the keys
// typed ahead).
func (e *env) statusLine(w int, saving, slow bool) string {
	err := e.err
	if err == "" {
		err = e.refusedLine()
	}
	return ui.StatusLine(e.styles, err, e.status, e.waitingLine(saving, slow), w)
}

func itoa(n int) string { return strconv.Itoa(n) }
