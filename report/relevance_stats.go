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

// What `annotate stats` says of relevance pools (CanLegalRAGBench §4.3):
// how many queries have a pool, the pools' sizes, how many pairs the rater
// judged, and the runs they came from. Pool sizes are read from the pairs
// in relevance batches; the judged pairs from the kept counts.

// PoolStats are the relevance pools' statistics.
type PoolStats struct {
	Queries     int       `json:"queries"` // queries with a pool
	Pairs       int       `json:"pairs"`   // (query, document) pairs pooled
	MinSize     *int      `json:"min_size"`
	MedianSize  *float64  `json:"median_size"`
	MaxSize     *int      `json:"max_size"`
	Judged      int       `json:"judged"`       // pooled pairs with the rater's relevance label
	JudgedShare *float64  `json:"judged_share"` // of the pooled pairs; null with none
	Relevant    int       `json:"relevant"`     // of the judged, relevant
	Runs        []RunStat `json:"runs"`
}

// RunStat is a run and the queries it ranks documents for.
type RunStat struct {
	Name    string `json:"name"`
	Queries int    `json:"queries"`
}

// poolStats reads the pools of the database; nil when it has no relevance
// item and no run.
func poolStats(rx *store.ReadTx, rt rater, t *tallies) (*PoolStats, error) {
	sizes, err := rx.PoolSizes()
	if err != nil {
		return nil, err
	}
	runs, err := rx.Runs()
	if err != nil || len(sizes) == 0 && len(runs) == 0 {
		return nil, err
	}
	p := &PoolStats{Queries: len(sizes), Runs: []RunStat{}}
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

// writePools renders the pools' statistics under the relevance kind.
func writePools(w io.Writer, p *PoolStats) {
	if p.Queries > 0 {
		fmt.Fprintf(w, "  pools: %d queries, %d pairs, size %d–%d (median %s); judged %d (%s%%), relevant %d\n",
			p.Queries, p.Pairs, *p.MinSize, *p.MaxSize, trimFloat(*p.MedianSize), p.Judged, pctOf(p.JudgedShare), p.Relevant)
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
