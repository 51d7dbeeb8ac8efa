package report

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/annotate-dev/annotate/metrics"
	"github.com/annotate-dev/annotate/store"
)

// `annotate ir --definitions canlegalragbench`: the runs scored with the
// benchmark's own evaluation/metrics.py (metrics.CLRBQuery) instead of
// trec_eval's: recall_at_k counts the relevant chunks among the top k (it
// can exceed 1), doc_recall_at_k the relevant documents, precision_at_k is
// over the unique documents of the top k chunks, hit_at_k, mrr over the
// whole deduplicated list, ndcg_at_k binary with its ideal cut at the unique
// documents retrieved. Gains are binary (a grade above 0 is relevant).
//
// Queries: as the benchmark's is_query_usable, those with a reference
// answer (an accepted gold answer) and at least one relevant document in
// the phase's set (before: the gold set; after: with the experts'
// judgments), among the queries the runs retrieved for. A run with no list
// for one of them scores 0 on it (as trec_eval -c; the benchmark leaves a
// failed query out of that run's mean). Runs imported before annotate kept
// chunk-level lists are scored on their document ranking and named.

// CLRBMetrics are the benchmark's metric names, in the order of its
// ALL_METRICS.
var CLRBMetrics = []string{"recall_at_k", "doc_recall_at_k", "precision_at_k", "hit_at_k", "mrr", "ndcg_at_k"}

// CLRBReport is the report; its metric keys are the benchmark's.
type CLRBReport struct {
	K           int                  `json:"k"`
	Definitions string               `json:"definitions"`
	Gold        string               `json:"gold"`
	Annotator   string               `json:"annotator"`
	Overrides   bool                 `json:"expert_overrides"`
	Pooled      bool                 `json:"pooled_queries_only"`
	Runs        map[string]*CLRBRun  `json:"runs"`
	Ranking     IRRanking            `json:"ranking"`
	Rankings    map[string]IRRanking `json:"rankings"`
	// ExcludedQueries are usable neither before nor after; Excluded lists
	// per phase the queries left out of its means; NoReferenceAnswer those
	// left out of both for want of a reference answer.
	ExcludedQueries   []string            `json:"excluded_queries"`
	Excluded          map[string][]string `json:"excluded"`
	NoReferenceAnswer []string            `json:"no_reference_answer"`
	Queries           int                 `json:"queries"`
	Judgments         IRJudgments         `json:"judgments"`
	// DocumentLevelRuns have no chunk-level list (imported before annotate
	// kept it): scored on their document ranking.
	DocumentLevelRuns []string                                  `json:"document_level_runs"`
	By                map[string]map[string]map[string]*CLRBRun `json:"by,omitempty"`

	runOrder []string
}

// CLRBRun is one run's means before and after, and the difference.
type CLRBRun struct {
	Before CLRBPhase `json:"before"`
	After  CLRBPhase `json:"after"`
	Delta  CLRBPhase `json:"delta"`
}

// CLRBPhase holds the macro means over a phase's usable queries (null when
// there is none); in a delta, Queries is 0.
type CLRBPhase struct {
	Recall    *float64 `json:"recall_at_k"`
	DocRecall *float64 `json:"doc_recall_at_k"`
	Precision *float64 `json:"precision_at_k"`
	Hit       *float64 `json:"hit_at_k"`
	MRR       *float64 `json:"mrr"`
	NDCG      *float64 `json:"ndcg_at_k"`
	Queries   int      `json:"queries"`
}

func (p CLRBPhase) value(metric string) *float64 {
	return map[string]*float64{"recall_at_k": p.Recall, "doc_recall_at_k": p.DocRecall, "precision_at_k": p.Precision,
		"hit_at_k": p.Hit, "mrr": p.MRR, "ndcg_at_k": p.NDCG}[metric]
}

// IRCLRB computes the report with the benchmark's definitions.
func IRCLRB(rx *store.ReadTx, o IROptions) (*CLRBReport, error) {
	o.Definitions = DefinitionsCLRB
	if o.K < 1 {
		return nil, fmt.Errorf("--k %d: want a cutoff of at least 1", o.K)
	}
	if o.By != "" && !slices.Contains(IRByAttrs, o.By) {
		return nil, fmt.Errorf("--by %q: want %s", o.By, strings.Join(IRByAttrs, ", "))
	}
	switch o.RankBy {
	case "", "ndcg":
		o.RankBy = "ndcg_at_k"
	case "recall", "precision":
		o.RankBy += "_at_k"
	}
	if !slices.Contains(CLRBMetrics, o.RankBy) {
		return nil, fmt.Errorf("--rank-by %q: with --definitions %s want %s", o.RankBy, DefinitionsCLRB, strings.Join(CLRBMetrics, ", "))
	}
	if o.Gold == "" {
		o.Gold = "gold"
	}
	var rep *CLRBReport
	err := func() error {
		in, err := readIR(rx, o)
		if err != nil {
			return err
		}
		rep = computeCLRB(in, o)
		return nil
	}()
	return rep, err
}

