package report

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/annotate-dev/annotate/metrics"
	"github.com/annotate-dev/annotate/store"

	"github.com/annotate-dev/annotate/internal/pytext"
	"github.com/annotate-dev/annotate/internal/suggest"
)

// `annotate ir` (docs/metrics.md, docs/relevance.md; the paper's §4.3,
// Fig. 3 and Table 4): per run, recall@k, precision@k, nDCG@k and MRR@k,
// macro-averaged over the queries with at least one relevant document,
// before (the gold set: qrels) and after the experts' judgments (the gold
// set plus the documents an expert judged relevant; with ExpertOverrides an
// expert's judgment of a gold document replaces the gold one), the
// difference, and how the runs rank before and after.
//
// Queries: those the runs retrieved for (with Pooled, only those of a
// relevance pool: the subset the experts judged). A run with no result for
// one of them scores 0 on it (trec_eval -c). Everything is read in one
// snapshot with a few statements, never one per run or query.

// IROptions are the flags of `annotate ir`.
type IROptions struct {
	K               int
	Runs            []string // none: every run
	By              string   // "", persona, jurisdiction, issue
	Selection       Selection
	Gold            string // the gold set's annotator (default gold)
	ExpertOverrides bool
	Pooled          bool
	RankBy          string // the metric the runs are ranked by (default ndcg)
	// Definitions: DefinitionsTrecEval ("" too) or DefinitionsCLRB (IRCLRB).
	Definitions string
}

// The definitions `annotate ir --definitions` takes.
const (
	DefinitionsTrecEval = "trec_eval"
	DefinitionsCLRB     = "canlegalragbench"
)

// IRByAttrs are the attributes --by takes.
var IRByAttrs = []string{"persona", "jurisdiction", "issue"}

// IRMetrics are the metric names, in the order of the text output.
var IRMetrics = []string{"recall", "precision", "ndcg", "mrr"}

// IRReport is the report; its JSON keys are docs/json.md's.
type IRReport struct {
	K         int    `json:"k"`
	Gold      string `json:"gold"`
	Annotator string `json:"annotator"` // whose judgments are the experts': a name, "adjudicated", or "" for none
	Overrides bool   `json:"expert_overrides"`
	Pooled    bool   `json:"pooled_queries_only"`
	// Runs holds each run's scores before and after, and the difference.
	Runs    map[string]*IRRun `json:"runs"`
	Ranking IRRanking         `json:"ranking"`
	// Rankings ranks the runs by each metric.
	Rankings map[string]IRRanking `json:"rankings"`
	// ExcludedQueries have no relevant document before nor after; Excluded
	// lists, per phase, the queries left out of that phase's averages.
	ExcludedQueries []string            `json:"excluded_queries"`
	Excluded        map[string][]string `json:"excluded"`
	Queries         int                 `json:"queries"` // evaluated or excluded: the runs' queries
	// Judgments counts the experts' judgments read, the documents they
	// added to the gold set and (with overrides) those they took out.
	Judgments IRJudgments `json:"judgments"`
	// By holds the breakdowns (--by): attribute -> value -> run -> scores.
	By map[string]map[string]map[string]*IRRun `json:"by,omitempty"`

	runOrder []string
}

// IRRun is one run's scores.
type IRRun struct {
	Before IRPhase `json:"before"`
	After  IRPhase `json:"after"`
	Delta  IRDelta `json:"delta"`
}

// IRPhase are macro averages over the phase's queries with a relevant
// document (null when there is none).
type IRPhase struct {
	Recall    *float64 `json:"recall"`
	Precision *float64 `json:"precision"`
	NDCG      *float64 `json:"ndcg"`
	MRR       *float64 `json:"mrr"`
	Queries   int      `json:"queries"`
}

// IRDelta is after minus before.
type IRDelta struct {
	Recall    *float64 `json:"recall"`
	Precision *float64 `json:"precision"`
	NDCG      *float64 `json:"ndcg"`
	MRR       *float64 `json:"mrr"`
}

// IRRanking orders the runs by one metric, best first, before and after.
type IRRanking struct {
	Metric     string      `json:"metric"`
	Before     []string    `json:"before"`
	After      []string    `json:"after"`
	KendallTau *float64    `json:"kendall_tau"`
	Swapped    [][2]string `json:"swapped"` // [ahead before, ahead after]
}

// IRJudgments counts what the experts' judgments did.
type IRJudgments struct {
	Judged  int `json:"judged"`
	Added   int `json:"added_to_gold"`
	Dropped int `json:"dropped_from_gold"`
}

