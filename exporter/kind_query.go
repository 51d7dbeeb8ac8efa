package exporter

import (
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Queries (CanLegalRAGBench): config "queries", native lines {"kind":"query"}.

// protocolCanLegal is the protocol of the relevance, answer and generated
// claim labels.
const protocolCanLegal = "the relevance, answer and claim judgments of CanLegalRAGBench (the paper cited below)"

// riskModelMade is the risk of the texts language models made: the
// questions of QA pairs, queries, generated answers.
const riskModelMade = "Questions, queries and answers made by language models carry those models' biases; the labels say which were judged valid, not that the rest is representative."

func init() {
	Register(queryKind{})
}

// queryKind publishes the queries.
type queryKind struct{}

func (queryKind) Kind() schema.Kind { return schema.KindQuery }

func (queryKind) Config() string { return "queries" }

func (queryKind) facts() cardFacts {
	return cardFacts{tasks: []string{"text-retrieval"}, creators: []string{"machine-generated"},
		protocol: protocolCanLegal, paper: &originCanLegal, risk: riskModelMade}
}

func (queryKind) Columns() []Column { return queryColumns }

func (queryKind) lsTexts() []lsText { return []lsText{{"text", "Query"}} }

func (queryKind) Values(it *store.Item) []any {
	q := it.Payload.(*store.Query)
	return row{q.ID, q.Source, q.Text, q.Persona, q.Jurisdiction, q.Issue, q.SeedDoc, q.SeedGroup}
}

func (queryKind) Native(b []byte, it *store.Item) []byte {
	q := it.Payload.(*store.Query)
	b = append(b, `{"kind":"query","id":`...)
	b = appendString(b, q.ID)
	b = appendFields(b, [2]string{"source", q.Source}, [2]string{"text", q.Text}, [2]string{"persona", q.Persona},
		[2]string{"jurisdiction", q.Jurisdiction}, [2]string{"issue", q.Issue}, [2]string{"seed_doc", q.SeedDoc},
		[2]string{"seed_group", q.SeedGroup})
	b, _ = appendExtra(b, q.Extra)
	return append(b, '}', '\n')
}

var queryColumns = []Column{
	{"id", TypeString, false, "query id"},
	{"source", TypeString, false, "dataset the query comes from (empty when none)"},
	{"text", TypeString, false, "the legal question"},
	{"query_persona", TypeString, false, "who asks it: `lay` or `professional` (empty when not recorded)"},
	{"jurisdiction", TypeString, false, "province or territory, e.g. ON, BC, AB"},
	{"issue", TypeString, false, "legal issue (empty when not recorded)"},
	{"seed_doc", TypeString, false, "id of the document the query was written from"},
	{"seed_group", TypeString, false, "the variations of one seed share it"},
}
