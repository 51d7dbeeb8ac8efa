package ui

import (
	"strings"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/store"
)

// The renderings of an item's data that the annotation and the review
// screens share: a QA pair's question and answer, a claim's triple.

// QATop renders the question, the answer (rationale dimmed) and a meta line
// "GDPR · en · single-hop · 2 context units".
func QATop(st Styles, q store.QAPair, w int) []string {
	var out []string
	l := st.Lang
	labels := Aligned(l.Sprintf("Question"), l.Sprintf("Answer"), l.Sprintf("Why"))
	out = append(out, Labelled(st, labels[0], Data(q.Question), w, nil, nil)...)
	out = append(out, Labelled(st, labels[1], Data(q.Answer), w, nil, nil)...)
	if strings.TrimSpace(q.Rationale) != "" {
		dim := st.Dim
		out = append(out, Labelled(st, labels[2], Data(q.Rationale), w, &dim, nil)...)
	}
	out = append(out, st.Dim.Render(Truncate(qaMeta(l, q), w)))
	return out
}

// Aligned pads labels to the width of the widest, so that the texts after
// them start in one column whatever the language.
func Aligned(labels ...string) []string {
	w := 0
	for _, l := range labels {
		w = max(w, TextWidth(l))
	}
	out := make([]string, len(labels))
	for i, l := range labels {
		out[i] = PadRight(l, w)
	}
	return out
}

func qaMeta(l *lang.Printer, q store.QAPair) string {
	parts := []string{}
	if q.Source != "" {
		parts = append(parts, SanitizeLine(q.Source))
	}
	if q.Language != "" {
		parts = append(parts, SanitizeLine(q.Language))
	}
	switch hop := q.Hop; hop {
	case "", "single":
		parts = append(parts, l.Sprintf("single-hop"))
	case "multi":
		parts = append(parts, l.Sprintf("multi-hop"))
	default:
		parts = append(parts, SanitizeLine(hop)+"-hop")
	}
	parts = append(parts, l.Sprintf("%d context units", len(q.Contexts)))
	return strings.Join(parts, " · ")
}

// HighlightedAnswer renders "Answer text" with the words it shares with a
// claim (words: SignificantWords of it) highlighted.
func HighlightedAnswer(st Styles, answer string, words map[string]bool, w int) []string {
	a := Data(answer)
	return Labelled(st, st.Lang.Sprintf("Answer"), a, w, nil, HighlightSpans(string(a), words, st.Highlight))
}
