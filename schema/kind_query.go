package schema

// The query kind of CanLegalRAGBench (§3): a legal question asked by a lay
// person or a professional in a province; a seed query, written from one
// case, and its 8 variations share a seed group. The expert says whether the
// query is valid.

// KindQuery is a legal question of a retrieval benchmark.
const KindQuery Kind = "query"

// QueryValidity is the query kind's field.
const QueryValidity = "query_validity"

func init() {
	Register(Spec{
		Kind: KindQuery, Order: 30, Title: "Queries", Noun: "query", Annotated: true,
		Fields: []Field{
			{Name: QueryValidity, Values: []string{"valid", "invalid"}, TwoWay: true},
		},
	})
}
