package metrics

import "math"

// Retrieval metrics with CanLegalRAGBench's own definitions
// (evaluate_retrieval/benchmark_rag/evaluation/metrics.py of
// github.com/NLP-UBC/CanLegalRAGBench), which differ from trec_eval's. The
// retrieved list is chunk-level: the document of every retrieved chunk in
// rank order, repeats included; relevant is the query's set of relevant
// documents (binary).
//
//   - recall_at_k: relevant chunks among the top k chunks / relevant
//     documents. A document retrieved as several chunks counts as often:
//     it can exceed 1.
//   - doc_recall_at_k: relevant documents among the top k chunks / relevant
//     documents.
//   - precision_at_k: relevant documents among the unique documents of the
//     top k chunks / those unique documents (0 when there is none).
//   - hit_at_k: 1 if a relevant document is among the top k chunks, else 0.
//   - mrr: 1 / the rank of the first relevant document in the whole list,
//     deduplicated (first occurrences, not cut at k), else 0.
//   - ndcg_at_k: the unique documents of the top k chunks, gain 1 for a
//     relevant one, discount log2(rank+1); the ideal is the first
//     min(|relevant|, unique documents) ranks all relevant (the ideal is cut
//     at the number of unique documents retrieved, not at k); 0 when the
//     ideal is 0.
//
// With no relevant document every recall is 0 (the benchmark evaluates
// only queries with citations, so this never counts).

// CLRBScores are one query's metrics with the benchmark's definitions.
type CLRBScores struct {
	Recall, DocRecall, Precision, Hit, MRR, NDCG float64
}

// CLRBQuery scores a chunk-level list against the relevant documents at k.
func CLRBQuery[D comparable](retrieved []D, relevant map[D]bool, k int) CLRBScores {
	var s CLRBScores
	top := retrieved[:max(0, min(k, len(retrieved)))]
	var unique []D // of the top k, first occurrences in order
	seen := map[D]bool{}
	hits := 0
	for _, d := range top {
		if relevant[d] {
			hits++
		}
		if !seen[d] {
			seen[d] = true
			unique = append(unique, d)
		}
	}
	uniqueHits := 0
	dcg := 0.0
	for i, d := range unique {
		if relevant[d] {
			uniqueHits++
			dcg += 1 / math.Log2(float64(i+2))
		}
	}
	nRel := 0
	for _, r := range relevant {
		if r {
			nRel++
		}
	}
	if nRel > 0 {
		s.Recall = float64(hits) / float64(nRel)
		s.DocRecall = float64(uniqueHits) / float64(nRel)
	}
	if k > 0 && len(unique) > 0 {
		s.Precision = float64(uniqueHits) / float64(len(unique))
	}
	if hits > 0 {
		s.Hit = 1
	}
	ideal := 0.0
	for i := 1; i <= min(nRel, len(unique)); i++ {
		ideal += 1 / math.Log2(float64(i+1))
	}
	if ideal > 0 {
		s.NDCG = dcg / ideal
	}
	rank := 0
	clear(seen)
	for _, d := range retrieved {
		if seen[d] {
			continue
		}
		seen[d] = true
		rank++
		if relevant[d] {
			s.MRR = 1 / float64(rank)
			break
		}
	}
	return s
}

// CLRBMean is the macro average of the queries' scores, as the benchmark's
// evaluate_retrieval (a plain mean); ok is false when there is none.
func CLRBMean(scores []CLRBScores) (m CLRBScores, ok bool) {
	if len(scores) == 0 {
		return m, false
	}
	for _, s := range scores {
		m.Recall += s.Recall
		m.DocRecall += s.DocRecall
		m.Precision += s.Precision
		m.Hit += s.Hit
		m.MRR += s.MRR
		m.NDCG += s.NDCG
	}
	n := float64(len(scores))
	return CLRBScores{m.Recall / n, m.DocRecall / n, m.Precision / n, m.Hit / n, m.MRR / n, m.NDCG / n}, true
}
