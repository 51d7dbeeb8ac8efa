package tui

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"golang.org/x/text/unicode/norm"

	"github.com/annotate-dev/annotate/store"
)

// The context pane: every context unit of the item, numbered when there are
// several (multi-hop), wrapped with UAX #14 line breaking. On the claim
// screen the words the claim shares with its context are highlighted,
// matched without regard to case or accents ("Données" matches "donnees").

// span styles a byte range of a text.
type span struct {
	start, end int
	st         lipgloss.Style
}

// wrapStyled wraps sanitised text to width and styles the spans on the
// wrapped lines. base styles the rest (nil: unstyled).
func wrapStyled(text string, spans []span, width int, base *lipgloss.Style) []string {
	lines := wrap(text, width)
	out := make([]string, 0, len(lines))
	pos := 0
	si := 0
	for _, line := range lines {
		// Each wrapped line is a substring of text at or after pos (the
		// wrapper only drops spaces at line ends and the newlines).
		start := pos
		if line != "" {
			if i := strings.Index(text[pos:], line); i >= 0 {
				start = pos + i
			}
		}
		end := start + len(line)
		out = append(out, styleRange(text, start, end, spans, &si, base))
		pos = end
	}
	return out
}

// styleRange renders text[start:end] with the spans that overlap it.
func styleRange(text string, start, end int, spans []span, si *int, base *lipgloss.Style) string {
	render := func(s string) string {
		if base == nil || s == "" {
			return s
		}
		return base.Render(s)
	}
	for *si < len(spans) && spans[*si].end <= start {
		*si++
	}
	var b strings.Builder
	cur := start
	for j := *si; j < len(spans) && spans[j].start < end; j++ {
		sp := spans[j]
		a, z := max(sp.start, start), min(sp.end, end)
		if a > cur {
			b.WriteString(render(text[cur:a]))
		}
		if z > a {
			b.WriteString(sp.st.Render(text[a:z]))
		}
		cur = max(cur, z)
	}
	if cur < end {
		b.WriteString(render(text[cur:end]))
	}
	return b.String()
}

