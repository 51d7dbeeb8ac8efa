package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// Long documents on one screen (the relevance screen): wrapped lines that
// know where they start in the text, so a search match or a retrieved chunk
// can be scrolled to, and a search that ignores case and accents.

// WrapStyledAt is WrapStyled that also returns, for each line, the byte
// offset in text where it starts.
func WrapStyledAt(t Text, spans []Span, width int, base *lipgloss.Style) ([]string, []int) {
	text := string(t)
	lines := Wrap(text, width)
	out := make([]string, 0, len(lines))
	starts := make([]int, 0, len(lines))
	pos, si := 0, 0
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
		starts = append(starts, start)
		pos = end
	}
	return out, starts
}

// FoldIndex folds text as the highlighting does (lower case, accents
// stripped: "Données" -> "donnees") and maps each byte of the result back
// to the offset in text of the character it came from.
func FoldIndex(text string) (string, []int) {
	var b strings.Builder
	b.Grow(len(text))
	index := make([]int, 0, len(text))
	for i, r := range text {
		f := fold(string(r))
		b.WriteString(f)
		for range len(f) {
			index = append(index, i)
		}
	}
	return b.String(), index
}

// Fold is the folded form of a search term.
func Fold(s string) string { return fold(s) }

// SignificantWords is the set of folded words of a text worth highlighting
// elsewhere (a query's words in a document).
func SignificantWords(text string) map[string]bool {
	set := map[string]bool{}
	for _, w := range words(text) {
		if f := fold(text[w[0]:w[1]]); significant(f) {
			set[f] = true
		}
	}
	return set
}

// Len is the number of lines the pane holds.
func (p *Pane) Len() int { return len(p.lines) }
