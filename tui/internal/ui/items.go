package ui

import (
	"strings"

	"github.com/annotate-dev/annotate/store"
)

// The renderings of an item's data that the annotation and the review
// screens share: a QA pair's question and answer, a claim's triple.

// QATop renders the question, the answer (rationale dimmed) and a meta line
// "GDPR · en · single-hop · 2 context units".
func QATop(st Styles, q store.QAPair, w int) []string {
	var out []string
	out = append(out, Labelled(st, "Question", Data(q.Question), w, nil, nil)...)
	out = append(out, Labelled(st, "Answer  ", Data(q.Answer), w, nil, nil)...)
	if strings.TrimSpace(q.Rationale) != "" {
		dim := st.Dim
		out = append(out, Labelled(st, "Why     ", Data(q.Rationale), w, &dim, nil)...)
	}
	out = append(out, st.Dim.Render(Truncate(qaMeta(q), w)))
	return out
}

func qaMeta(q store.QAPair) string {
	parts := []string{}
	if q.Source != "" {
		parts = append(parts, SanitizeLine(q.Source))
	}
	if q.Language != "" {
		parts = append(parts, SanitizeLine(q.Language))
	}
	hop := q.Hop
	if hop == "" {
		hop = "single"
	}
	parts = append(parts, SanitizeLine(hop)+"-hop")
	parts = append(parts, Plural(len(q.Contexts), "context unit"))
	return strings.Join(parts, " · ")
}

// HighlightedAnswer renders "Answer text" with the words it shares with a
// claim (words: SignificantWords of it) highlighted.
func HighlightedAnswer(st Styles, answer string, words map[string]bool, w int) []string {
	a := Data(answer)
	return Labelled(st, "Answer", a, w, nil, HighlightSpans(string(a), words, st.Highlight))
}