// fold lowers and strips accents: "Données" -> "donnees", "cœur" -> "coeur".
func fold(s string) string {
	s = strings.ToLower(s)
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case r == 'œ':
			b.WriteString("oe")
		case r == 'æ':
			b.WriteString("ae")
		case r == 'ß':
			b.WriteString("ss")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// words lists the word spans of s: runs of letters, digits and combining
// marks (apostrophes and hyphens separate words, so "l'article" has "article").
func words(s string) [][2]int {
	var out [][2]int
	start := -1
	for i, r := range s {
		in := unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
		switch {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			out = append(out, [2]int{start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, [2]int{start, len(s)})
	}
	return out
}

// stopwords are not highlighted: they would light up every line.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`the and for are was were with that this from has have had not but its his her any all may
		shall which who whom such other under into than then there their them they been being also each per out upon within
		where when what whether these those only must can will would should could does did our your you one two its off
		les des une dans par pour sur aux est sont qui que quoi dont ces son ses leur leurs avec sans pas plus mais cette cet
		tout tous toute toutes etre ete fait peut doit entre lors ainsi comme elle elles ils lui nous vous meme autre autres
		celui celle ceux sous vers chez donc car non selon aussi tres peu ont avoir sera seront etait une`) {
		m[w] = true
	}
	return m
}()

// significant reports whether a folded word is worth highlighting.
func significant(f string) bool {
	if stopwords[f] {
		return false
	}
	if f != "" && unicode.IsDigit(rune(f[0])) {
		return true // article numbers matter in legal text
	}
	return utf8.RuneCountInString(f) >= 3
}

// claimWords is the set of folded significant words of a claim.
func claimWords(c store.Claim) map[string]bool {
	text := c.Text
	if c.IsTriplet() {
		text = strings.Join(c.Triplet[:], " ")
	}
	set := map[string]bool{}
	for _, w := range words(text) {
		if f := fold(text[w[0]:w[1]]); significant(f) {
			set[f] = true
		}
	}
	return set
}

// highlightSpans finds the words of text that are in set.
func highlightSpans(text string, set map[string]bool, st lipgloss.Style) []span {
	if len(set) == 0 {
		return nil
	}
	var out []span
	for _, w := range words(text) {
		if set[fold(text[w[0]:w[1]])] {
			out = append(out, span{w[0], w[1], st})
		}
	}
	return out
}

// contextLines renders the context units of a QA pair for the pane.
func contextLines(st Styles, ctx []store.Context, w int, set map[string]bool) []string {
	var out []string
	if len(ctx) == 0 {
		return []string{st.Dim.Render(truncate("(no context unit)", w))}
	}
	for i, c := range ctx {
		if i > 0 {
			out = append(out, "")
		}
		title := "¶ " + sanitizeLine(c.ID)
		if len(ctx) > 1 {
			title = "¶ " + itoa(i+1) + "/" + itoa(len(ctx)) + " · " + sanitizeLine(c.ID)
		}
		out = append(out, st.Dim.Render(truncate(title, w)))
		text := sanitize(c.Text)
		out = append(out, wrapStyled(text, highlightSpans(text, set, st.Highlight), w, nil)...)
	}
	return out
}

// labelled renders "Label  text" with the text wrapped under a hanging indent.
func labelled(st Styles, label, text string, w int, textStyle *lipgloss.Style, spans []span) []string {
	indent := textWidth(label) + 1
	if w-indent < 12 {
		// Too narrow for a hanging indent: label on its own line.
		out := []string{st.Label.Render(truncate(label, w))}
		return append(out, wrapStyled(text, spans, w, textStyle)...)
	}
	lines := wrapStyled(text, spans, w-indent, textStyle)
	out := make([]string, len(lines))
	pad := strings.Repeat(" ", indent)
	for i, l := range lines {
		if i == 0 {
			out[i] = st.Label.Render(label) + " " + l
		} else {
			out[i] = pad + l
		}
	}
	return out
}

// paneTitle draws the rule above the pane, with the scroll position; when
// the pane has the focus it says how to scroll.
func paneTitle(st Styles, title string, focus bool, percent int, scrollable bool, w int) string {
	t := "─ " + title + " "
	if scrollable {
		t += "(" + itoa(percent) + "%) "
	}
	if focus {
		t = "▶ " + title + " — ↑↓ pgup pgdn scroll, tab/esc leave "
		t = truncate(t, w)
		return st.Focus.Render(t + strings.Repeat(" ", max(0, w-textWidth(t))))
	}
	t = truncate(t, w)
	return st.Rule.Render(t + strings.Repeat("─", max(0, w-textWidth(t))))
}

func ansiWidth(s string) int { return ansi.StringWidth(s) }

// pane is a scrollable list of rendered lines (the context pane).
type pane struct {
	lines  []string
	off    int
	height int
}

func (p *pane) setLines(lines []string) { p.lines = lines; p.clamp() }
func (p *pane) setHeight(h int)         { p.height = max(0, h); p.clamp() }
func (p *pane) maxOff() int             { return max(0, len(p.lines)-p.height) }
func (p *pane) clamp()                  { p.off = min(max(p.off, 0), p.maxOff()) }
func (p *pane) scroll(n int)            { p.off += n; p.clamp() }
func (p *pane) page(n int)              { p.scroll(n * max(1, p.height-1)) }
func (p *pane) top()                    { p.off = 0 }
func (p *pane) bottom()                 { p.off = p.maxOff() }
func (p *pane) scrollable() bool        { return len(p.lines) > p.height }

// percent is how far down the pane is scrolled.
func (p *pane) percent() int {
	if p.maxOff() == 0 {
		return 100
	}
	return p.off * 100 / p.maxOff()
}

// view returns exactly height lines.
func (p *pane) view() []string {
	out := make([]string, 0, p.height)
	for i := p.off; i < len(p.lines) && len(out) < p.height; i++ {
		out = append(out, p.lines[i])
	}
	for len(out) < p.height {
		out = append(out, "")
	}
	return out
}
