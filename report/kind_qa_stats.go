package report

import (
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// The paper's Table 1 (ClaimRAG-LAW): QA pairs and the claims of their
// answers, counted per source and overall. The other kinds' statistics are
// kindStats (kinds.go).

// table1Kinds are reported in Table 1 itself.
var table1Kinds = map[schema.Kind]bool{schema.KindQA: true, schema.KindClaim: true}

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
