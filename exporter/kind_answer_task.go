package exporter

import (
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Config "answers" of the CanLegalRAGBench answer side: answer tasks, with
// the query, the lead's review, the accepted gold answer with its
// citations, then the label set's own answer. Their native line
// {"kind":"answer_task"} imports back unchanged.

func init() {
	Register(answerTaskKind{})
}

// answerTaskKind publishes the answer tasks and their gold answers.
type answerTaskKind struct{}

func (answerTaskKind) FieldDocs() map[string]string {
	return map[string]string{
		schema.GoldAnswer:   "the label set's answer to the query (free text)",
		schema.Citations:    "the documents (ids) or citations the answer rests on, as written",
		schema.AnswerReview: "the lead's review of the answer (`accept`, `reject`)",
		schema.RejectReason: "why the lead rejected it; only for rejected answers",
	}
}

func (answerTaskKind) Kind() schema.Kind { return schema.KindAnswerTask }

func (answerTaskKind) Config() string { return "answers" }

func (answerTaskKind) lsTexts() []lsText { return []lsText{{"query", "Query"}} }

func (answerTaskKind) facts() cardFacts {
	return cardFacts{tasks: []string{"question-answering"}, taskIDs: []string{"open-domain-qa"},
		creators: []string{"expert-generated"}, protocol: protocolCanLegal, paper: &originCanLegal}
}

func (answerTaskKind) Columns() []Column { return answerTaskColumns }

func (answerTaskKind) Values(it *store.Item) []any {
	t := it.Payload.(*store.AnswerTask)
	q := t.Query
	return row{t.ID, t.QueryID, q.Text, q.Persona, q.Jurisdiction, orNull(t.Review), orNull(t.RejectReason), orNull(t.ReviewedBy), orNull(t.Gold), listOrNull(t.GoldCitations, t.Review == "accept" && t.GoldCitations != nil)}
}

func (answerTaskKind) Native(b []byte, it *store.Item) []byte {
	t := it.Payload.(*store.AnswerTask)
	b = append(b, `{"kind":"answer_task","id":`...)
	b = appendString(b, t.ID)
	b = append(b, `,"query":`...)
	b = appendString(b, t.QueryID)
	return append(b, '}', '\n')
}

var answerTaskColumns = []Column{
	{"id", TypeString, false, "answer task id (`<query id>/answer`)"},
	{"query_id", TypeString, false, "the query answered"},
	{"query", TypeString, false, "the query's text"},
	{"query_persona", TypeString, false, "who asks: `lay` or `professional`"},
	{"jurisdiction", TypeString, false, "province or territory of the query"},
	{"review", TypeString, true, "the lead's review: `accept` (the answer is gold) or `reject`; null when not reviewed"},
	{"review_reason", TypeString, true, "why it was rejected; null unless rejected"},
	{"reviewed_by", TypeString, true, "the lead who reviewed it; null when not reviewed"},
	{"gold_answer_accepted", TypeString, true, "the gold answer: the answer the lead accepted, as accepted; null unless accepted"},
	{"gold_citations", TypeStrings, true, "the accepted answer's citations (empty when its author gave none); null unless accepted, or when the acceptance recorded no citations"},
}
