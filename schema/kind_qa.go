package schema

// The QA pair kind of ClaimRAG-LAW (Appendix A): question validity (and why
// not), category, persona and answer correctness, and the answer-level marker
// the claim flow sets once the expert has looked for missed claims.

// KindQA is a generated question–answer pair.
const KindQA Kind = "qa"

// QA field names.
const (
	QuestionValidity    = "question_validity"
	InvalidReason       = "invalid_reason"
	Category            = "category"
	Persona             = "persona"
	AnswerCorrectness   = "answer_correctness"
	MissedClaimsChecked = "missed_claims_checked"
)

func init() {
	valid := []Cond{{QuestionValidity, []string{"valid"}}}
	Register(Spec{
		Kind: KindQA, Order: 10, Title: "QA pairs", Noun: "QA pair", Annotated: true,
		Fields: []Field{
			{Name: QuestionValidity, Values: []string{"valid", "invalid"}, TwoWay: true},
			{Name: InvalidReason, Values: []string{"domain", "linguistic", "both"}, AskedIf: []Cond{{QuestionValidity, []string{"invalid"}}}},
			{Name: Category, Values: []string{"general_legal_research", "factual_recall", "false_premise", "jurisdiction_time_specific"}, AskedIf: valid},
			{Name: Persona, Values: []string{"citizen", "civil_officer", "legal_expert"}, AskedIf: valid},
			{Name: AnswerCorrectness, Values: []string{"correct", "partially_correct", "incorrect"}, AskedIf: valid},
			// Set after the last claim of the answer: "checked" (none
			// missed) or "added" (the expert added claims).
			{Name: MissedClaimsChecked, Values: []string{"checked", "added"}, Marker: true},
		},
	})
}
