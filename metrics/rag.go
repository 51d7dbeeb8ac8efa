package metrics

// RAGChecker's metrics (github.com/amazon-science/RAGChecker,
// ragchecker/computation.py), computed from the claim × chunk matrices of
// its checking output. RAGChecker reads a verdict as true only when it is
// exactly "Entailment" (to_bool): "entailment", "Neutral", "" or anything
// else is false. Each metric is computed per result, and a set of results
// scores the mean of its results (evaluator.py: np.mean over the results).

// RAGVerdict is the only verdict RAGChecker counts as true.
const RAGVerdict = "Entailment"

// RAGMatrices are one result's four checking outputs, as RAGChecker writes
// them:
//   - AnswerToResponse: one verdict per response claim, checked against the
//     ground-truth answer (answer2response);
//   - ResponseToAnswer: one verdict per ground-truth claim, checked against
//     the response (response2answer);
//   - RetrievedToResponse: [response claim][chunk], each response claim
//     checked against each retrieved chunk (retrieved2response);
//   - RetrievedToAnswer: [ground-truth claim][chunk] (retrieved2answer).
type RAGMatrices struct {
	AnswerToResponse    []string   `json:"answer2response"`
	ResponseToAnswer    []string   `json:"response2answer"`
	RetrievedToResponse [][]string `json:"retrieved2response"`
	RetrievedToAnswer   [][]string `json:"retrieved2answer"`
}

// RAGScores are RAGChecker's 11 metrics, as fractions (RAGChecker prints
// them ×100 with one decimal).
type RAGScores struct {
	Precision                    float64 `json:"precision"`
	Recall                       float64 `json:"recall"`
	F1                           float64 `json:"f1"`
	ClaimRecall                  float64 `json:"claim_recall"`
	ContextPrecision             float64 `json:"context_precision"`
	ContextUtilization           float64 `json:"context_utilization"`
	NoiseSensitivityInRelevant   float64 `json:"noise_sensitivity_in_relevant"`
	NoiseSensitivityInIrrelevant float64 `json:"noise_sensitivity_in_irrelevant"`
	Hallucination                float64 `json:"hallucination"`
	SelfKnowledge                float64 `json:"self_knowledge"`
	Faithfulness                 float64 `json:"faithfulness"`
}

// RAGMetricNames are the metrics' names in RAGChecker's order (its
// all_metrics), which is also the order of RAGScores.Values.
var RAGMetricNames = []string{
	"precision", "recall", "f1", "claim_recall", "context_precision",
	"context_utilization", "noise_sensitivity_in_relevant", "noise_sensitivity_in_irrelevant",
	"hallucination", "self_knowledge", "faithfulness",
}

// Values are the scores in the order of RAGMetricNames.
func (s RAGScores) Values() []float64 {
	return []float64{s.Precision, s.Recall, s.F1, s.ClaimRecall, s.ContextPrecision,
		s.ContextUtilization, s.NoiseSensitivityInRelevant, s.NoiseSensitivityInIrrelevant,
		s.Hallucination, s.SelfKnowledge, s.Faithfulness}
}

// Minus is s − o, metric by metric.
func (s RAGScores) Minus(o RAGScores) RAGScores {
	a, b := s.Values(), o.Values()
	for i := range a {
		a[i] -= b[i]
	}
	return ragFromValues(a)
}

func ragFromValues(v []float64) RAGScores {
	return RAGScores{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10]}
}

func entailed(v string) bool { return v == RAGVerdict }

// meanTrue is np.mean of a boolean vector; callers check it is not empty.
func meanTrue(b []bool) float64 {
	n := 0
	for _, x := range b {
		if x {
			n++
		}
	}
	return float64(n) / float64(len(b))
}

func boolsOf(vs []string) []bool {
	out := make([]bool, len(vs))
	for i, v := range vs {
		out[i] = entailed(v)
	}
	return out
}

// anyRow is np.max(m, axis=1): per row, whether any cell is true.
func anyRow(m [][]bool) []bool {
	out := make([]bool, len(m))
	for i, row := range m {
		for _, x := range row {
			if x {
				out[i] = true
				break
			}
		}
	}
	return out
}

// anyColumn is np.max(m, axis=0) over a matrix of cols columns.
func anyColumn(m [][]bool, cols int) []bool {
	out := make([]bool, cols)
	for _, row := range m {
		for j := 0; j < cols && j < len(row); j++ {
			if row[j] {
				out[j] = true
			}
		}
	}
	return out
}

func matrixOf(m [][]string) [][]bool {
	out := make([][]bool, len(m))
	for i, row := range m {
		out[i] = boolsOf(row)
	}
	return out
}

