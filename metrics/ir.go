package metrics

import "math"

// Retrieval metrics at a cutoff k, with trec_eval's definitions (recall_k,
// P_k, ndcg_cut_k) and MRR cut at k:
//
//   - recall@k = relevant documents in the top k / relevant documents of the query;
//   - precision@k = relevant documents in the top k / k (even when fewer were retrieved);
//   - nDCG@k = DCG@k / IDCG@k, DCG@k = Σ_{rank ≤ k} gain / log2(rank + 1), the
//     gain of a document its relevance grade (0 when unjudged), the ideal
//     ranking every known relevant document of the query by grade;
//   - MRR@k = 1 / the rank of the first relevant document within k, else 0.
//
// A document is relevant when its gain is above 0. A query with no relevant
// document has none of these defined (EvalQuery says so).

// IRScores are one ranking's metrics for one query.
type IRScores struct {
	Recall, Precision, NDCG, MRR float64
}

// EvalQuery scores a ranking (document ids from rank 1 on, no repeats)
// against the gains of the query's judged documents at cutoff k. ok is false
// when the query has no relevant document.
func EvalQuery[D comparable](ranking []D, gains map[D]int, k int) (s IRScores, ok bool) {
	relevant := 0
	var grades []int
	for _, g := range gains {
		if g > 0 {
			relevant++
			grades = append(grades, g)
		}
	}
	if relevant == 0 || k < 1 {
		return IRScores{}, false
	}
	found := 0
	dcg := 0.0
	for i, d := range ranking {
		if i >= k {
			break
		}
		g := gains[d]
		if g <= 0 {
			continue
		}
		found++
		dcg += float64(g) / math.Log2(float64(i+2))
		if s.MRR == 0 {
			s.MRR = 1 / float64(i+1)
		}
	}
	s.Recall = float64(found) / float64(relevant)
	s.Precision = float64(found) / float64(k)
	s.NDCG = dcg / idealDCG(grades, k)
	return s, true
}

// idealDCG is the DCG of the best ranking of the grades, cut at k.
func idealDCG(grades []int, k int) float64 {
	// Highest grade first: a counting sort, grades being small integers.
	byGrade := map[int]int{}
	top := 0
	for _, g := range grades {
		byGrade[g]++
		top = max(top, g)
	}
	sum, rank := 0.0, 1
	for g := top; g > 0 && rank <= k; g-- {
		for n := byGrade[g]; n > 0 && rank <= k; n-- {
			sum += float64(g) / math.Log2(float64(rank+1))
			rank++
		}
	}
	return sum
}

// Mean is the macro average of a metric over queries' scores; ok is false
// when there is none.
func Mean(scores []IRScores) (m IRScores, ok bool) {
	if len(scores) == 0 {
		return m, false
	}
	for _, s := range scores {
		m.Recall += s.Recall
		m.Precision += s.Precision
		m.NDCG += s.NDCG
		m.MRR += s.MRR
	}
	n := float64(len(scores))
	return IRScores{m.Recall / n, m.Precision / n, m.NDCG / n, m.MRR / n}, true
}

// KendallTau is Kendall's τ-b between two scorings of the same items (the
// runs before and after the experts' judgments), ties counted as in
// scipy.stats.kendalltau; ok is false with fewer than two items or when
// either scoring is constant.
func KendallTau(x, y []float64) (tau float64, ok bool) {
	n := len(x)
	if n != len(y) || n < 2 {
		return 0, false
	}
	var concordant, discordant, tiesX, tiesY float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			dx, dy := sign(x[i]-x[j]), sign(y[i]-y[j])
			switch {
			case dx == 0 && dy == 0:
			case dx == 0:
				tiesX++
			case dy == 0:
				tiesY++
			case dx == dy:
				concordant++
			default:
				discordant++
			}
		}
	}
	den := math.Sqrt((concordant + discordant + tiesX) * (concordant + discordant + tiesY))
	if den == 0 {
		return 0, false
	}
	return (concordant - discordant) / den, true
}

func sign(d float64) int {
	switch {
	case d > 0:
		return 1
	case d < 0:
		return -1
	}
	return 0
}
