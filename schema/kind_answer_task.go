package schema

// The answer_task kind of CanLegalRAGBench (§3 step 6): a query a legal
// expert answers in free text, with the documents (or citations) the answer
// rests on; the lead then accepts or rejects the answer (the authors
// reviewed the answers and dropped those that missed the query). Only
// accepted answers are gold.

// KindAnswerTask is a query an expert answers.
const KindAnswerTask Kind = "answer_task"

// Answer task field names.
const (
	GoldAnswer   = "gold_answer"   // free text
	Citations    = "citations"     // several: document ids or citations, one per line
	AnswerReview = "answer_review" // the lead's: accept | reject
	RejectReason = "reject_reason" // the lead's, when rejected
)

func init() {
	Register(Spec{
		Kind: KindAnswerTask, Order: 50, Title: "Answer tasks", Noun: "answer task", Annotated: true,
		Fields: []Field{
			{Name: GoldAnswer},
			{Name: Citations, Multi: true},
			{Name: AnswerReview, Values: []string{"accept", "reject"}, TwoWay: true, Role: RoleLead,
				Synonyms: map[string]string{"accepted": "accept", "rejected": "reject"}},
			{Name: RejectReason, Values: []string{"off_target", "wrong_law", "incomplete", "other"}, Role: RoleLead,
				AskedIf: []Cond{{AnswerReview, []string{"reject"}}}},
		},
	})
}
