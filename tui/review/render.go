package review

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui"
)

// frame is one screen's parts, laid out by paneState.render to exactly the
// terminal's size: the header, the item (cut to two fifths of the room,
// the rest continued in the pane), the fixed middle (labels), the context
// pane taking what is left, the card and the bottom lines.
type frame struct {
	header    string
	top       []string
	mid       []string
	paneTitle string
	pane      func(w int, full bool) []string
	paneKey   string // changes when the pane's content does
	card      []string
	bottom    []string
}

// paneState is a screen's context pane and whether it has the focus.
type paneState struct {
	pane  tui.Pane
	focus bool
	key   string
}

// reset scrolls back to the top, for a new item.
func (p *paneState) reset() { p.pane.Top(); p.key = "" }

// scrollKey handles the pane's keys: tab toggles the focus (esc leaves it),
// the arrows scroll while it has the focus, pgup/pgdn always.
func (p *paneState) scrollKey(k KeyMap, msg tea.KeyPressMsg) bool {
	switch {
	case keyIs(msg, k.Focus):
		p.focus = !p.focus
	case p.focus && keyIs(msg, k.Back):
		p.focus = false
	case p.focus && keyIs(msg, k.Up):
		p.pane.Scroll(-1)
	case p.focus && keyIs(msg, k.Down):
		p.pane.Scroll(1)
	case keyIs(msg, k.PageUp):
		p.pane.Page(-1)
	case keyIs(msg, k.PageDown):
		p.pane.Page(1)
	default:
		return false
	}
	return true
}

func (p *paneState) render(st tui.Styles, f frame, w, h int) string {
	card, bottom := f.card, f.bottom
	if len(bottom) > h-1 {
		bottom = bottom[:max(0, h-1)]
	}
	if len(card) > h-1-len(bottom) {
		card = card[:max(0, h-1-len(bottom))]
	}
	avail := max(0, h-1-len(card)-len(bottom))
	mid := f.mid
	if room := max(0, avail-2); len(mid) > room {
		mid = mid[:room]
		if room > 0 {
			mid[room-1] = st.Dim.Render(tui.Truncate("…", w))
		}
	}
	rest := avail - len(mid)
	top := f.top
	topMax := rest * 2 / 5
	switch {
	case f.pane == nil:
		topMax = rest // nothing to continue in
	case rest < 3:
		topMax = 0
	}
	full := false
	if len(top) > topMax {
		full = true
		top = append([]string(nil), top[:topMax]...)
		if topMax > 0 {
			top[topMax-1] = st.Dim.Render(tui.Truncate("… continued in the pane below (tab to scroll)", w))
		}
	}
	paneH := rest - len(top)
	var pane []string
	if paneH >= 2 && f.pane != nil {
		key := f.paneKey + "/" + itoa(w) + "/" + boolStr(full)
		if key != p.key {
			p.key = key
			p.pane.SetLines(f.pane(w, full))
		}
		p.pane.SetHeight(paneH - 1)
		pane = append(pane, tui.PaneTitle(st, f.paneTitle, p.focus, p.pane.Percent(), p.pane.Scrollable(), w))
		pane = append(pane, p.pane.View()...)
	}
	for len(pane) < paneH {
		pane = append(pane, "")
	}
	lines := make([]string, 0, h)
	lines = append(lines, f.header)
	lines = append(lines, top...)
	lines = append(lines, mid...)
	lines = append(lines, pane...)
	lines = append(lines, card...)
	lines = append(lines, bottom...)
	return strings.Join(lines, "\n")
}

