package tally

import (
	"strconv"
	"testing"
)

// importedFamily is a family as an import writes it: a QA pair with five
// extracted claims, each with a RefChecker verdict and in batch 3 (assigned
// to annotators 7 and 8), labelled by three annotators: 7 judged the answer
// correct and every claim, 8 judged it correct too and disagrees on some
// claims, 9 judged it incorrect (its claims ask 9 nothing).
func importedFamily() *Family {
	f := &Family{Root: Member{ID: 1, Kind: "qa", Source: 1,
		Attrs: map[string]string{"hop": "multi", "category": "factual_recall", AttrAsGiven: ""},
		Labels: map[int64]map[string]string{
			7: {"question_validity": "valid", "category": "factual_recall", "persona": "citizen", "answer_correctness": "correct", "missed_claims_checked": "checked"},
			8: {"question_validity": "valid", "category": "false_premise", "persona": "citizen", "answer_correctness": "correct"},
			9: {"question_validity": "valid", "category": "factual_recall", "persona": "legal_expert", "answer_correctness": "incorrect"},
		},
		Queues: []Queue{{Batch: 2, Open: true}},
	}}
	entail := []string{"entailment", "neutral", "contradiction"}
	for i := range 5 {
		f.Children = append(f.Children, Member{ID: int64(2 + i), Kind: "claim", Source: 1,
			Attrs: map[string]string{AttrOrigin: "extracted", AttrPosition: strconv.Itoa(i + 1), AttrExtractor: "refchecker"},
			Labels: map[int64]map[string]string{
				7: {"claim_validity": "correct", "entailment": entail[i%3]},
				8: {"claim_validity": "correct", "entailment": entail[(i+1)%3]},
				9: {"claim_validity": "incorrect"},
			},
			Predictions: []Prediction{{"refchecker", "entailment", []string{"Entailment", "neutral", "contradicted"}[i%3]}},
			Queues:      []Queue{{Batch: 3, Assigned: []int64{7, 8}}},
		})
	}
	return f
}

// BenchmarkCompute measures one family's contribution, the work the kept
// counts do twice (before and after) for each family a write touches.
func BenchmarkCompute(b *testing.B) {
	f := importedFamily()
	b.ReportAllocs()
	for b.Loop() {
		Compute(f)
	}
}
