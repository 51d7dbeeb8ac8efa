package tui

import (
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// The QA screen: the question, the answer (rationale dimmed), source,
// language and hop above the context pane, every context unit in the pane;
// the field card below. Fields follow the label schema, asking only what
// applies (schema.NextField); the generated category is preselected.

func init() {
	registerKind(kindView{
		kind: schema.KindQA, label: "QA", queue: "QA pairs", noun: "QA",
		top: func(st ui.Styles, d *itemData, _ step, w int) []string { return ui.QATop(st, d.qa, w) },
		pane: func(st ui.Styles, d *itemData, _ step, w int) []string {
			return ui.ContextLines(st, d.qa.Contexts, w, nil)
		},
		paneTitle: func(d *itemData, _ step) string {
			if n := len(d.qa.Contexts); n > 1 {
				return "Context (" + itoa(n) + " units)"
			}
			return "Context"
		},
	})
}
