package ui

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/lipgloss/v2"

	"github.com/annotate-dev/annotate/internal/textfold"
	"github.com/annotate-dev/annotate/store"
)

// The context pane: every context unit of the item, numbered when there are
// several (multi-hop), wrapped with UAX #14 line breaking. On the claim
// screen the words the claim shares with its context are highlighted,
// matched without regard to case or accents ("Données" matches "donnees").

// Span styles a byte range of a text.
type Span struct {
	Start, End int
	Style      lipgloss.Style
}

// WrapStyled wraps sanitised text to width and styles the spans on the
// wrapped lines. base styles the rest (nil: unstyled).
func WrapStyled(text Text, spans []Span, width int, base *lipgloss.Style) []string {
	lines, _ := WrapStyledAt(text, spans, width, base)
	return lines
}

// styleRange renders text[start:end] with the spans that overlap it.
func styleRange(text string, start, end int, spans []Span, si *int, base *lipgloss.Style) string {
	render := func(s string) string {
		if base == nil || s == "" {
			return s
		}
		return base.Render(s)
	}
	for *si < len(spans) && spans[*si].End <= start {
		*si++
	}
	var b strings.Builder
	cur := start
	for j := *si; j < len(spans) && spans[j].Start < end; j++ {
		sp := spans[j]
		a, z := max(sp.Start, start), min(sp.End, end)
		if a > cur {
			b.WriteString(render(text[cur:a]))
		}
		if z > a {
			b.WriteString(sp.Style.Render(text[a:z]))
		}
		cur = max(cur, z)
	}
	if cur < end {
		b.WriteString(render(text[cur:end]))
	}
	return b.String()
}

// fold is the one folding of the screens and the queue search (textfold).
func fold(s string) string { return textfold.Fold(s) }

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

// HighlightSpans finds the words of text that are in set.
func HighlightSpans(text string, set map[string]bool, st lipgloss.Style) []Span {
	if len(set) == 0 {
		return nil
	}
	var out []Span
	for _, w := range words(text) {
		if set[fold(text[w[0]:w[1]])] {
			out = append(out, Span{w[0], w[1], st})
		}
	}
	return out
}

// ContextLines renders the context units of a QA pair for the pane.
func ContextLines(st Styles, ctx []store.Context, w int, set map[string]bool) []string {
	var out []string
	if len(ctx) == 0 {
		return []string{st.Dim.Render(Truncate(st.Lang.Sprintf("(no context unit)"), w))}
	}
	for i, c := range ctx {
		if i > 0 {
			out = append(out, "")
		}
		title := "¶ " + SanitizeLine(c.ID)
		if len(ctx) > 1 {
			title = "¶ " + strconv.Itoa(i+1) + "/" + strconv.Itoa(len(ctx)) + " · " + SanitizeLine(c.ID)
		}
		out = append(out, st.Dim.Render(Truncate(title, w)))
		text := Data(c.Text)
		out = append(out, WrapStyled(text, HighlightSpans(string(text), set, st.Highlight), w, nil)...)
	}
	return out
}

// Labelled renders "Label  text" with the text wrapped under a hanging indent.
func Labelled(st Styles, label string, text Text, w int, textStyle *lipgloss.Style, spans []Span) []string {
	indent := TextWidth(label) + 1
	if w-indent < 12 {
		// Too narrow for a hanging indent: label on its own line.
		out := []string{st.Label.Render(Truncate(label, w))}
		return append(out, WrapStyled(text, spans, w, textStyle)...)
	}
	lines := WrapStyled(text, spans, w-indent, textStyle)
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
