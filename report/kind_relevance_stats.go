package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tally"
)

// What `annotate stats` says of relevance judgments (CanLegalRAGBench
// §4.3), drawn from the judgments themselves, not from the pools that
// asked for them (a pool is the lead's work plan: an export leaves it out,
// the judgments stay): how many queries have a pair an expert judged, how
// many pairs each, how many the rater judged and found relevant, and the
// runs. The sizes are read from the pairs' labels (an expert's: any
// annotator's but the gold set's, or adjudicated); the rater's judgments
// from the kept counts.

// relevanceKindStats puts the relevance kind's statistics in kinds: its
// items are the pairs an expert judged (a pool's pairs not judged yet are
// work, not data), shown when there are some or runs.
func relevanceKindStats(rx *store.ReadTx, rt rater, t *tallies, kinds map[string]*KindStats) error {
	js, err := judgmentStats(rx, rt, t)
	if err != nil || js == nil {
		delete(kinds, string(schema.KindRelevance))
		return err
	}
	ks := kindStatsOf(schema.KindRelevance, js.Pairs, rt, t)
	ks.Judgments = js
	kinds[string(schema.KindRelevance)] = ks
	return nil
}

// JudgmentStats are the relevance judgments' statistics.
type JudgmentStats struct {
	Queries     int       `json:"queries"` // queries with a pair an expert judged
	Pairs       int       `json:"pairs"`   // (query, document) pairs an expert judged
	MinSize     *int      `json:"min_size"`
	MedianSize  *float64  `json:"median_size"`
	MaxSize     *int      `json:"max_size"`
	Judged      int       `json:"judged"`       // pairs with the rater's relevance label
	JudgedShare *float64  `json:"judged_share"` // of the pairs; null with none
	Relevant    int       `json:"relevant"`     // of the judged, relevant
	Runs        []RunStat `json:"runs"`
}

// RunStat is a run and the queries it ranks documents for.
type RunStat struct {
	Name    string `json:"name"`
	Queries int    `json:"queries"`
}

// judgmentStats reads the relevance judgments of the database; nil when no
// expert judged a pair and there is no run.
func judgmentStats(rx *store.ReadTx, rt rater, t *tallies) (*JudgmentStats, error) {
	sizes, err := rx.JudgedSizes()
	if err != nil {
		return nil, err
	}
	runs, err := rx.Runs()
	if err != nil || len(sizes) == 0 && len(runs) == 0 {
		return nil, err
	}
	p := &JudgmentStats{Queries: len(sizes), Runs: []RunStat{}}
	for _, r := range runs {
		p.Runs = append(p.Runs, RunStat{r.Name, r.Queries})
	}
	if len(sizes) > 0 {
		slices.Sort(sizes)
		for _, n := range sizes {
			p.Pairs += n
		}
		lo, hi := sizes[0], sizes[len(sizes)-1]
		p.MinSize, p.MaxSize = &lo, &hi
		mid := len(sizes) / 2
		med := float64(sizes[mid])
		if len(sizes)%2 == 0 {
			med = float64(sizes[mid-1]+sizes[mid]) / 2
		}
		p.MedianSize = &med
	}
	for _, v := range []string{schema.Relevant, schema.NotRelevant} {
		n := t.sum(rt.id, 0, true, tally.Label, schema.Relevance, strPtr(v))
		p.Judged += n
		if v == schema.Relevant {
			p.Relevant = n
		}
	}
	p.JudgedShare = ratio(p.Judged, p.Pairs)
	return p, nil
}

// writeJudgments renders the judgments' statistics under the relevance kind.
func writeJudgments(w io.Writer, p *JudgmentStats) {
	if p.Queries > 0 {
		fmt.Fprintf(w, "  judged by experts: %s, %s, %d–%d a query (median %s); by this rater %d (%s%%), relevant %d\n",
			count(p.Queries, "query"), count(p.Pairs, "pair"), *p.MinSize, *p.MaxSize, trimFloat(*p.MedianSize), p.Judged, pctOf(p.JudgedShare), p.Relevant)
	}
	if len(p.Runs) > 0 {
		var parts []string
		for _, r := range p.Runs {
			parts = append(parts, fmt.Sprintf("%s (%d queries)", r.Name, r.Queries))
		}
		fmt.Fprintf(w, "  runs: %s\n", strings.Join(parts, ", "))
	}
}

func trimFloat(x float64) string {
	return strings.TrimSuffix(fmt.Sprintf("%.1f", x), ".0")
}
