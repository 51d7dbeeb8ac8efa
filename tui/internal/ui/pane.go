package ui

import (
	"strings"
)

// PaneTitle draws the rule above the pane, with the scroll position; when
// the pane has the focus it says how to scroll.
func PaneTitle(st Styles, title string, focus bool, percent int, scrollable bool, w int) string {
	pos := ""
	if scrollable {
		pos = st.Lang.Sprintf("(%d%%) ", percent)
	}
	t := "─ " + title + " " + pos
	if focus {
		t = "▶ " + title + " " + pos
		t = Truncate(t+st.Lang.Sprintf("— ↑↓ pgup pgdn home end scroll, tab/esc leave "), w)
		return st.Focus.Render(t + strings.Repeat(" ", max(0, w-TextWidth(t))))
	}
	t = Truncate(t, w)
	return st.Rule.Render(t + strings.Repeat("─", max(0, w-TextWidth(t))))
}

// Pane is a scrollable list of rendered lines (the context pane).
type Pane struct {
	lines  []string
	off    int
	height int
}

func (p *Pane) SetLines(lines []string) { p.lines = lines; p.clamp() }
func (p *Pane) SetHeight(h int)         { p.height = max(0, h); p.clamp() }
func (p *Pane) maxOff() int             { return max(0, len(p.lines)-p.height) }
func (p *Pane) clamp()                  { p.off = min(max(p.off, 0), p.maxOff()) }
func (p *Pane) Scroll(n int)            { p.off += n; p.clamp() }
func (p *Pane) Page(n int)              { p.Scroll(n * max(1, p.height-1)) }
func (p *Pane) Top()                    { p.off = 0 }
func (p *Pane) Bottom()                 { p.off = p.maxOff() }
func (p *Pane) Scrollable() bool        { return len(p.lines) > p.height }

// Offset is the index of the first line shown.
func (p *Pane) Offset() int { return p.off }

// Percent is how far down the pane is scrolled.
func (p *Pane) Percent() int {
	if p.maxOff() == 0 {
		return 100
	}
	return p.off * 100 / p.maxOff()
}

// View returns exactly the pane's height in lines.
func (p *Pane) View() []string {
	out := make([]string, 0, p.height)
	for i := p.off; i < len(p.lines) && len(out) < p.height; i++ {
		out = append(out, p.lines[i])
	}
	for len(out) < p.height {
		out = append(out, "")
	}
	return out
}
