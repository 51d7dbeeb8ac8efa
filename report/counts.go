package report

import (
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tally"
)

// tallies are the kept counts a report read, indexed by key.
type tallies struct {
	by      map[tally.Key]int
	sources []source // report rows, in source id order
}

// source is a report row: a source of the database.
type source struct {
	id       int64
	name     string // as in the database ("" shows as "(no source)")
	language string
}

// label is how text output names a source: "GDPR (EN)", like the paper.
func (s source) label() string {
	name := s.name
	if name == "" {
		name = "(no source)"
	}
	if s.language == "" {
		return name
	}
	return name + " (" + strings.ToUpper(s.language) + ")"
}

// allKey is the key of the overall row, next to the sources' names.
const allKey = "all"

// loadTallies reads the counts of the given names and the sources.
func loadTallies(rx *store.ReadTx, names ...string) (*tallies, error) {
	if !slices.Contains(names, tally.Items) {
		names = append(slices.Clip(names), tally.Items) // for the "(no source)" row
	}
	cs, err := rx.Counts(names...)
	if err != nil {
		return nil, err
	}
	srcs, err := rx.Sources()
	if err != nil {
		return nil, err
	}
	t := &tallies{by: make(map[tally.Key]int, len(cs))}
	orphans := false
	for _, c := range cs {
		t.by[c.Key] += c.N
		// Sources are Table 1's: only its kinds' items without one make
		// a "(no source)" row (queries, documents and relevance pairs
		// have none).
		orphans = orphans || c.Source == 0 && c.Name == tally.Items && table1Kinds[schema.Kind(c.A)]
	}
	for _, s := range srcs {
		t.sources = append(t.sources, source{id: s.ID, name: s.Name, language: s.Language})
	}
	if orphans {
		t.sources = append(t.sources, source{id: 0})
	}
	return t, nil
}

// each calls fn for every count of a name and rater in a source (all: any source).
func (t *tallies) each(rater int64, src int64, all bool, name string, fn func(k tally.Key, n int)) {
	for k, n := range t.by {
		if k.Name == name && k.Rater == rater && (all || k.Source == src) {
			fn(k, n)
		}
	}
}

// sum adds the counts of a name and rater in a source (all: every source)
// whose A (and B, when b is not nil) match.
func (t *tallies) sum(rater, src int64, all bool, name string, a string, b *string) int {
	n := 0
	t.each(rater, src, all, name, func(k tally.Key, v int) {
		if k.A == a && (b == nil || k.B == *b) {
			n += v
		}
	})
	return n
}

// ptr is a pointer to a number: a statistic with something to count.
func ptr(x float64) *float64 { return &x }

// ratio is a/b, nil when b is 0.
func ratio(a, b int) *float64 {
	if b == 0 {
		return nil
	}
	return ptr(float64(a) / float64(b))
}

// defined is x when ok, nil when the statistic has nothing to count.
func defined(x float64, ok bool) *float64 {
	if !ok {
		return nil
	}
	return ptr(x)
}
