package metrics

import (
	"math"
	"testing"
)

// The fixture of report/testdata/ir, at document level (chunks mapped, ranks
// renumbered): query A has graded qrels (d01 and d09 grade 2, d02 and d04
// grade 1, d03 judged 0), query B's only relevant document is at rank 11 of
// run alpha, query C has no relevant document.
//
// Expected values: computed by hand below, and checked while developing
// against trec_eval 9.0 (usnistgov/trec_eval, built locally, not part of
// this repository) run as `trec_eval -q -m recall.10 -m P.10 -m ndcg_cut.10
// -m recip_rank` on the same qrels and runs (its 4-decimal output agrees:
// alpha qA ndcg_cut_10 0.6422, beta qA 0.8017, alpha qB recip_rank 0.0909,
// which MRR@10 cuts to 0); the full digits come from a Python script of the
// same formulas.
var (
	gainsA = map[string]int{"d01": 2, "d02": 1, "d03": 0, "d04": 1, "d09": 2}
	gainsB = map[string]int{"d05": 1, "d10": 0}
	gainsC = map[string]int{"d01": 0}

	alphaA = []string{"d02", "d01", "d03", "d04", "d06"}
	alphaB = []string{"d10", "d11", "d12", "d13", "d14", "d15", "d16", "d17", "d18", "d19", "d05"}
	betaA  = []string{"d09", "d07", "d04", "d01", "d11"}
)

func nearIR(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-12 {
		t.Errorf("%s = %.15f, want %.15f", what, got, want)
	}
}

func TestEvalQueryAgainstTrecEval(t *testing.T) {
	// Alpha on A: relevant at ranks 1 (d02, gain 1), 2 (d01, gain 2) and
	// 4 (d04, gain 1): 3 of the 4 relevant documents (d09 not retrieved).
	// DCG = 1/log2(2) + 2/log2(3) + 1/log2(5); the ideal ranking is the
	// grades 2, 2, 1, 1: IDCG = 2/log2(2) + 2/log2(3) + 1/log2(4) + 1/log2(5).
	s, ok := EvalQuery(alphaA, gainsA, 10)
	if !ok {
		t.Fatal("query A has relevant documents")
	}
	dcg := 1 + 2/math.Log2(3) + 1/math.Log2(5)
	idcg := 2 + 2/math.Log2(3) + 0.5 + 1/math.Log2(5)
	nearIR(t, "alpha A recall", s.Recall, 0.75)
	nearIR(t, "alpha A precision", s.Precision, 0.3)
	nearIR(t, "alpha A nDCG", s.NDCG, dcg/idcg)
	nearIR(t, "alpha A nDCG (trec_eval)", s.NDCG, 0.6422213245951863)
	nearIR(t, "alpha A MRR", s.MRR, 1)

	// Beta on A: d09 (2) at 1, d04 (1) at 3, d01 (2) at 4.
	s, _ = EvalQuery(betaA, gainsA, 10)
	nearIR(t, "beta A nDCG", s.NDCG, (2+0.5+2/math.Log2(5))/idcg)
	nearIR(t, "beta A nDCG (trec_eval)", s.NDCG, 0.8017469769752265)

	// Alpha on B: the only relevant document is at rank 11, past the cutoff.
	s, ok = EvalQuery(alphaB, gainsB, 10)
	if !ok || s != (IRScores{}) {
		t.Errorf("alpha B = %+v, %v: every metric 0 at k=10", s, ok)
	}
	// ... and found at k=11: MRR 1/11, precision 1/11, nDCG 1/log2(12).
	s, _ = EvalQuery(alphaB, gainsB, 11)
	nearIR(t, "alpha B MRR@11", s.MRR, 1.0/11)
	nearIR(t, "alpha B precision@11", s.Precision, 1.0/11)
	nearIR(t, "alpha B nDCG@11", s.NDCG, 1/math.Log2(12))

	// C has no relevant document: nothing is defined.
	if _, ok := EvalQuery([]string{"d01", "d02"}, gainsC, 10); ok {
		t.Error("query C has no relevant document: it must not count")
	}
	// Precision divides by k even when fewer documents were retrieved,
	// and a query the run has nothing for scores 0.
	s, _ = EvalQuery([]string{"d05"}, gainsB, 10)
	nearIR(t, "precision of 1 document at k=10", s.Precision, 0.1)
	if s, ok := EvalQuery(nil, gainsA, 10); !ok || s != (IRScores{}) {
		t.Errorf("empty ranking: %+v %v", s, ok)
	}
	// The ideal ranking is cut at k too: k=1 on A is 2/2 for d09 first.
	s, _ = EvalQuery(betaA, gainsA, 1)
	nearIR(t, "beta A nDCG@1", s.NDCG, 1)
	nearIR(t, "beta A recall@1", s.Recall, 0.25)
}

func TestMean(t *testing.T) {
	if _, ok := Mean(nil); ok {
		t.Error("the mean of nothing is undefined")
	}
	m, _ := Mean([]IRScores{{1, 0.5, 0.25, 1}, {0, 0.5, 0.75, 0}})
	if m != (IRScores{0.5, 0.5, 0.5, 0.5}) {
		t.Errorf("mean %+v", m)
	}
}

// Kendall's tau-b against scipy.stats.kendalltau (scipy 1.10.1, run here
// while developing), ties included.
func TestKendallTau(t *testing.T) {
	for _, c := range []struct {
		x, y []float64
		want float64
	}{
		{[]float64{0.5, 0.3, 0.3, 0.9}, []float64{0.4, 0.35, 0.2, 0.9}, 0.912870929175277},
		{[]float64{0.9, 0.8, 0.7, 0.6}, []float64{0.8, 0.9, 0.7, 0.6}, 0.6666666666666669},
		{[]float64{1, 2, 3}, []float64{1, 2, 3}, 1},
		{[]float64{0.5, 0.5, 0.1}, []float64{0.2, 0.4, 0.4}, -0.49999999999999994},
	} {
		got, ok := KendallTau(c.x, c.y)
		if !ok {
			t.Errorf("%v %v: undefined", c.x, c.y)
		}
		nearIR(t, "tau", got, c.want)
	}
	for _, c := range [][2][]float64{{{1}, {1}}, {{1, 1}, {2, 3}}, {{1, 2}, {1}}} {
		if _, ok := KendallTau(c[0], c[1]); ok {
			t.Errorf("%v: tau is undefined (fewer than two items, a constant scoring, or unequal lengths)", c)
		}
	}
}