// IR computes the report.
func IR(s *store.Store, o IROptions) (*IRReport, error) {
	if o.K < 1 {
		return nil, fmt.Errorf("--k %d: want a cutoff of at least 1", o.K)
	}
	if o.By != "" && !slices.Contains(IRByAttrs, o.By) {
		return nil, fmt.Errorf("--by %q: want %s", o.By, strings.Join(IRByAttrs, ", "))
	}
	if o.RankBy == "" {
		o.RankBy = "ndcg"
	}
	if !slices.Contains(IRMetrics, o.RankBy) {
		return nil, fmt.Errorf("--rank-by %q: want %s", o.RankBy, strings.Join(IRMetrics, ", "))
	}
	if o.Gold == "" {
		o.Gold = "gold"
	}
	var rep *IRReport
	err := s.Read(func(rx *store.ReadTx) error {
		in, err := readIR(rx, o)
		if err != nil {
			return err
		}
		rep = computeIR(in, o)
		return nil
	})
	return rep, err
}

// irInput is what the report reads.
type irInput struct {
	runs     []string
	ranked   map[string]map[int64][]int64 // run -> query -> documents in rank order (top k)
	queries  []int64                      // the runs' queries (or the pooled ones), by id
	attrs    map[int64]*store.Query
	gold     []store.Judgment
	expert   []store.Judgment
	expertBy string
	// With the CanLegalRAGBench definitions: ranked holds the whole
	// chunk-level lists; answered, the queries with a reference answer;
	// documentLevel, the runs with their document ranking only.
	answered      map[int64]bool
	documentLevel []string
}

func readIR(rx *store.ReadTx, o IROptions) (*irInput, error) {
	all, err := rx.Runs()
	if err != nil {
		return nil, err
	}
	var names []string
	for _, r := range all {
		names = append(names, r.Name)
	}
	in := &irInput{ranked: map[string]map[int64][]int64{}}
	switch {
	case len(names) == 0:
		return nil, errors.New("no run in the database: import runs first (annotate import --format trec-run FILE)")
	case len(o.Runs) == 0:
		in.runs = names
	default:
		for _, r := range o.Runs {
			if !slices.Contains(names, r) {
				return nil, fmt.Errorf("no run %q%s (runs: %s)", r, suggest.Hint(r, names), strings.Join(names, ", "))
			}
			if !slices.Contains(in.runs, r) {
				in.runs = append(in.runs, r)
			}
		}
	}
	for _, r := range in.runs {
		in.ranked[r] = map[int64][]int64{}
	}
	seen := map[int64]bool{}
	if o.Definitions == DefinitionsCLRB {
		// The whole chunk-level lists (MRR reads past k).
		err = rx.RunLists(in.runs, func(l store.RunList) {
			in.ranked[l.Run][l.Query] = l.Chunks
			seen[l.Query] = true
			if !l.ChunkLevel && !slices.Contains(in.documentLevel, l.Run) {
				in.documentLevel = append(in.documentLevel, l.Run)
			}
		})
	} else {
		err = rx.RunTops(in.runs, o.K, func(run string, d store.RankedDoc) {
			in.ranked[run][d.Query] = append(in.ranked[run][d.Query], d.Doc)
			seen[d.Query] = true
		})
	}
	if err != nil {
		return nil, err
	}
	if o.Pooled {
		pooled, err := rx.PooledQueries()
		if err != nil {
			return nil, err
		}
		seen = map[int64]bool{}
		for _, q := range pooled {
			seen[q] = true
		}
	}
	for q := range seen {
		in.queries = append(in.queries, q)
	}
	slices.Sort(in.queries)
	if in.attrs, err = rx.QueryAttrs(in.queries); err != nil {
		return nil, err
	}
	if o.Definitions == DefinitionsCLRB {
		golds, err := rx.AcceptedGoldAnswers(in.queries)
		if err != nil {
			return nil, err
		}
		in.answered = map[int64]bool{}
		for q, a := range golds {
			in.answered[q] = !pytext.Blank(a) // is_query_usable's str(answer).strip()
		}
	}
	if in.gold, err = rx.Judgments(store.LabelSet{Annotator: o.Gold}); err != nil {
		return nil, err
	}
	who, err := expertRater(rx, o.Selection)
	if err != nil {
		return nil, err
	}
	if who != nil {
		in.expertBy = who.name
		set := store.LabelSet{Annotator: who.name, Adjudicated: who.adjudicated}
		if in.expert, err = rx.Judgments(set); err != nil {
			return nil, err
		}
	}
	return in, nil
}