func computeCLRB(in *irInput, o IROptions) *CLRBReport {
	rep := &CLRBReport{K: o.K, Definitions: DefinitionsCLRB, Gold: o.Gold, Annotator: in.expertBy, Overrides: o.ExpertOverrides,
		Pooled: o.Pooled, Runs: map[string]*CLRBRun{}, Rankings: map[string]IRRanking{}, Excluded: map[string][]string{},
		ExcludedQueries: []string{}, NoReferenceAnswer: []string{}, Queries: len(in.queries), runOrder: in.runs,
		DocumentLevelRuns: append([]string{}, in.documentLevel...)}
	sort.Strings(rep.DocumentLevelRuns)
	merged, added, dropped := MergeJudgments(in.gold, in.expert, o.ExpertOverrides)
	rep.Judgments = IRJudgments{Judged: len(in.expert), Added: added, Dropped: dropped}
	relevantOf := func(js []store.Judgment) map[int64]map[int64]bool {
		out := map[int64]map[int64]bool{}
		for q, docs := range gainsOf(js) {
			for d, g := range docs {
				if g > 0 {
					if out[q] == nil {
						out[q] = map[int64]bool{}
					}
					out[q][d] = true
				}
			}
		}
		return out
	}
	for _, q := range in.queries {
		if !in.answered[q] {
			rep.NoReferenceAnswer = append(rep.NoReferenceAnswer, queryName(in.attrs, q))
		}
	}
	sort.Strings(rep.NoReferenceAnswer)
	type scored struct {
		per map[string]map[int64]metrics.CLRBScores // run -> usable query -> scores
	}
	usable := map[string]map[int64]bool{}
	phase := func(rel map[int64]map[int64]bool, name string) scored {
		s := scored{per: map[string]map[int64]metrics.CLRBScores{}}
		for _, r := range in.runs {
			s.per[r] = map[int64]metrics.CLRBScores{}
		}
		usable[name] = map[int64]bool{}
		excluded := []string{}
		for _, q := range in.queries {
			if !in.answered[q] || len(rel[q]) == 0 {
				excluded = append(excluded, queryName(in.attrs, q))
				continue
			}
			usable[name][q] = true
			for _, r := range in.runs {
				s.per[r][q] = metrics.CLRBQuery(in.ranked[r][q], rel[q], o.K)
			}
		}
		sort.Strings(excluded)
		rep.Excluded[name] = excluded
		return s
	}
	b, a := phase(relevantOf(in.gold), "before"), phase(relevantOf(merged), "after")
	for _, q := range in.queries {
		if !usable["before"][q] && !usable["after"][q] {
			rep.ExcludedQueries = append(rep.ExcludedQueries, queryName(in.attrs, q))
		}
	}
	sort.Strings(rep.ExcludedQueries)
	mean := func(s scored, run string, keep func(int64) bool) CLRBPhase {
		var list []metrics.CLRBScores
		for _, q := range in.queries { // in id order: the sums are reproducible
			if sc, ok := s.per[run][q]; ok && keep(q) {
				list = append(list, sc)
			}
		}
		p := CLRBPhase{Queries: len(list)}
		if m, ok := metrics.CLRBMean(list); ok {
			p.Recall, p.DocRecall, p.Precision, p.Hit, p.MRR, p.NDCG = ptr(m.Recall), ptr(m.DocRecall), ptr(m.Precision), ptr(m.Hit), ptr(m.MRR), ptr(m.NDCG)
		}
		return p
	}
	runOf := func(run string, keep func(int64) bool) *CLRBRun {
		r := &CLRBRun{Before: mean(b, run, keep), After: mean(a, run, keep)}
		r.Delta = CLRBPhase{Recall: diff(r.After.Recall, r.Before.Recall), DocRecall: diff(r.After.DocRecall, r.Before.DocRecall),
			Precision: diff(r.After.Precision, r.Before.Precision), Hit: diff(r.After.Hit, r.Before.Hit),
			MRR: diff(r.After.MRR, r.Before.MRR), NDCG: diff(r.After.NDCG, r.Before.NDCG)}
		return r
	}
	all := func(int64) bool { return true }
	for _, r := range in.runs {
		rep.Runs[r] = runOf(r, all)
	}
	for _, m := range CLRBMetrics {
		rep.Rankings[m] = rankBy(in.runs, m, func(run string) *float64 { return rep.Runs[run].Before.value(m) },
			func(run string) *float64 { return rep.Runs[run].After.value(m) })
	}
	rep.Ranking = rep.Rankings[o.RankBy]
	if o.By != "" {
		values := map[string]bool{}
		for _, q := range in.queries {
			values[attrOf(in.attrs[q], o.By)] = true
		}
		by := map[string]map[string]*CLRBRun{}
		for v := range values {
			by[v] = map[string]*CLRBRun{}
			for _, r := range in.runs {
				by[v][r] = runOf(r, func(q int64) bool { return attrOf(in.attrs[q], o.By) == v })
			}
		}
		rep.By = map[string]map[string]map[string]*CLRBRun{o.By: by}
	}
	return rep
}

