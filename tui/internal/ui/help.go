package ui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
)

// HelpBar renders the key help of a screen from KeyMap bindings, on one
// line (bubbles/help drops what does not fit and ends with "…").
func HelpBar(h *help.Model, b []key.Binding, w int) []string {
	h.SetWidth(w)
	return []string{h.ShortHelpView(b)}
}

// FullHelp renders groups of keys in columns.
func FullHelp(h *help.Model, groups [][]key.Binding, w int) []string {
	h.SetWidth(w)
	return strings.Split(h.FullHelpView(groups), "\n")
}

// StatusLine is the line above the help bar: an error (kept until the next
// successful action), else a status, else what the screen waits for.
func StatusLine(st Styles, err, status, waiting string, w int) string {
	switch {
	case err != "":
		return st.Error.Render(Truncate("✗ "+SanitizeLine(err), w))
	case status != "":
		return st.Status.Render(Truncate(status, w))
	case waiting != "":
		return st.Dim.Render(Truncate(waiting, w))
	}
	return ""
}
