package metrics

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

// ragExample is RAGChecker's own example checking output
// (examples/checking_outputs.json of github.com/amazon-science/RAGChecker,
// Apache-2.0), copied unchanged into importer/testdata (see its LICENSE.md).
// Each result carries the metrics RAGChecker computed on it, and the file
// the aggregated figures (×100, one decimal).
const ragExample = "../importer/testdata/ragchecker_checking_outputs.json"

type ragExampleFile struct {
	Results []struct {
		QueryID string `json:"query_id"`
		RAGMatrices
		Metrics map[string]float64 `json:"metrics"`
	} `json:"results"`
	Metrics map[string]map[string]float64 `json:"metrics"`
}

func readRAGExample(t *testing.T) ragExampleFile {
	t.Helper()
	b, err := os.ReadFile(ragExample)
	if err != nil {
		t.Fatal(err)
	}
	var f ragExampleFile
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Results) != 2 {
		t.Fatalf("%d results, want the example's 2", len(f.Results))
	}
	return f
}

// TestRAGResultScoresLikeRAGChecker recomputes each result of RAGChecker's
// example from its matrices and compares with the per-result metrics the
// file stores, then the means with the file's aggregated figures.
func TestRAGResultScoresLikeRAGChecker(t *testing.T) {
	f := readRAGExample(t)
	var all []RAGScores
	for _, r := range f.Results {
		got := RAGResultScores(r.RAGMatrices)
		all = append(all, got)
		if len(r.Metrics) != len(RAGMetricNames) {
			t.Fatalf("result %s stores %d metrics, want %d", r.QueryID, len(r.Metrics), len(RAGMetricNames))
		}
		for i, name := range RAGMetricNames {
			want, ok := r.Metrics[name]
			if !ok {
				t.Fatalf("result %s stores no %s", r.QueryID, name)
			}
			near(t, "result "+r.QueryID+" "+name, got.Values()[i], want, tight)
		}
	}
	mean, ok := RAGMean(all)
	if !ok {
		t.Fatal("no mean of two results")
	}
	// The file's groups (an older RAGChecker named them overall,
	// retriever, generator) hold round(mean × 100, 1).
	stored := map[string]float64{}
	for _, g := range f.Metrics {
		for k, v := range g {
			stored[k] = v
		}
	}
	for i, name := range RAGMetricNames {
		want, ok := stored[name]
		if !ok {
			t.Fatalf("the file stores no aggregated %s", name)
		}
		if got := fmt.Sprintf("%.1f", 100*mean.Values()[i]); got != fmt.Sprintf("%.1f", want) {
			t.Errorf("mean %s = %s, the file says %.1f", name, got, want)
		}
	}
	// By hand from the file's per-result values: precision (8/11 + 4/5)/2.
	near(t, "mean precision", mean.Precision, (8.0/11+4.0/5)/2, tight)
}

// TestRAGResultScoresByHand: a 2-claim response, 3 ground-truth claims, 2
// chunks, each metric worked out on paper from computation.py's
// definitions.
func TestRAGResultScoresByHand(t *testing.T) {
	E, N, C := "Entailment", "Neutral", "Contradiction"
	m := RAGMatrices{
		AnswerToResponse: []string{E, N},               // response claim 1 correct, 2 not
		ResponseToAnswer: []string{E, "entailment", C}, // lower case is not Entailment: 1 of 3
		// Response claim 1 is in chunk 2; claim 2 in chunk 1.
		RetrievedToResponse: [][]string{{N, E}, {E, N}},
		// GT claim 1 in chunk 1, claim 2 nowhere, claim 3 in chunk 1.
		RetrievedToAnswer: [][]string{{E, N}, {N, C}, {E, N}},
	}
	got := RAGResultScores(m)
	want := RAGScores{
		Precision: 0.5, Recall: 1.0 / 3, F1: 2 * 0.5 * (1.0 / 3) / (0.5 + 1.0/3),
		ClaimRecall:      2.0 / 3, // claims 1 and 3 are in some chunk
		ContextPrecision: 0.5,     // chunk 1 holds a GT claim, chunk 2 none
		// Recalled claims 1 and 3; of those, claim 1 is in the response.
		ContextUtilization: 0.5,
		// Chunk 1 is relevant. Claim 2 (incorrect) is entailed by chunk 1
		// (relevant): NS relevant 1/2; NS irrelevant 0 (claim 1, entailed
		// by the irrelevant chunk 2, is correct).
		NoiseSensitivityInRelevant: 0.5, NoiseSensitivityInIrrelevant: 0,
		Hallucination: 0, SelfKnowledge: 0, Faithfulness: 1,
	}
	for i, name := range RAGMetricNames {
		near(t, name, got.Values()[i], want.Values()[i], tight)
	}

	// No retrieved chunk: every retrieval-based metric is 0 (the guards).
	empty := RAGMatrices{AnswerToResponse: []string{E}, ResponseToAnswer: []string{E},
		RetrievedToResponse: [][]string{{}}, RetrievedToAnswer: [][]string{{}}}
	got = RAGResultScores(empty)
	want = RAGScores{Precision: 1, Recall: 1, F1: 1}
	for i, name := range RAGMetricNames {
		near(t, "no chunk: "+name, got.Values()[i], want.Values()[i], tight)
	}
	// No claim at all: everything 0.
	for i, name := range RAGMetricNames {
		near(t, "no claim: "+name, RAGResultScores(RAGMatrices{}).Values()[i], 0, tight)
	}
	if _, ok := RAGMean(nil); ok {
		t.Error("a mean of no results")
	}
}