var clrbLabels = map[string]string{"recall_at_k": "chunk recall", "doc_recall_at_k": "doc recall", "precision_at_k": "precision",
	"hit_at_k": "hit", "mrr": "MRR", "ndcg_at_k": "nDCG"}

func clrbLabel(m string, k int) string {
	if m == "mrr" {
		return "MRR (whole list)"
	}
	return fmt.Sprintf("%s@%d", clrbLabels[m], k)
}

// WriteText renders the report: each metric before → after (Δ) in percent.
func (r *CLRBReport) WriteText(w io.Writer) error {
	expert := "no expert judgments yet"
	if r.Annotator != "" {
		expert = "expert judgments: " + r.Annotator
	}
	over := ""
	if r.Overrides {
		over = " (overriding the gold set)"
	}
	fmt.Fprintf(w, "Retrieval at k=%d with CanLegalRAGBench's definitions (its evaluation/metrics.py) · gold set: %s · %s%s\n", r.K, r.Gold, expert, over)
	fmt.Fprintf(w, "Chunk recall counts chunks: a relevant document retrieved as several chunks counts each time, so it can exceed 100%%.\n")
	fmt.Fprintf(w, "Precision is over the unique documents of the top %d chunks; MRR over the whole list; nDCG binary, its ideal cut at the unique documents.\n", r.K)
	scope := "queries the runs retrieved for"
	if r.Pooled {
		scope = "queries of relevance pools"
	}
	fmt.Fprintf(w, "%d %s (usable: a reference answer and a relevant document); judged %d, added to the gold set %d, dropped from it %d\n\n",
		r.Queries, scope, r.Judgments.Judged, r.Judgments.Added, r.Judgments.Dropped)
	t := newTable(w, append([]string{"run (before → after, Δ)"}, r.runOrder...))
	var head []string
	for _, m := range CLRBMetrics {
		head = append(head, clrbLabel(m, r.K))
	}
	t.row("run (before → after, Δ)", append(head, "queries")...)
	for _, name := range r.runOrder {
		run := r.Runs[name]
		var cells []string
		for _, m := range CLRBMetrics {
			cells = append(cells, fmt.Sprintf("%s → %s (%s)", pctOf(run.Before.value(m)), pctOf(run.After.value(m)), signedPct(run.Delta.value(m))))
		}
		cells = append(cells, fmt.Sprintf("%d → %d", run.Before.Queries, run.After.Queries))
		t.row(name, cells...)
	}
	if err := t.flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	rk := r.Ranking
	swapped := "none"
	if len(rk.Swapped) > 0 {
		var ps []string
		for _, p := range rk.Swapped {
			ps = append(ps, p[0]+" ⇄ "+p[1])
		}
		swapped = strings.Join(ps, ", ")
	}
	fmt.Fprintf(w, "Ranking by %s: before %s; after %s; Kendall's τ %s; swapped: %s\n", clrbLabel(rk.Metric, r.K),
		strings.Join(rk.Before, " > "), strings.Join(rk.After, " > "), coefOf(rk.KendallTau), swapped)
	if len(r.NoReferenceAnswer) > 0 {
		fmt.Fprintf(w, "No reference answer (an accepted gold answer; left out): %d (%s)\n", len(r.NoReferenceAnswer), listNames(r.NoReferenceAnswer))
	}
	for _, phase := range []string{"before", "after"} {
		if ex := r.Excluded[phase]; len(ex) > 0 {
			fmt.Fprintf(w, "Not usable %s (left out of its means): %d (%s)\n", phase, len(ex), listNames(ex))
		}
	}
	if len(r.DocumentLevelRuns) > 0 {
		fmt.Fprintf(w, "No chunk-level list (imported before annotate kept it; scored on the document ranking, import again with --update): %s\n",
			strings.Join(r.DocumentLevelRuns, ", "))
	}
	for attr, groups := range r.By {
		err := writeGroups(w, sortedKeys(groups), r.runOrder, []string{"ndcg_at_k", "recall_at_k"},
			func(m string) string { return fmt.Sprintf("%s by %s", clrbLabel(m, r.K), attr) },
			func(v, name, m string) string {
				run := groups[v][name]
				return fmt.Sprintf("%s → %s (%d)", pctOf(run.Before.value(m)), pctOf(run.After.value(m)), run.After.Queries)
			})
		if err != nil {
			return err
		}
	}
	return nil
}