// header renders the header bar: the pieces on the left (the optional ones
// dropped from the end until they fit), right on the right.
func header(st tui.Styles, pieces []piece, right string, w int) string {
	r := ""
	if right != "" {
		r = " " + tui.SanitizeLine(right) + " "
		if ansi.StringWidth(r) > w/3 {
			r = ""
		}
	}
	leftW := max(0, w-ansi.StringWidth(r))
	ps := make([]piece, len(pieces))
	for i, p := range pieces {
		ps[i] = piece{tui.SanitizeLine(p.text), p.optional} // names come from data
	}
	l := " " + fit(ps, " · ", max(0, leftW-1))
	l = tui.TruncateStyled(l, leftW)
	pad := max(0, w-ansi.StringWidth(l)-ansi.StringWidth(r))
	return st.Header.Render(tui.TruncateStyled(l+strings.Repeat(" ", pad)+r, w))
}

// piece is a part of a header line; optional ones go first when space is short.
type piece struct {
	text     string
	optional bool
}

// fit drops pieces from ps (which it owns) until the line fits.
func fit(ps []piece, sep string, w int) string {
	for {
		var parts []string
		for _, p := range ps {
			if p.text != "" {
				parts = append(parts, p.text)
			}
		}
		line := strings.Join(parts, sep)
		if ansi.StringWidth(line) <= w {
			return line
		}
		dropped := false
		for i := len(ps) - 1; i >= 0 && !dropped; i-- {
			if ps[i].optional && ps[i].text != "" {
				ps[i].text, dropped = "", true
			}
		}
		if !dropped {
			return line
		}
	}
}

// itemTop is the item above the pane: a claim (with the pair it comes from),
// or a QA pair's question and answer.
func itemTop(st tui.Styles, d *store.ReviewDetail, w int) []string {
	if d.Kind != string(schema.KindClaim) {
		return tui.QATop(st, d.QA, w)
	}
	title := "Claim " + tui.SanitizeLine(d.ExtID) + " of " + tui.SanitizeLine(d.QA.ID)
	if d.Claim.Origin == store.OriginAnnotator {
		title += " (added by " + tui.SanitizeLine(d.Claim.AddedBy) + ")"
	}
	out := []string{st.Label.Render(tui.Truncate(title, w))}
	return append(out, tui.ClaimText(st, d.Claim, w)...)
}

// itemPane is the pane's content: for a claim, the answer it comes from
// (words shared with the claim highlighted) and the question; then every
// context unit. full puts the item first, when it did not fit above.
func itemPane(st tui.Styles, d *store.ReviewDetail, w int, full bool) []string {
	var out []string
	if full {
		out = append(out, itemTop(st, d, w)...)
		out = append(out, "")
	}
	if d.Kind == string(schema.KindClaim) {
		out = append(out, tui.HighlightedAnswer(st, d.QA.Answer, d.Claim, w)...)
		out = append(out, st.Dim.Render(tui.Truncate("Question: "+tui.SanitizeLine(d.QA.Question), w)), "")
		return append(out, tui.ContextLines(st, d.QA.Contexts, w, &d.Claim)...)
	}
	return append(out, tui.ContextLines(st, d.QA.Contexts, w, nil)...)
}

func paneTitleOf(d *store.ReviewDetail) string {
	if d.Kind == string(schema.KindClaim) {
		return "Answer and context"
	}
	if n := len(d.QA.Contexts); n > 1 {
		return "Context (" + itoa(n) + " units)"
	}
	return "Context"
}

// message renders a few wrapped lines (loading, errors, empty states) in
// the body of a screen.
func message(st tui.Styles, text string, w int, isErr bool) []string {
	var out []string
	for _, l := range tui.Wrap(tui.Sanitize(text), w) {
		if isErr {
			out = append(out, st.Error.Render(l))
		} else {
			out = append(out, st.Dim.Render(l))
		}
	}
	return out
}

// padRight pads a plain string with spaces to w cells (or cuts it).
func padRight(s string, w int) string {
	s = tui.Truncate(s, w)
	return s + strings.Repeat(" ", max(0, w-tui.TextWidth(s)))
}

func itoa(n int) string { return strconv.Itoa(n) }

func boolStr(b bool) string {
	if b {
		return "1"
	}
	return "0"
}