// TestWithoutAnswerClaims drops ground-truth claims: the hand case above
// without its third claim has recall 1/2, claim recall 1/2, context
// precision 1/2, context utilization 1, NS relevant 1/2.
func TestWithoutAnswerClaims(t *testing.T) {
	E, N, C := "Entailment", "Neutral", "Contradiction"
	m := RAGMatrices{
		AnswerToResponse: []string{E, N}, ResponseToAnswer: []string{E, "entailment", C},
		RetrievedToResponse: [][]string{{N, E}, {E, N}},
		RetrievedToAnswer:   [][]string{{E, N}, {N, C}, {E, N}},
	}
	kept, removed := WithoutAnswerClaims(m, []bool{false, false, true})
	if removed != 1 || len(kept.ResponseToAnswer) != 2 || len(kept.RetrievedToAnswer) != 2 {
		t.Fatalf("removed %d, kept %v", removed, kept)
	}
	got := RAGResultScores(kept)
	near(t, "recall", got.Recall, 0.5, tight)
	near(t, "claim recall", got.ClaimRecall, 0.5, tight)
	near(t, "context precision", got.ContextPrecision, 0.5, tight)
	near(t, "context utilization", got.ContextUtilization, 1, tight)
	near(t, "NS relevant", got.NoiseSensitivityInRelevant, 0.5, tight)
	near(t, "precision (untouched)", got.Precision, 0.5, tight)
	// Every claim removed: the ground-truth side is empty.
	none, removed := WithoutAnswerClaims(m, []bool{true, true, true})
	got = RAGResultScores(none)
	if removed != 3 || got.Recall != 0 || got.ClaimRecall != 0 || got.NoiseSensitivityInRelevant != 0 {
		t.Errorf("all removed: %d, %+v", removed, got)
	}
	if len(m.ResponseToAnswer) != 3 {
		t.Error("the input was changed")
	}
}

// The obvious implementation: computation.py transcribed line by line on
// a tiny ndarray of booleans (max over an axis, and, not, mean), to check
// RAGResultScores against on random matrices.
type bmat struct {
	rows, cols int
	v          []bool
}

func bvec(vs []string) bmat {
	m := bmat{rows: 1, cols: len(vs)}
	for _, v := range vs {
		m.v = append(m.v, v == "Entailment")
	}
	return m
}

func bmatrix(vs [][]string) bmat {
	m := bmat{rows: len(vs)}
	if len(vs) > 0 {
		m.cols = len(vs[0])
	}
	for _, row := range vs {
		for _, v := range row {
			m.v = append(m.v, v == "Entailment")
		}
	}
	return m
}

func (m bmat) at(i, j int) bool {
	// broadcasting a 1-row matrix over rows
	if m.rows == 1 {
		return m.v[j]
	}
	return m.v[i*m.cols+j]
}

// maxAxis1 gives a vector of rows; maxAxis0 a 1-row matrix of cols.
func (m bmat) maxAxis1() bmat {
	out := bmat{rows: 1, cols: m.rows, v: make([]bool, m.rows)}
	for i := 0; i < m.rows; i++ {
		for j := 0; j < m.cols; j++ {
			out.v[i] = out.v[i] || m.at(i, j)
		}
	}
	return out
}

func (m bmat) maxAxis0() bmat {
	out := bmat{rows: 1, cols: m.cols, v: make([]bool, m.cols)}
	for i := 0; i < m.rows; i++ {
		for j := 0; j < m.cols; j++ {
			out.v[j] = out.v[j] || m.at(i, j)
		}
	}
	return out
}

// and broadcasts a 1-row a over b's rows.
func and(a, b bmat) bmat {
	out := bmat{rows: b.rows, cols: b.cols, v: make([]bool, b.rows*b.cols)}
	for i := 0; i < b.rows; i++ {
		for j := 0; j < b.cols; j++ {
			out.v[i*b.cols+j] = a.at(i, j) && b.at(i, j)
		}
	}
	return out
}

func not(a bmat) bmat {
	out := bmat{rows: a.rows, cols: a.cols, v: make([]bool, len(a.v))}
	for i, x := range a.v {
		out.v[i] = !x
	}
	return out
}

