package tui

import (
	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// The QA screen: the question, the answer (rationale dimmed), source,
// language and hop above the context pane, every context unit in the pane;
// the field card below. Fields follow the label schema, asking only what
// applies (schema.NextField); the generated category is preselected.

func init() {
	prompts[schema.QuestionValidity] = lang.Key("Is the question valid? Does it make sense (domain) and is it understandable (linguistic)?")
	prompts[schema.InvalidReason] = lang.Key("Why is the question invalid?")
	prompts[schema.Category] = lang.Key("Which category is the question? The generated one is preselected: enter accepts it.")
	prompts[schema.Persona] = lang.Key("Who would ask this question?")
	prompts[schema.AnswerCorrectness] = lang.Key("Is the answer correct?")
	registerKind(kindView{
		kind: schema.KindQA, label: lang.Key("QA"), queue: lang.Key("QA pairs"), noun: lang.Key("QA"),
		top: func(st ui.Styles, d *itemData, _ step, w int) []string { return ui.QATop(st, d.qa, w) },
		pane: func(st ui.Styles, d *itemData, _ step, w int) []string {
			return ui.ContextLines(st, d.qa.Contexts, w, nil)
		},
		paneTitle: func(l *lang.Printer, d *itemData, _ step) string {
			if n := len(d.qa.Contexts); n > 1 {
				return l.Sprintf("Context (%d units)", n)
			}
			return l.Sprintf("Context")
		},
		load: func(d *itemData, v *store.ItemView) {
			d.qa = *v.Item.Payload.(*store.QAPair)
			for _, it := range v.Siblings {
				if _, ok := it.Payload.(*store.Claim); ok {
					d.claims = append(d.claims, it.ItemRef)
				}
			}
		},
		preselect: func(d *itemData) map[string]string {
			if v, ok := schema.Normalize(schema.Category, d.qa.Category); ok {
				return map[string]string{schema.Category: v}
			}
			return nil
		},
	})
}
