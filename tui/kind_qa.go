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
	Register(qaKind{})
}

type qaKind struct{}

func (qaKind) Kind() schema.Kind { return schema.KindQA }

func (qaKind) Names() Names {
	return Names{Label: lang.Key("QA"), Queue: lang.Key("QA pairs"), Noun: lang.Key("QA")}
}

func (qaKind) Top(dr Drawing, w int) []string { return ui.QATop(dr.st, dr.d.qa, w) }

func (qaKind) Pane(dr Drawing, w int) []string {
	return ui.ContextLines(dr.st, dr.d.qa.Contexts, w, nil)
}

func (qaKind) PaneTitle(dr Drawing) string {
	l := dr.st.Lang
	if n := len(dr.d.qa.Contexts); n > 1 {
		return l.Sprintf("Context (%d units)", n)
	}
	return l.Sprintf("Context")
}

// load keeps the pair and its extracted claims (claimsNext).
func (qaKind) load(d *itemData, v *store.ItemView) {
	d.qa = *v.Item.Payload.(*store.QAPair)
	for _, it := range v.Siblings {
		if _, ok := it.Payload.(*store.Claim); ok {
			d.claims = append(d.claims, it.ItemRef)
		}
	}
}

// preselect: the generated category.
func (qaKind) preselect(d *itemData) map[string]string {
	if v, ok := schema.Normalize(schema.Category, d.qa.Category); ok {
		return map[string]string{schema.Category: v}
	}
	return nil
}
