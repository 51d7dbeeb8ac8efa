package tui

import (
	"strings"

	"github.com/annotate-dev/annotate/store"
)

// The QA screen: the question, the answer (rationale dimmed), source,
// language and hop above the context pane; the field card below. Fields follow
// the label schema, asking only what applies (schema.NextField).

// qaTop is the fixed part above the pane.
func qaTop(st Styles, q store.QAPair, w int) []string {
	var out []string
	out = append(out, labelled(st, "Question", sanitize(q.Question), w, nil, nil)...)
	out = append(out, labelled(st, "Answer  ", sanitize(q.Answer), w, nil, nil)...)
	if strings.TrimSpace(q.Rationale) != "" {
		dim := st.Dim
		out = append(out, labelled(st, "Why     ", sanitize(q.Rationale), w, &dim, nil)...)
	}
	out = append(out, st.Dim.Render(truncate(qaMeta(q), w)))
	return out
}

// qaMeta is "GDPR · en · single-hop · 2 context units".
func qaMeta(q store.QAPair) string {
	parts := []string{}
	if q.Source != "" {
		parts = append(parts, sanitizeLine(q.Source))
	}
	if q.Language != "" {
		parts = append(parts, sanitizeLine(q.Language))
	}
	hop := q.Hop
	if hop == "" {
		hop = "single"
	}
	parts = append(parts, sanitizeLine(hop)+"-hop")
	parts = append(parts, plural(len(q.Contexts), "context unit"))
	return strings.Join(parts, " · ")
}

// qaPane is the pane's content: every context unit (and the full question
// and answer first when they did not fit above).
func qaPane(st Styles, q store.QAPair, w int, full bool) []string {
	var out []string
	if full {
		out = append(out, qaTop(st, q, w)...)
		out = append(out, "")
	}
	return append(out, contextLines(st, q.Contexts, w, nil)...)
}