// RAGResultScores computes the 11 metrics of one result exactly as
// computation.py's evaluate_* functions do, including their guards: a
// metric whose matrix is empty (no claim, or no retrieved chunk) is 0.
// The matrices must be rectangular (every row as long as the first), as
// RAGChecker's numpy arrays are.
func RAGResultScores(m RAGMatrices) RAGScores {
	var s RAGScores
	a2r := boolsOf(m.AnswerToResponse)
	r2a := boolsOf(m.ResponseToAnswer)
	ret2resp := matrixOf(m.RetrievedToResponse)
	ret2ans := matrixOf(m.RetrievedToAnswer)

	// evaluate_precision, evaluate_recall, evaluate_f1.
	if len(a2r) > 0 {
		s.Precision = meanTrue(a2r)
	}
	if len(r2a) > 0 {
		s.Recall = meanTrue(r2a)
	}
	if s.Precision > 0 && s.Recall > 0 {
		s.F1 = 2 * s.Precision * s.Recall / (s.Precision + s.Recall)
	}

	// evaluate_retrieval: claim recall and context precision.
	ansChunks := 0
	if len(ret2ans) > 0 {
		ansChunks = len(ret2ans[0])
	}
	var claimRecalled []bool
	if len(ret2ans) > 0 && ansChunks > 0 {
		claimRecalled = anyRow(ret2ans)
		s.ClaimRecall = meanTrue(claimRecalled)
		s.ContextPrecision = meanTrue(anyColumn(ret2ans, ansChunks))
	}

	// evaluate_context_utilization.
	if len(ret2ans) > 0 && ansChunks > 0 {
		recalled, used := 0, 0
		for i, x := range claimRecalled {
			if x {
				recalled++
				if i < len(r2a) && r2a[i] {
					used++
				}
			}
		}
		if recalled > 0 {
			s.ContextUtilization = float64(used) / float64(recalled)
		}
	}

	respChunks := 0
	if len(ret2resp) > 0 {
		respChunks = len(ret2resp[0])
	}
	// evaluate_noise_sensitivity.
	if len(a2r) > 0 && respChunks > 0 && len(ret2ans) > 0 {
		relevant := anyColumn(ret2ans, respChunks)
		relevantFaithful := make([]bool, len(ret2resp))
		irrelevantFaithful := make([]bool, len(ret2resp))
		for i, row := range ret2resp {
			for j, x := range row {
				if !x || j >= len(relevant) {
					continue
				}
				if relevant[j] {
					relevantFaithful[i] = true
				} else {
					irrelevantFaithful[i] = true
				}
			}
			irrelevantFaithful[i] = irrelevantFaithful[i] && !relevantFaithful[i] // kept exclusive
		}
		nsRel, nsIrr := 0, 0
		for i := range a2r {
			if a2r[i] || i >= len(ret2resp) {
				continue
			}
			if relevantFaithful[i] {
				nsRel++
			}
			if irrelevantFaithful[i] {
				nsIrr++
			}
		}
		s.NoiseSensitivityInRelevant = float64(nsRel) / float64(len(a2r))
		s.NoiseSensitivityInIrrelevant = float64(nsIrr) / float64(len(a2r))
	}

	// evaluate_unfaithfulness: hallucination and self-knowledge.
	faithful := anyRow(ret2resp)
	if len(a2r) > 0 && respChunks > 0 {
		hal, self := 0, 0
		for i := range a2r {
			if i < len(faithful) && faithful[i] {
				continue
			}
			if a2r[i] {
				self++
			} else {
				hal++
			}
		}
		s.Hallucination = float64(hal) / float64(len(a2r))
		s.SelfKnowledge = float64(self) / float64(len(a2r))
	}

	// evaluate_faithfulness.
	if len(ret2resp) > 0 && respChunks > 0 {
		s.Faithfulness = meanTrue(faithful)
	}
	return s
}

// RAGMean is the mean of each metric over the results (np.mean), and false
// when there are none (numpy's nan: nothing to average).
func RAGMean(results []RAGScores) (RAGScores, bool) {
	if len(results) == 0 {
		return RAGScores{}, false
	}
	sum := make([]float64, len(RAGMetricNames))
	for _, r := range results {
		for i, v := range r.Values() {
			sum[i] += v
		}
	}
	for i := range sum {
		sum[i] /= float64(len(results))
	}
	return ragFromValues(sum), true
}

// WithoutAnswerClaims returns the matrices with the ground-truth claims
// whose drop[i] is true left out (their verdict in ResponseToAnswer and
// their row of RetrievedToAnswer), as if the extractor had never produced
// them; the response's claims are untouched. The number left out is
// returned too. drop may be shorter than the claims (the rest are kept).
func WithoutAnswerClaims(m RAGMatrices, drop []bool) (RAGMatrices, int) {
	out := RAGMatrices{AnswerToResponse: m.AnswerToResponse, RetrievedToResponse: m.RetrievedToResponse}
	removed := 0
	n := max(len(m.ResponseToAnswer), len(m.RetrievedToAnswer))
	for i := range n {
		if i < len(drop) && drop[i] {
			removed++
			continue
		}
		if i < len(m.ResponseToAnswer) {
			out.ResponseToAnswer = append(out.ResponseToAnswer, m.ResponseToAnswer[i])
		}
		if i < len(m.RetrievedToAnswer) {
			out.RetrievedToAnswer = append(out.RetrievedToAnswer, m.RetrievedToAnswer[i])
		}
	}
	return out, removed
}
