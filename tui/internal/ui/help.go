package ui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
)

// HelpBar renders the key help of a screen from KeyMap bindings on at most
// maxLines lines of w cells: what does not fit on a line wraps to the next
// (never cutting a key from its description); what does not fit on the
// last line is left out and an ellipsis says so.
func HelpBar(h *help.Model, b []key.Binding, w, maxLines int) []string {
	st := h.Styles
	sep := st.ShortSeparator.Inline(true).Render(h.ShortSeparator)
	sepW := Width(sep)
	ellipsis := st.Ellipsis.Inline(true).Render(" …")
	var lines []string
	line, lineW := "", 0
	for _, kb := range b {
		if !kb.Enabled() {
			continue
		}
		item := st.ShortKey.Inline(true).Render(kb.Help().Key) + " " + st.ShortDesc.Inline(true).Render(kb.Help().Desc)
		itemW := Width(item)
		switch {
		case lineW == 0 && itemW <= w:
			line, lineW = item, itemW
			continue
		case lineW > 0 && lineW+sepW+itemW <= w:
			line, lineW = line+sep+item, lineW+sepW+itemW
			continue
		case len(lines)+1 < maxLines && itemW <= w:
			lines = append(lines, line)
			line, lineW = item, itemW
			continue
		}
		// Out of room.
		if lineW+Width(ellipsis) <= w {
			line += ellipsis
		}
		break
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, TruncateStyled(line, w))
	}
	return lines
}

// FullHelp renders groups of keys in columns.
func FullHelp(h *help.Model, groups [][]key.Binding, w int) []string {
	h.SetWidth(w)
	return strings.Split(h.FullHelpView(groups), "\n")
}

// StatusLine is the line above the help bar: an error (kept until the next
// successful action), else a status, else what the screen waits for. All
// three may name data (an id, a value, a key typed): they are made inert
// here, whatever their callers did (sanitising twice changes nothing).
func StatusLine(st Styles, err, status, waiting string, w int) string {
	switch {
	case err != "":
		return st.Error.Render(Truncate("✗ "+SanitizeLine(err), w))
	case status != "":
		return st.Status.Render(Truncate(SanitizeLine(status), w))
	case waiting != "":
		return st.Dim.Render(Truncate(SanitizeLine(waiting), w))
	}
	return ""
}
