package tally

import (
	"fmt"
	"testing"
)

// relevanceFamily is a graded pair of a pool judged by two experts: jo
// grades it 1, sam 2 (both relevant).
func relevanceFamily(joGrade, samGrade, samRelevance string) *Family {
	return &Family{Root: Member{ID: 9, Kind: "relevance", Source: 1,
		Queues: []Queue{{Batch: 3, Assigned: []int64{7, 8}}},
		Labels: map[int64]map[string]string{
			7: {"relevance_grade": joGrade, "relevance": "relevant"},
			8: {"relevance_grade": samGrade, "relevance": samRelevance},
		}}}
}

// TestGradesAreCompared: a graded pool's grades have agreement patterns
// (an ordinal marker is compared), but two different grades leave no
// disagreement open for the lead: the relevance asked with them does.
func TestGradesAreCompared(t *testing.T) {
	for _, tc := range []struct {
		sam, samRelevance string
		want              map[string]int
	}{
		{"2", "relevant", map[string]int{
			"agree relevance_grade 7=1|8=2": 1, "agree relevance 7=relevant|8=relevant": 1}},
		{"0", "not_relevant", map[string]int{
			"agree relevance_grade 7=1|8=0": 1, "agree relevance 7=relevant|8=not_relevant": 1,
			"open_disagreement relevance ": 1}},
	} {
		have := map[string]int{}
		for k, n := range Compute(relevanceFamily("1", tc.sam, tc.samRelevance)).Counts {
			if k.Name == Agree || k.Name == OpenDisagreement {
				have[fmt.Sprintf("%s %s %s", k.Name, k.A, k.B)] = n
			}
		}
		if fmt.Sprint(have) != fmt.Sprint(tc.want) {
			t.Errorf("sam %s: %v, want %v", tc.sam, have, tc.want)
		}
	}
}
