package schema

// The claim kind: a triple (or sub-sentence text) extracted from a QA pair's
// answer and judged against that pair's context units.

// KindClaim is a claim of a QA pair's answer.
const KindClaim Kind = "claim"

// Claim field names.
const (
	ClaimValidity = "claim_validity"
	Entailment    = "entailment"
	// ClaimAdded stands while an annotator-added claim does, so undo can
	// take the addition back without deleting anything.
	ClaimAdded = "claim_added"
)

func init() {
	Register(Spec{
		Kind: KindClaim, Order: 20, Title: "Claims", Noun: "claim", Annotated: true, Parent: KindQA,
		// ClaimRAG-LAW extracts and validates claims only from answers judged
		// correct: a claim of an invalid question, or of an answer judged
		// partially correct or incorrect by the same rater, asks nothing.
		UnlessParent: []Cond{
			{QuestionValidity, []string{"invalid"}},
			{AnswerCorrectness, []string{"partially_correct", "incorrect"}},
		},
		// ... and a claim is offered only once its answer was judged correct
		// (not before the answer is judged), unless the answer is not under
		// review (a RefChecker or RAGChecker output imported as given).
		OnlyOnceParent: []Cond{{AnswerCorrectness, []string{"correct"}}},
		// After the last claim of an answer: did the extractor miss one?
		Guidelines: []string{"missed_claims"},
		Fields: []Field{
			{Name: ClaimValidity, Values: []string{"correct", "incorrect"}, TwoWay: true,
				Synonyms: map[string]string{"valid": "correct", "invalid": "incorrect"}},
			{Name: Entailment, Values: []string{"entailment", "neutral", "contradiction"},
				AskedIf: []Cond{{ClaimValidity, []string{"correct"}}},
				Synonyms: map[string]string{
					"entailed": "entailment", "entails": "entailment", "supported": "entailment",
					"contradictory": "contradiction", "contradicted": "contradiction", "contradicts": "contradiction",
				}},
			{Name: ClaimAdded, Values: []string{"yes", "no"}, Marker: true},
		},
	})
}
