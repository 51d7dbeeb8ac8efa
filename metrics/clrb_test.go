package metrics

import (
	"math"
	"testing"
)

// clrbCases is the fixture of the CanLegalRAGBench definitions: chunk-level
// lists (repeats included) and relevant sets, chosen so that chunk recall
// exceeds 1 (case 2), precision counts unique documents (case 2 at k=5),
// MRR looks past k (cases 0, 1, 5 at k=1), the nDCG ideal is cut at the
// unique documents retrieved (case 2), and a list is empty (case 4).
var clrbCases = []struct {
	retrieved []string
	relevant  []string
}{
	{[]string{"d2", "d1", "d2", "d1", "d5", "d3"}, []string{"d1", "d3"}},
	{[]string{"d4", "d4", "d4", "d9", "d7"}, []string{"d7"}},
	{[]string{"d1", "d1", "d1", "d1"}, []string{"d1", "d2", "d3"}},
	{[]string{"d8", "d6"}, []string{"d5"}},
	{[]string{}, []string{"d1"}},
	{[]string{"d3", "d2", "d1", "d6", "d5", "d4", "d2", "d9", "d8", "d7", "d1"}, []string{"d1", "d2", "d9", "d10"}},
}

// The expected values were computed by CanLegalRAGBench's own
// evaluate_retrieval/benchmark_rag/evaluation/metrics.py (github.com/
// NLP-UBC/CanLegalRAGBench at commit bc2c83cb7551), imported and run with
// python3 on clrbCases: recall_at_k, doc_recall_at_k, precision_at_k,
// hit_at_k, mrr and ndcg_at_k per query, then evaluate_retrieval with
// k_values=(1, 3, 5, 10) for the means; printed with repr.
func TestCLRBQueryMatchesTheBenchmarksMetricsPy(t *testing.T) {
	want := []struct {
		k, q int
		s    CLRBScores
	}{
		{1, 0, CLRBScores{0.0, 0.0, 0.0, 0.0, 0.5, 0.0}},
		{1, 1, CLRBScores{0.0, 0.0, 0.0, 0.0, 0.3333333333333333, 0.0}},
		{1, 2, CLRBScores{0.3333333333333333, 0.3333333333333333, 1.0, 1.0, 1.0, 1.0}},
		{1, 3, CLRBScores{0.0, 0.0, 0.0, 0.0, 0.0, 0.0}},
		{1, 4, CLRBScores{0.0, 0.0, 0.0, 0.0, 0.0, 0.0}},
		{1, 5, CLRBScores{0.0, 0.0, 0.0, 0.0, 0.5, 0.0}},
		{3, 0, CLRBScores{0.5, 0.5, 0.5, 1.0, 0.5, 0.38685280723454163}},
		{3, 1, CLRBScores{0.0, 0.0, 0.0, 0.0, 0.3333333333333333, 0.0}},
		{3, 2, CLRBScores{1.0, 0.3333333333333333, 1.0, 1.0, 1.0, 1.0}},
		{3, 3, CLRBScores{0.0, 0.0, 0.0, 0.0, 0.0, 0.0}},
		{3, 4, CLRBScores{0.0, 0.0, 0.0, 0.0, 0.0, 0.0}},
		{3, 5, CLRBScores{0.5, 0.5, 0.6666666666666666, 1.0, 0.5, 0.5307212739772434}},
		{5, 0, CLRBScores{1.0, 0.5, 0.3333333333333333, 1.0, 0.5, 0.38685280723454163}},
		{5, 1, CLRBScores{1.0, 1.0, 0.3333333333333333, 1.0, 0.3333333333333333, 0.5}},
		{5, 2, CLRBScores{1.3333333333333333, 0.3333333333333333, 1.0, 1.0, 1.0, 1.0}},
		{5, 3, CLRBScores{0.0, 0.0, 0.0, 0.0, 0.0, 0.0}},
		{5, 4, CLRBScores{0.0, 0.0, 0.0, 0.0, 0.0, 0.0}},
		{5, 5, CLRBScores{0.5, 0.5, 0.4, 1.0, 0.5, 0.44149241373678083}},
		{10, 0, CLRBScores{1.5, 1.0, 0.5, 1.0, 0.5, 0.6509209298071326}},
		{10, 1, CLRBScores{1.0, 1.0, 0.3333333333333333, 1.0, 0.3333333333333333, 0.5}},
		{10, 2, CLRBScores{1.3333333333333333, 0.3333333333333333, 1.0, 1.0, 1.0, 1.0}},
		{10, 3, CLRBScores{0.0, 0.0, 0.0, 0.0, 0.0, 0.0}},
		{10, 4, CLRBScores{0.0, 0.0, 0.0, 0.0, 0.0, 0.0}},
		{10, 5, CLRBScores{1.0, 0.75, 0.3333333333333333, 1.0, 0.5, 0.5716190970674814}},
	}
	for _, w := range want {
		c := clrbCases[w.q]
		rel := map[string]bool{}
		for _, d := range c.relevant {
			rel[d] = true
		}
		if got := CLRBQuery(c.retrieved, rel, w.k); !closeCLRB(got, w.s) {
			t.Errorf("k=%d query %d: %+v, want %+v", w.k, w.q, got, w.s)
		}
	}
}

func TestCLRBMeanMatchesEvaluateRetrieval(t *testing.T) {
	want := []struct {
		k int
		s CLRBScores
	}{
		{1, CLRBScores{0.05555555555555555, 0.05555555555555555, 0.16666666666666666, 0.16666666666666666, 0.38888888888888884, 0.16666666666666666}},
		{3, CLRBScores{0.3333333333333333, 0.2222222222222222, 0.3611111111111111, 0.5, 0.38888888888888884, 0.31959568020196416}},
		{5, CLRBScores{0.6388888888888888, 0.38888888888888884, 0.3444444444444444, 0.6666666666666666, 0.38888888888888884, 0.38805753682855376}},
		{10, CLRBScores{0.8055555555555555, 0.513888888888889, 0.3611111111111111, 0.6666666666666666, 0.38888888888888884, 0.453756671145769}},
	}
	for _, w := range want {
		var per []CLRBScores
		for _, c := range clrbCases {
			rel := map[string]bool{}
			for _, d := range c.relevant {
				rel[d] = true
			}
			per = append(per, CLRBQuery(c.retrieved, rel, w.k))
		}
		got, ok := CLRBMean(per)
		if !ok || !closeCLRB(got, w.s) {
			t.Errorf("k=%d: %+v, want %+v", w.k, got, w.s)
		}
	}
	if _, ok := CLRBMean(nil); ok {
		t.Error("a mean over no query is defined")
	}
}

func closeCLRB(a, b CLRBScores) bool {
	for _, p := range [][2]float64{{a.Recall, b.Recall}, {a.DocRecall, b.DocRecall}, {a.Precision, b.Precision},
		{a.Hit, b.Hit}, {a.MRR, b.MRR}, {a.NDCG, b.NDCG}} {
		if math.Abs(p[0]-p[1]) > 1e-12 {
			return false
		}
	}
	return true
}
