package ui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Frame is one screen's parts, laid out by PaneState.Render to exactly the
// terminal's size: the header, the item (cut to two fifths of the room, the
// rest of it continued at the top of the pane, never shown twice), the
// fixed middle (e.g. each annotator's label), the context pane taking what
// is left, the card and the bottom lines (status and help).
type Frame struct {
	Header    string
	Top       []string
	Mid       []string
	PaneTitle string
	// Pane renders the pane's content at a width (under what is continued
	// of Top). nil: no pane.
	Pane    func(w int) []string
	PaneKey string // changes when the pane's content does
	Card    []string
	Bottom  []string
}

// PaneState is a screen's context pane and whether it has the focus.
type PaneState struct {
	Pane  Pane
	Focus bool
	key   string
	// Where the last Render drew the card (for a click: CardKeyAt).
	cardTop int
	card    []string
}

// Reset scrolls back to the top, for a new item.
func (p *PaneState) Reset() { p.Pane.Top(); p.key = "" }

// ScrollKey handles the pane's keys: tab toggles the focus (esc leaves it),
// the arrows, home and end scroll while it has the focus, pgup/pgdn
// always. It reports whether the key was the pane's.
func (p *PaneState) ScrollKey(k KeyMap, msg tea.KeyPressMsg) bool {
	switch {
	case Is(msg, k.Focus):
		p.Focus = !p.Focus
	case p.Focus && Is(msg, k.Close):
		p.Focus = false
	case p.Focus && Is(msg, k.Up):
		p.Pane.Scroll(-1)
	case p.Focus && Is(msg, k.Down):
		p.Pane.Scroll(1)
	case p.Focus && Is(msg, k.Top):
		p.Pane.Top()
	case p.Focus && Is(msg, k.Bottom):
		p.Pane.Bottom()
	case Is(msg, k.PageUp):
		p.Pane.Page(-1)
	case Is(msg, k.PageDown):
		p.Pane.Page(1)
	default:
		return false
	}
	return true
}

// Render lays the frame out in w×h.
func (p *PaneState) Render(st Styles, f Frame, w, h int) string {
	card, bottom := f.Card, f.Bottom
	if len(bottom) > h-1 {
		bottom = bottom[:max(0, h-1)]
	}
	if len(card) > h-1-len(bottom) {
		card = card[:max(0, h-1-len(bottom))]
	}
	avail := max(0, h-1-len(card)-len(bottom))
	mid := f.Mid
	if room := max(0, avail-2); len(mid) > room {
		mid = mid[:room]
		if room > 0 {
			mid[room-1] = st.Dim.Render(Truncate("…", w))
		}
	}
	rest := avail - len(mid)
	top := f.Top
	topMax := rest * 2 / 5
	switch {
	case f.Pane == nil:
		topMax = rest // nothing to continue in
	case rest < 3:
		topMax = 0
	}
	var continued []string // the lines of the item that go to the pane
	if len(top) > topMax {
		cut := max(0, topMax-1)
		continued = top[cut:]
		top = append([]string(nil), top[:cut]...)
		if topMax > 0 {
			top = append(top, st.Dim.Render(Truncate(st.Lang.Sprintf("… continued in the pane below (tab to scroll)"), w)))
		}
	}
	paneH := rest - len(top)
	var pane []string
	if paneH >= 2 && f.Pane != nil {
		key := f.PaneKey + "/" + strconv.Itoa(w) + "/" + strconv.Itoa(len(continued))
		if key != p.key {
			p.key = key
			lines := continued
			if len(lines) > 0 {
				lines = append(append([]string(nil), lines...), "")
			}
			p.Pane.SetLines(append(lines, f.Pane(w)...))
		}
		p.Pane.SetHeight(paneH - 1)
		pane = append(pane, PaneTitle(st, f.PaneTitle, p.Focus, p.Pane.Percent(), p.Pane.Scrollable(), w))
		pane = append(pane, p.Pane.View()...)
	}
	for len(pane) < paneH {
		pane = append(pane, "")
	}
	p.cardTop, p.card = 1+len(top)+len(mid)+len(pane), card
	lines := make([]string, 0, h)
	lines = append(lines, f.Header)
	lines = append(lines, top...)
	lines = append(lines, mid...)
	lines = append(lines, pane...)
	lines = append(lines, card...)
	lines = append(lines, bottom...)
	return strings.Join(lines, "\n")
}

// Header renders a header bar: the pieces on the left (the optional ones
// dropped from the end until they fit), right on the right (dropped when it
// would take more than a third of the line). Both are sanitised here.
func Header(st Styles, pieces []Piece, right string, w int) string {
	r := ""
	if right != "" {
		r = " " + SanitizeLine(right) + " "
		if Width(r) > w/3 {
			r = ""
		}
	}
	leftW := max(0, w-Width(r))
	ps := make([]Piece, len(pieces))
	for i, p := range pieces {
		ps[i] = Piece{SanitizeLine(p.Text), p.Optional} // names come from data
	}
	l := " " + FitPieces(ps, " · ", max(0, leftW-1))
	l = TruncateStyled(l, leftW)
	pad := max(0, w-Width(l)-Width(r))
	return st.Header.Render(TruncateStyled(l+strings.Repeat(" ", pad)+r, w))
}
