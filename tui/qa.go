package tui

import (
	"github.com/annotate-dev/annotate/store"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// The QA screen: the question, the answer (rationale dimmed), source,
// language and hop above the context pane; the field card below. Fields follow
// the label schema, asking only what applies (schema.NextField).

// qaPane is the pane's content: every context unit (and the full question
// and answer first when they did not fit above).
func qaPane(st ui.Styles, q store.QAPair, w int, full bool) []string {
	var out []string
	if full {
		out = append(out, ui.QATop(st, q, w)...)
		out = append(out, "")
	}
	return append(out, ui.ContextLines(st, q.Contexts, w, nil)...)
}
