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

// SourceStats are the Table 1 counts of one source (or of all). The paper's
// columns: ΣQA is QAValid, Σ_A AnswersWithClaims, Σ_C Claims, Valid
// ValidClaims.
type SourceStats struct {
	Language string `json:"language,omitempty"`
	QA       int    `json:"qa"`        // QA pairs imported
	QAJudged int    `json:"qa_judged"` // with a question_validity label
	QAValid  int    `json:"qa_valid"`  // ΣQA: judged valid
	// Over valid pairs: hop, answer correctness, persona and category, with
	// shares (of the valid pairs; null without one). Every class is present.
	Hop               map[string]int      `json:"hop"`
	AnswerCorrectness map[string]int      `json:"answer_correctness"`
	AnswerShare       map[string]*float64 `json:"answer_correctness_share"`
	Persona           map[string]int      `json:"persona"`
	PersonaShare      map[string]*float64 `json:"persona_share"`
	Category          map[string]int      `json:"category"`
	CategoryShare     map[string]*float64 `json:"category_share"`
	// The generator's categories of the same valid pairs, and how many the
	// expert changed (among pairs with a category label).
	GeneratedCategory map[string]int `json:"generated_category"`
	CategoryChanged   int            `json:"category_changed"`
	// Σ_A: answers judged correct (of valid pairs) that have extracted
	// claims; Σ_C: their claims. QAWithClaims and ClaimsExtracted count
	// every pair with claims and every extracted claim, judged or not.
	AnswersWithClaims int `json:"answers_with_claims"`
	Claims            int `json:"claims"`
	QAWithClaims      int `json:"qa_with_claims"`
	ClaimsExtracted   int `json:"claims_extracted"`
	// Claims not asked because of their pair's labels, by reason
	// ("question_validity=invalid", "answer_correctness=incorrect", ...).
	ClaimsNotAsked map[string]int `json:"claims_not_asked"`
	// Over the claims asked: judged (claim_validity), valid (correct), and
	// entailment classes over valid claims.
	ClaimsJudged int            `json:"claims_judged"`
	ValidClaims  int            `json:"valid_claims"`
	Entailment   map[string]int `json:"entailment"`
	// Claims the annotator added because the extractor missed them (and
	// whose addition stands); not in the counts above, which are about the
	// extractor's claims.
	ClaimsAdded int `json:"claims_added"`
}

// statsCounts are the kept counts the stats read.
var statsCounts = []string{tally.Items, tally.ItemsBy, tally.Label, tally.NotAsked, tally.Gated, tally.ValidHop, tally.ValidGenerated,
	tally.CategoryChanged, tally.SigmaA, tally.SigmaC, tally.QAWithClaims, tally.Added, tally.OpenDisagreement}

// Stats builds the Table 1 report from the labels sel selects.
func Stats(s *store.Store, sel Selection) (*StatsReport, error) {
	var rep *StatsReport
	err := s.Read(func(rx *store.ReadTx) error {
		rt, err := resolve(rx, sel)
		if err != nil {
			return err
		}
		t, err := loadTallies(rx, statsCounts...)
		if err != nil {
			return err
		}
		rep = computeStats(rt, t)
		// The relevance kind's items are the pairs an expert judged (a
		// pool's pairs not judged yet are work, not data), shown when there
		// are some or runs.
		js, err := judgmentStats(rx, rt, t)
		if err != nil || js == nil {
			delete(rep.Kinds, string(schema.KindRelevance))
			return err
		}
		ks := kindStatsOf(schema.KindRelevance, js.Pairs, rt, t)
		ks.Judgments = js
		rep.Kinds[string(schema.KindRelevance)] = ks
		return nil
	})
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

func sourceStats(rt rater, t *tallies, src int64, all bool) *SourceStats {
	r := rt.id
	one := func(name, a, b string) int { return t.sum(r, src, all, name, a, &b) }
	anyB := func(name, a string) int { return t.sum(r, src, all, name, a, nil) }
	classes := func(field string) map[string]int {
		f, _ := schema.Lookup(field)
		m := map[string]int{}
		for _, v := range f.Values {
			m[v] = one(tally.Label, field, v)
		}
		return m
	}
	st := &SourceStats{
		QA:                t.sum(tally.Anyone, src, all, tally.Items, string(schema.KindQA), nil),
		QAValid:           one(tally.Label, schema.QuestionValidity, "valid"),
		Hop:               map[string]int{"single": one(tally.ValidHop, "", "single"), "multi": one(tally.ValidHop, "", "multi")},
		AnswerCorrectness: classes(schema.AnswerCorrectness),
		Persona:           classes(schema.Persona),
		Category:          classes(schema.Category),
		GeneratedCategory: map[string]int{},
		CategoryChanged:   anyB(tally.CategoryChanged, ""),
		AnswersWithClaims: anyB(tally.SigmaA, ""),
		Claims:            anyB(tally.SigmaC, ""),
		QAWithClaims:      t.sum(tally.Anyone, src, all, tally.QAWithClaims, "", nil),
		ClaimsExtracted:   t.sum(tally.Anyone, src, all, tally.Items, string(schema.KindClaim), nil),
		ClaimsNotAsked:    map[string]int{},
		Entailment:        classes(schema.Entailment),
		ValidClaims:       one(tally.Label, schema.ClaimValidity, "correct"),
		ClaimsAdded:       anyB(tally.Added, ""),
	}
	st.QAJudged = sumValues(classes(schema.QuestionValidity))
	st.ClaimsJudged = sumValues(classes(schema.ClaimValidity))
	f, _ := schema.Lookup(schema.Category)
	for _, v := range f.Values {
		st.GeneratedCategory[v] = one(tally.ValidGenerated, "", v)
	}
	t.each(r, src, all, tally.Gated, func(k tally.Key, n int) {
		if k.A == string(schema.KindClaim) {
			st.ClaimsNotAsked[k.B] += n
		}
	})
	st.AnswerShare = shares(st.AnswerCorrectness, st.QAValid)
	st.PersonaShare = shares(st.Persona, st.QAValid)
	st.CategoryShare = shares(st.Category, st.QAValid)
	return st
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
