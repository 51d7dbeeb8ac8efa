package exporter

import (
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Config "gen_answers": the systems' generated answers (CanLegalRAGBench
// §5). Their native line {"kind":"gen_answer"} imports back unchanged.

func init() {
	Register(genAnswerKind{})
}

// genAnswerKind publishes the generated answers.
type genAnswerKind struct{}

func (genAnswerKind) Kind() schema.Kind { return schema.KindGenAnswer }

func (genAnswerKind) Config() string { return "gen_answers" }

func (genAnswerKind) facts() cardFacts {
	return cardFacts{tasks: []string{"question-answering"}, creators: []string{"machine-generated"},
		paper: &originCanLegal, risk: riskModelMade}
}

func (genAnswerKind) Columns() []Column { return genAnswerColumns }

func (genAnswerKind) Values(it *store.Item) []any {
	a := it.Payload.(*store.GenAnswer)
	return row{a.ID, a.Query, a.System, a.Condition, a.Answer, nonNil(a.Documents)}
}

func (genAnswerKind) Native(b []byte, it *store.Item) []byte {
	a := it.Payload.(*store.GenAnswer)
	b = append(b, `{"kind":"gen_answer","id":`...)
	b = appendString(b, a.ID)
	b = appendFields(b, [2]string{"query", a.Query}, [2]string{"system", a.System}, [2]string{"condition", a.Condition},
		[2]string{"answer", a.Answer})
	b = append(b, `,"documents":`...)
	b = appendValue(b, nonNil(a.Documents))
	b, _ = appendExtra(b, a.Extra)
	return append(b, '}', '\n')
}

var genAnswerColumns = []Column{
	{"id", TypeString, false, "generated answer id"},
	{"query_id", TypeString, false, "the query it answers"},
	{"system", TypeString, false, "the system that generated it"},
	{"condition", TypeString, false, "`oracle` (from the gold documents) or `pipeline` (from what its retriever found)"},
	{"answer", TypeString, false, "the generated answer"},
	{"documents", TypeStrings, false, "ids of the documents the answer used"},
}
