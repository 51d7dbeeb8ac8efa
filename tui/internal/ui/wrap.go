package ui

import (
	"strings"

	"github.com/rivo/uniseg"
)

// Wrap breaks sanitised text into lines of at most width cells, at the line
// break opportunities of Unicode UAX #14 (uniseg), so French and English
// legal text breaks where a typesetter would: after spaces and hyphens, never
// inside "l’article" or before a closing guillemet. Hard newlines are kept.
// A segment wider than the line is cut between grapheme clusters.
func Wrap(s string, width int) []string {
	if width < 1 {
		width = 1
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		out = append(out, wrapPara(para, width)...)
	}
	return out
}

func wrapPara(s string, width int) []string {
	if s == "" {
		return []string{""}
	}
	var (
		out   []string
		line  strings.Builder
		lineW int
		state = -1
	)
	flush := func() {
		out = append(out, strings.TrimRight(line.String(), " "))
		line.Reset()
		lineW = 0
	}
	for len(s) > 0 {
		var seg string
		seg, s, _, state = uniseg.FirstLineSegmentInString(s, state)
		segW := uniseg.StringWidth(seg)
		body := strings.TrimRight(seg, " ")
		bodyW := uniseg.StringWidth(body)
		if lineW+bodyW <= width {
			line.WriteString(seg)
			lineW += segW
			continue
		}
		if lineW > 0 {
			flush()
		}
		if bodyW <= width {
			line.WriteString(seg)
			lineW = segW
			continue
		}
		// One segment longer than a line (a URL, a long identifier): cut it.
		for _, piece := range cutGraphemes(body, width) {
			if lineW > 0 {
				flush()
			}
			line.WriteString(piece)
			lineW = uniseg.StringWidth(piece)
		}
		line.WriteString(seg[len(body):])
		lineW += segW - bodyW
	}
	if line.Len() > 0 || len(out) == 0 {
		flush()
	}
	return out
}

// cutGraphemes splits s into pieces of at most width cells without splitting
// a grapheme cluster (a cluster wider than width gets a piece of its own).
func cutGraphemes(s string, width int) []string {
	var out []string
	var cur strings.Builder
	curW := 0
	state := -1
	for len(s) > 0 {
		var cl string
		var w int
		cl, s, w, state = uniseg.FirstGraphemeClusterInString(s, state)
		if curW+w > width && curW > 0 {
			out = append(out, cur.String())
			cur.Reset()
			curW = 0
		}
		cur.WriteString(cl)
		curW += w
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// Truncate cuts a plain (unstyled) line to width cells, ending with "…" when
// something was cut.
func Truncate(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if uniseg.StringWidth(s) <= width {
		return s
	}
	if width == 1 {
		return "…"
	}
	var b strings.Builder
	w := 0
	state := -1
	for len(s) > 0 {
		var cl string
		var cw int
		cl, s, cw, state = uniseg.FirstGraphemeClusterInString(s, state)
		if w+cw > width-1 {
			break
		}
		b.WriteString(cl)
		w += cw
	}
	return b.String() + "…"
}

// TextWidth is the display width of a plain string.
func TextWidth(s string) int { return uniseg.StringWidth(s) }
