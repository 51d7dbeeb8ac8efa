package report

import (
	"slices"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tally"
)

// StatsReport is `annotate stats`: the paper's Table 1 per source and overall.
type StatsReport struct {
	Annotator   string                  `json:"annotator"`
	Adjudicated bool                    `json:"adjudicated"`
	Sources     map[string]*SourceStats `json:"sources"`
	All         *SourceStats            `json:"all"`
	// UnknownValues counts, per field and value, asked labels whose value is
	// outside the schema: left out of every count above.
	UnknownValues map[string]map[string]int `json:"unknown_values"`
	// NotAsked counts, per field, labels the asked-when rule leaves out
	// (e.g. a persona kept from when the question was valid).
	NotAsked map[string]int `json:"not_asked"`
	// OpenDisagreements counts, per field, the items where annotators
	// disagree and the lead has not decided yet (adjudicated labels only).
	OpenDisagreements map[string]int `json:"open_disagreements,omitempty"`
	// Kinds holds the statistics of the kinds beyond QA pairs and claims
	// (queries, …) that have items.
	Kinds map[string]*KindStats `json:"kinds"`
	// DeclaredFields counts, per field a lead declared on QA pairs or
	// claims (annotate fields add), the rater's labels that count by value
	// (a free-text field's as "given"); absent when none is declared.
	DeclaredFields map[string]map[string]int `json:"declared_fields,omitempty"`

	rows []statsRow // display order, for the text renderer
}

type statsRow struct {
	label string // "GDPR (EN)"
	s     *SourceStats
}

// statsCounts are the kept counts the stats read.
var statsCounts = []string{tally.Items, tally.ItemsBy, tally.Label, tally.NotAsked, tally.Gated, tally.ValidHop, tally.ValidGenerated,
	tally.CategoryChanged, tally.SigmaA, tally.SigmaC, tally.QAWithClaims, tally.Added, tally.OpenDisagreement}

// Stats builds the Table 1 report from the labels sel selects.
func Stats(rx *store.ReadTx, sel Selection) (*StatsReport, error) {
	var rep *StatsReport
	err := func() error {
		rt, err := resolve(rx, sel)
		if err != nil {
			return err
		}
		t, err := loadTallies(rx, statsCounts...)
		if err != nil {
			return err
		}
		rep = computeStats(rt, t)
		return relevanceKindStats(rx, rt, t, rep.Kinds)
	}()
	return rep, err
}

func computeStats(rt rater, t *tallies) *StatsReport {
	rep := &StatsReport{
		Annotator:     rt.name,
		Adjudicated:   rt.adjudicated,
		Sources:       map[string]*SourceStats{},
		UnknownValues: unknownValues(t, rt.id, schema.AllFields()),
		NotAsked:      notAsked(t, rt.id),
		Kinds:         kindStats(rt, t),
	}
	if d := declaredStats(rt, t); len(d) > 0 {
		rep.DeclaredFields = d
	}
	for _, src := range t.sources {
		st := sourceStats(rt, t, src.id, false)
		st.Language = src.language
		rep.Sources[src.name] = st
		rep.rows = append(rep.rows, statsRow{src.label(), st})
	}
	rep.All = sourceStats(rt, t, 0, true)
	rep.rows = append(rep.rows, statsRow{"Total", rep.All})
	if rt.adjudicated {
		rep.OpenDisagreements = openDisagreements(t)
	}
	return rep
}

func sumValues(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// shares divides each count by the whole (nil shares when the whole is 0).
func shares(m map[string]int, whole int) map[string]*float64 {
	out := make(map[string]*float64, len(m))
	for k, v := range m {
		out[k] = ratio(v, whole)
	}
	return out
}

// unknownValues counts, per field and value, a rater's labels that count but
// whose value is outside the schema (free text has no values to be outside).
func unknownValues(t *tallies, r int64, fields []schema.Field) map[string]map[string]int {
	out := map[string]map[string]int{}
	t.each(r, 0, true, tally.Label, func(k tally.Key, n int) {
		f, ok := schema.Lookup(k.A)
		if !ok || f.Marker || len(f.Values) == 0 || slices.Contains(f.Values, k.B) || !slices.ContainsFunc(fields, func(g schema.Field) bool { return g.Name == f.Name }) {
			return
		}
		if out[k.A] == nil {
			out[k.A] = map[string]int{}
		}
		out[k.A][k.B] += n
	})
	return out
}

// notAsked counts, per field, a rater's labels the asked-when rule leaves out.
func notAsked(t *tallies, r int64) map[string]int {
	out := map[string]int{}
	t.each(r, 0, true, tally.NotAsked, func(k tally.Key, n int) { out[k.A] += n })
	return out
}

// openDisagreements counts, per field, the disagreements the lead has not
// decided.
func openDisagreements(t *tallies) map[string]int {
	out := map[string]int{}
	t.each(tally.Anyone, 0, true, tally.OpenDisagreement, func(k tally.Key, n int) { out[k.A] += n })
	return out
}