func (m bmat) mean() float64 {
	s := 0.0
	for _, x := range m.v {
		if x {
			s++
		}
	}
	return s / float64(len(m.v))
}

func (m bmat) sum() float64 { return m.mean() * float64(len(m.v)) }

func obviousRAG(in RAGMatrices) RAGScores {
	var s RAGScores
	a2r, r2a := bvec(in.AnswerToResponse), bvec(in.ResponseToAnswer)
	ret2resp, ret2ans := bmatrix(in.RetrievedToResponse), bmatrix(in.RetrievedToAnswer)
	if len(in.AnswerToResponse) > 0 {
		s.Precision = a2r.mean()
	}
	if len(in.ResponseToAnswer) > 0 {
		s.Recall = r2a.mean()
	}
	if s.Precision > 0 && s.Recall > 0 {
		s.F1 = 2 * s.Precision * s.Recall / (s.Precision + s.Recall)
	}
	if len(in.RetrievedToAnswer) > 0 && len(in.RetrievedToAnswer[0]) > 0 {
		s.ClaimRecall = ret2ans.maxAxis1().mean()
		s.ContextPrecision = ret2ans.maxAxis0().mean()
		recalled := ret2ans.maxAxis1()
		if recalled.sum() > 0 {
			s.ContextUtilization = and(recalled, r2a).sum() / recalled.sum()
		}
	}
	if len(in.AnswerToResponse) > 0 && len(in.RetrievedToResponse[0]) > 0 && len(in.RetrievedToAnswer) > 0 {
		relevantRetrieved := ret2ans.maxAxis0()
		relevantFaithful := and(relevantRetrieved, ret2resp).maxAxis1()
		irrelevantFaithful := and(not(relevantRetrieved), ret2resp).maxAxis1()
		irrelevantFaithful = and(irrelevantFaithful, not(relevantFaithful))
		incorrect := not(a2r)
		s.NoiseSensitivityInRelevant = and(relevantFaithful, incorrect).mean()
		s.NoiseSensitivityInIrrelevant = and(irrelevantFaithful, incorrect).mean()
	}
	if len(in.AnswerToResponse) > 0 && len(in.RetrievedToResponse[0]) > 0 {
		unfaithful := not(ret2resp.maxAxis1())
		s.Hallucination = and(unfaithful, not(a2r)).mean()
		s.SelfKnowledge = and(unfaithful, a2r).mean()
	}
	if len(in.RetrievedToResponse) > 0 && len(in.RetrievedToResponse[0]) > 0 {
		s.Faithfulness = ret2resp.maxAxis1().mean()
	}
	return s
}

// TestRAGResultScoresProperty compares RAGResultScores with the obvious
// implementation on 5000 seeded random results (0–6 claims on each side,
// 0–5 chunks, verdicts among RAGChecker's three and a few it does not
// count), and checks the bounds every metric keeps.
func TestRAGResultScoresProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 3))
	verdicts := []string{"Entailment", "Entailment", "Neutral", "Contradiction", "entailment", ""}
	pick := func() string { return verdicts[rng.IntN(len(verdicts))] }
	for n := range 5000 {
		resp, gt, chunks := rng.IntN(7), rng.IntN(7), rng.IntN(6)
		var m RAGMatrices
		for range resp {
			m.AnswerToResponse = append(m.AnswerToResponse, pick())
			row := make([]string, chunks)
			for j := range row {
				row[j] = pick()
			}
			m.RetrievedToResponse = append(m.RetrievedToResponse, row)
		}
		for range gt {
			m.ResponseToAnswer = append(m.ResponseToAnswer, pick())
			row := make([]string, chunks)
			for j := range row {
				row[j] = pick()
			}
			m.RetrievedToAnswer = append(m.RetrievedToAnswer, row)
		}
		if resp == 0 {
			// computation.py indexes retrieved2response[0] only once
			// answer2response is not empty; the obvious version needs a row.
			m.RetrievedToResponse = [][]string{{}}
		}
		got, want := RAGResultScores(m), obviousRAG(m)
		for i, name := range RAGMetricNames {
			g, w := got.Values()[i], want.Values()[i]
			if math.Abs(g-w) > tight {
				t.Fatalf("case %d (%+v): %s = %v, the obvious implementation %v", n, m, name, g, w)
			}
			if g < 0 || g > 1 {
				t.Fatalf("case %d: %s = %v outside [0,1]", n, name, g)
			}
		}
		// The response's claims split into faithful, hallucinated and
		// self-knowledge ones when there is anything to split.
		if resp > 0 && chunks > 0 {
			near(t, "faithfulness + hallucination + self-knowledge", got.Faithfulness+got.Hallucination+got.SelfKnowledge, 1, tight)
		}
	}
}
