package ui

import "github.com/annotate-dev/annotate/store"

// What the annotation and the review screens both show of a relevance
// judgment's document.

// DocumentLines renders a document: a dim "¶ id · title · citation" line,
// then its text with the given words highlighted.
func DocumentLines(st Styles, doc *store.Document, words map[string]bool, w int) []string {
	head := "¶ " + SanitizeLine(doc.ID)
	for _, v := range []string{doc.Title, doc.Citation} {
		if v != "" {
			head += " · " + SanitizeLine(v)
		}
	}
	text := Data(doc.Text)
	return append([]string{st.Dim.Render(Truncate(head, w))}, WrapStyled(text, HighlightSpans(string(text), words, st.Highlight), w, nil)...)
}