// expertRater applies the reports' selection rule; with nothing selected
// and no annotator with labels yet, there are no expert judgments (the
// report is the gold set's alone), not an error.
func expertRater(rx *store.ReadTx, sel Selection) (*rater, error) {
	if sel.Annotator == "" && !sel.Adjudicated {
		p, err := loadPeople(rx)
		if err != nil {
			return nil, err
		}
		if len(p.withLabels()) == 0 {
			return nil, nil
		}
	}
	r, err := resolve(rx, sel)
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// MergeJudgments is the gold set after the experts' judgments: the gold
// judgments plus the documents an expert judged relevant that the gold set
// does not hold as relevant; with overrides, an expert's judgment of a gold
// document replaces the gold one (a relevant gold document judged not
// relevant is dropped: its gain becomes 0). It says how many documents were
// added and dropped. The result is in (query, document) order.
func MergeJudgments(gold, expert []store.Judgment, overrides bool) (after []store.Judgment, added, dropped int) {
	type pair struct{ q, d int64 }
	at := map[pair]int{}
	after = append(after, gold...)
	for i, j := range after {
		at[pair{j.Query, j.Doc}] = i
	}
	for _, j := range expert {
		i, inGold := at[pair{j.Query, j.Doc}]
		var g *store.Judgment
		if inGold {
			g = &after[i]
		}
		stands, add, drop := ExpertStands(g, j, overrides)
		if add {
			added++
		}
		if drop {
			dropped++
		}
		if !stands {
			continue
		}
		if inGold {
			after[i] = j
		} else {
			at[pair{j.Query, j.Doc}] = len(after)
			after = append(after, j)
		}
	}
	sort.Slice(after, func(a, b int) bool {
		if after[a].Query != after[b].Query {
			return after[a].Query < after[b].Query
		}
		return after[a].Doc < after[b].Doc
	})
	return after, added, dropped
}

// ExpertStands says whether an expert's judgment of a pair takes the place
// of the gold set's (gold nil: the gold set has none) in MergeJudgments,
// and whether it adds a relevant document or drops one.
func ExpertStands(gold *store.Judgment, expert store.Judgment, overrides bool) (stands, added, dropped bool) {
	goldRelevant := gold != nil && gold.Gain() > 0
	switch {
	case expert.Gain() > 0 && !goldRelevant:
		return true, true, false // a relevant document the gold set lacks
	case !overrides:
		return false, false, false // the gold set's own judgments stand
	case expert.Gain() <= 0 && goldRelevant:
		return true, false, true
	case expert.Gain() <= 0:
		return false, false, false
	}
	return true, false, false
}

// gainsOf builds query -> document -> gain from judgments.
func gainsOf(js []store.Judgment) map[int64]map[int64]int {
	out := map[int64]map[int64]int{}
	for _, j := range js {
		if out[j.Query] == nil {
			out[j.Query] = map[int64]int{}
		}
		out[j.Query][j.Doc] = j.Gain()
	}
	return out
}

func computeIR(in *irInput, o IROptions) *IRReport {
	rep := &IRReport{K: o.K, Gold: o.Gold, Annotator: in.expertBy, Overrides: o.ExpertOverrides, Pooled: o.Pooled,
		Runs: map[string]*IRRun{}, Rankings: map[string]IRRanking{}, Excluded: map[string][]string{},
		ExcludedQueries: []string{}, Queries: len(in.queries), runOrder: in.runs}
	before := gainsOf(in.gold)
	merged, added, dropped := MergeJudgments(in.gold, in.expert, o.ExpertOverrides)
	after := gainsOf(merged)
	rep.Judgments = IRJudgments{Judged: len(in.expert), Added: added, Dropped: dropped}
	// Per phase: each run's scores per query with a relevant document.
	type scored struct {
		per     map[string]map[int64]metrics.IRScores // run -> query -> scores
		queries []int64
	}
	phase := func(gains map[int64]map[int64]int, name string) scored {
		s := scored{per: map[string]map[int64]metrics.IRScores{}}
		for _, r := range in.runs {
			s.per[r] = map[int64]metrics.IRScores{}
		}
		excluded := []string{}
		for _, q := range in.queries {
			// Whether a query counts depends on its judgments, not on a run.
			if _, ok := metrics.EvalQuery(nil, gains[q], o.K); !ok {
				excluded = append(excluded, queryName(in.attrs, q))
				continue
			}
			s.queries = append(s.queries, q)
			for _, r := range in.runs {
				s.per[r][q], _ = metrics.EvalQuery(in.ranked[r][q], gains[q], o.K)
			}
		}
		sort.Strings(excluded)
		rep.Excluded[name] = excluded
		return s
	}
	b, a := phase(before, "before"), phase(after, "after")
	for _, q := range in.queries {
		_, inB := b.per[in.runs[0]][q]
		_, inA := a.per[in.runs[0]][q]
		if !inB && !inA {
			rep.ExcludedQueries = append(rep.ExcludedQueries, queryName(in.attrs, q))
		}
	}
	sort.Strings(rep.ExcludedQueries)
	mean := func(s scored, run string, keep func(q int64) bool) IRPhase {
		var list []metrics.IRScores
		for _, q := range s.queries {
			if keep(q) {
				list = append(list, s.per[run][q])
			}
		}
		m, ok := metrics.Mean(list)
		p := IRPhase{Queries: len(list)}
		if ok {
			p.Recall, p.Precision, p.NDCG, p.MRR = ptr(m.Recall), ptr(m.Precision), ptr(m.NDCG), ptr(m.MRR)
		}
		return p
	}
	runOf := func(run string, keep func(q int64) bool) *IRRun {
		r := &IRRun{Before: mean(b, run, keep), After: mean(a, run, keep)}
		r.Delta = IRDelta{diff(r.After.Recall, r.Before.Recall), diff(r.After.Precision, r.Before.Precision),
			diff(r.After.NDCG, r.Before.NDCG), diff(r.After.MRR, r.Before.MRR)}
		return r
	}
	all := func(int64) bool { return true }
	for _, r := range in.runs {
		rep.Runs[r] = runOf(r, all)
	}
	for _, m := range IRMetrics {
		rep.Rankings[m] = rankRuns(rep, in.runs, m)
	}
	rep.Ranking = rep.Rankings[o.RankBy]
	if o.By != "" {
		values := map[string]bool{}
		for _, q := range in.queries {
			values[attrOf(in.attrs[q], o.By)] = true
		}
		by := map[string]map[string]*IRRun{}
		for v := range values {
			by[v] = map[string]*IRRun{}
			for _, r := range in.runs {
				by[v][r] = runOf(r, func(q int64) bool { return attrOf(in.attrs[q], o.By) == v })
			}
		}
		rep.By = map[string]map[string]map[string]*IRRun{o.By: by}
	}
	return rep
}

// rankRuns orders the runs by a metric before and after (best first, ties
// by name) and compares the orders.
func rankRuns(rep *IRReport, runs []string, metric string) IRRanking {
	return rankBy(runs, metric, func(run string) *float64 { return irValue(rep.Runs[run].Before, metric) },
		func(run string) *float64 { return irValue(rep.Runs[run].After, metric) })
}

// rankBy orders runs by a metric's value before and after (best first,
// ties by name, undefined last) and compares the orders.
func rankBy(runs []string, metric string, beforeOf, afterOf func(run string) *float64) IRRanking {
	order := func(value func(string) *float64) []string {
		out := slices.Clone(runs)
		sort.SliceStable(out, func(i, j int) bool {
			x, y := value(out[i]), value(out[j])
			switch {
			case x == nil || y == nil:
				return x != nil && y == nil
			case *x != *y:
				return *x > *y
			}
			return out[i] < out[j]
		})
		return out
	}
	rk := IRRanking{Metric: metric, Before: order(beforeOf), After: order(afterOf), Swapped: [][2]string{}}
	var xs, ys []float64
	for _, r := range runs {
		x, y := beforeOf(r), afterOf(r)
		if x != nil && y != nil {
			xs, ys = append(xs, *x), append(ys, *y)
		}
	}
	if len(xs) == len(runs) {
		tau, ok := metrics.KendallTau(xs, ys)
		rk.KendallTau = defined(tau, ok)
		for i, ri := range rk.Before {
			for _, rj := range rk.Before[i+1:] {
				bi, bj := *beforeOf(ri), *beforeOf(rj)
				ai, aj := *afterOf(ri), *afterOf(rj)
				if bi > bj && aj > ai {
					rk.Swapped = append(rk.Swapped, [2]string{ri, rj})
				}
			}
		}
	}
	return rk
}

func diff(a, b *float64) *float64 {
	if a == nil || b == nil {
		return nil
	}
	return ptr(*a - *b)
}

func attrOf(q *store.Query, attr string) string {
	if q == nil {
		return ""
	}
	switch attr {
	case "persona":
		return q.Persona
	case "jurisdiction":
		return q.Jurisdiction
	}
	return q.Issue
}

func queryName(attrs map[int64]*store.Query, id int64) string {
	if q := attrs[id]; q != nil {
		return q.ID
	}
	return fmt.Sprintf("#%d", id)
}

// irValue is a metric of a phase.
func irValue(p IRPhase, metric string) *float64 {
	return map[string]*float64{"recall": p.Recall, "precision": p.Precision, "ndcg": p.NDCG, "mrr": p.MRR}[metric]
}

func deltaValue(d IRDelta, metric string) *float64 {
	return map[string]*float64{"recall": d.Recall, "precision": d.Precision, "ndcg": d.NDCG, "mrr": d.MRR}[metric]
}
