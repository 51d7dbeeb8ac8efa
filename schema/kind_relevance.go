package schema

// The relevance kind of CanLegalRAGBench (§4.3): one (query, document) pair
// of a pool, the documents retrieval runs returned for a query. The expert
// says whether the document is relevant to the query and, when it is not,
// why (Table 3's case analysis: same topic but another legal issue, the
// parties' roles reversed, another procedural posture).
//
// Grades. The expert's judgment is binary (relevance); a graded judgment
// (TREC qrels with grades, or a pool cut with --graded) also records the
// grade as relevance_grade, a marker field holding the integer ("0", "1",
// "2", …): it is never asked field by field and never makes an item
// incomplete. nDCG takes the grade as the gain when there is one, else 1
// for relevant and 0 for not relevant. The grades are ordinal (0 < 1 < 2 …),
// so their agreement is measured with the ordinal statistics.

// KindRelevance is a (query, document) pair to judge.
const KindRelevance Kind = "relevance"

// Relevance field names.
const (
	Relevance         = "relevance"
	IrrelevanceReason = "irrelevance_reason"
	RelevanceGrade    = "relevance_grade"
)

// Values of the relevance field.
const (
	Relevant    = "relevant"
	NotRelevant = "not_relevant"
)

func init() {
	Register(Spec{
		Kind: KindRelevance, Order: 35, Title: "Relevance judgments", Noun: "relevance judgment", Annotated: true,
		Fields: []Field{
			{Name: Relevance, Values: []string{Relevant, NotRelevant}, TwoWay: true,
				Synonyms: map[string]string{"yes": Relevant, "no": NotRelevant, "irrelevant": NotRelevant, "non_relevant": NotRelevant}},
			{Name: IrrelevanceReason, Values: []string{"different_issue", "reversed_roles", "different_posture", "other"},
				AskedIf: []Cond{{Relevance, []string{NotRelevant}}}},
			{Name: RelevanceGrade, Values: []string{"0", "1", "2", "3", "4"}, Marker: true, Scale: Scale{Level: Ordinal}},
		},
	})
}
