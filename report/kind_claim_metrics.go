package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/metrics"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tally"

	"github.com/annotate-dev/annotate/internal/suggest"
)

// DefaultSystem is the system `annotate metrics` compares against.
const DefaultSystem = "refchecker"

// MetricsOptions are the flags of `annotate metrics`.
type MetricsOptions struct {
	Selection
	System string // "" : DefaultSystem
	// Extractor restricts the system's side of the response level to the
	// claims of one extractor (RefChecker's <extractor>_response_kg); "":
	// every claim.
	Extractor string
	CI        bool // bootstrap intervals for kappa and F1
	// IncludeSuggested scores the system even against labels made with its
	// own prediction preselected (refused otherwise: SuggestedError).
	IncludeSuggested bool
}

// MetricsReport is `annotate metrics`: the paper's Section 4.3 and Table 3,
// per source and overall ("all").
type MetricsReport struct {
	Annotator    string                   `json:"annotator"`
	Adjudicated  bool                     `json:"adjudicated"`
	System       string                   `json:"system"`
	Extractor    string                   `json:"extractor,omitempty"`
	Extraction   map[string]*Extraction   `json:"extraction"`
	Recall       map[string]*Recall       `json:"extraction_recall"`
	Verification map[string]*Verification `json:"verification"`
	// ResponseLevel is RefChecker's own meta-evaluation, per source, when
	// the system judged claims of responses the expert judged.
	ResponseLevel map[string]*ResponseLevel `json:"response_level"`
	// UnknownValues counts asked labels with values outside the schema, per
	// field and value; UnknownPredictions the system's values outside the
	// classes among the claims verified (the confusion's "other" column).
	UnknownValues      map[string]map[string]int `json:"unknown_values"`
	UnknownPredictions map[string]int            `json:"unknown_predictions"`
	NotAsked           map[string]int            `json:"not_asked"`
	OpenDisagreements  map[string]int            `json:"open_disagreements,omitempty"`
	Bootstrap          *BootstrapInfo            `json:"bootstrap,omitempty"`
	// Systems lists every system with predictions, to help a mistyped --system.
	Systems []string `json:"systems"`
	// Extractors lists the extractors of the claims the system judged in
	// responses the expert judged ("" for claims whose input named none).
	Extractors []string `json:"extractors"`
	// Suggested counts the labels read that were made with a system's
	// prediction preselected, by system (suggested.go); empty: all blind.
	Suggested map[string]int `json:"suggested_labels"`

	rows []string // source keys in display order, "all" last
	show map[string]string
}

// Extraction is the claim extraction accuracy of one source: claims the
// expert labelled correct over extracted claims with a claim_validity label.
type Extraction struct {
	Claims    int         `json:"claims"`    // extracted claims
	NotAsked  int         `json:"not_asked"` // of answers judged unusable (the protocol asks nothing of them)
	Judged    int         `json:"judged"`
	Valid     int         `json:"valid"`
	Accuracy  *float64    `json:"accuracy"`
	CI95      *[2]float64 `json:"ci95"` // Wilson
	NotJudged int         `json:"not_judged"`
	Unknown   int         `json:"unknown_value"` // claim_validity outside the schema
}

// Recall is the claim extraction recall of one source. Its answers are the
// paper's Σ_A, answers judged correct (or not under review) that have
// extracted claims, of them those the expert checked for missed claims; the
// correct extracted claims and the claims the expert added are those of the
// same answers.
type Recall struct {
	Answers          int         `json:"answers"`                // answers of Σ_A marked missed_claims_checked
	NotChecked       int         `json:"answers_not_checked"`    // answers of Σ_A not marked: left out
	NoClaims         int         `json:"answers_without_claims"` // marked answers without an extracted claim: left out
	CorrectExtracted int         `json:"correct_extracted"`      // claims judged correct of those answers
	Added            int         `json:"added"`                  // claims added to those answers
	Recall           *float64    `json:"recall"`
	CI95             *[2]float64 `json:"ci95"` // Wilson
}

// Verification scores the system's entailment labels against the expert's
// on one source.
type Verification struct {
	N          int                       `json:"n"`
	Classes    map[string]*ClassScores   `json:"classes"`
	Confusion  map[string]map[string]int `json:"confusion"` // expert -> system -> count; column "other" always present
	Accuracy   *float64                  `json:"accuracy"`
	MacroF1    *float64                  `json:"macro_f1"`
	WeightedF1 *float64                  `json:"weighted_f1"`
	Kappa      *float64                  `json:"kappa"`
	Macro      Averages                  `json:"macro"`
	Weighted   Averages                  `json:"weighted"`
	LeftOut    LeftOut                   `json:"left_out"`
	KappaCI95  *[2]float64               `json:"kappa_ci95,omitempty"`
	MacroF1CI  *[2]float64               `json:"macro_f1_ci95,omitempty"`
	classes    []string
	counts     metrics.Confusion
}

// LeftOut says why claims of a source are not in the verification: each
// claim is counted at the first step it fails, in this order.
type LeftOut struct {
	Claims            int `json:"claims"`    // extracted claims of the source
	NotAsked          int `json:"not_asked"` // of answers judged unusable
	NotJudged         int `json:"not_judged"`
	UnknownValidity   int `json:"unknown_claim_validity"`
	JudgedIncorrect   int `json:"judged_incorrect"`
	NoEntailment      int `json:"no_entailment"`
	UnknownEntailment int `json:"unknown_entailment"`
	NoPrediction      int `json:"no_prediction"`
}

// metricsCounts are the kept counts metrics reads.
var metricsCounts = []string{tally.Items, tally.Gated, tally.Step, tally.Pair, tally.Label, tally.NotAsked,
	tally.RecallAnswers, tally.RecallNotChecked, tally.RecallNoClaims, tally.RecallCorrect, tally.RecallAdded, tally.Predictions,
	tally.Response, tally.ExtractorRan, tally.OpenDisagreement}

// Metrics builds the extraction and verification report.
func Metrics(rx *store.ReadTx, o MetricsOptions) (*MetricsReport, error) {
	if o.System == "" {
		o.System = DefaultSystem
	}
	var rep *MetricsReport
	err := func() error {
		rt, err := resolve(rx, o.Selection)
		if err != nil {
			return err
		}
		counts, err := rx.SuggestedLabels()
		if err != nil {
			return err
		}
		suggested := suggestedOf(counts, rt)
		if n := suggested[o.System]; n > 0 && !o.IncludeSuggested {
			return &SuggestedError{System: o.System, N: n}
		}
		t, err := loadTallies(rx, metricsCounts...)
		if err != nil {
			return err
		}
		rep = computeMetrics(rt, t, o)
		rep.Suggested = suggested
		return checkExtractor(rep, t, o)
	}()
	return rep, err
}

// checkExtractor refuses an --extractor that ran on no response, and a
// system with no prediction at all unless the extractor found nothing
// anywhere: then every checker judges its responses alike (factual, rate
// 0), and corr.py takes any --checker.
func checkExtractor(rep *MetricsReport, t *tallies, o MetricsOptions) error {
	if o.Extractor == "" {
		return nil
	}
	ran := map[string]bool{} // extractor -> gave claims somewhere
	var names []string
	t.each(tally.Anyone, 0, true, tally.ExtractorRan, func(k tally.Key, _ int) {
		if _, ok := ran[k.A]; !ok {
			names = append(names, k.A)
		}
		ran[k.A] = ran[k.A] || k.B == "claims"
	})
	slices.Sort(names)
	claims, ok := ran[o.Extractor]
	switch {
	case !ok:
		return fmt.Errorf("--extractor %s: no response was checked with that extractor's claims%s (extractors: %s)",
			o.Extractor, suggest.Hint(o.Extractor, names), listOr(names, "none"))
	case claims && !slices.Contains(rep.Systems, o.System):
		return fmt.Errorf("no system %q%s (systems: %s): extractor %s gave claims, and that system judged none of them",
			o.System, suggest.Hint(o.System, rep.Systems), listOr(rep.Systems, "none"), o.Extractor)
	}
	return nil
}

func computeMetrics(rt rater, t *tallies, o MetricsOptions) *MetricsReport {
	rep := &MetricsReport{
		Annotator:          rt.name,
		Adjudicated:        rt.adjudicated,
		System:             o.System,
		Extractor:          o.Extractor,
		Extraction:         map[string]*Extraction{},
		Recall:             map[string]*Recall{},
		Verification:       map[string]*Verification{},
		ResponseLevel:      map[string]*ResponseLevel{},
		UnknownValues:      unknownValues(t, rt.id, schema.Fields(schema.KindClaim)),
		UnknownPredictions: map[string]int{},
		NotAsked:           notAsked(t, rt.id),
		Systems:            []string{}, // [] rather than null in JSON
		show:               map[string]string{},
	}
	systems := map[string]bool{}
	t.each(tally.Anyone, 0, true, tally.Predictions, func(k tally.Key, _ int) {
		if k.B == schema.Entailment {
			systems[k.A] = true
		}
	})
	for s := range systems {
		rep.Systems = append(rep.Systems, s)
	}
	slices.Sort(rep.Systems)
	if o.CI {
		rep.Bootstrap = &BootstrapInfo{Replicates: BootstrapReplicates, Seed: BootstrapSeed}
	}
	if rt.adjudicated {
		rep.OpenDisagreements = openDisagreements(t)
	}
	extractors := map[string]bool{}
	add := func(key, show string, src int64, all bool) {
		rep.rows = append(rep.rows, key)
		rep.show[key] = show
		rep.Extraction[key] = extraction(rt, t, src, all)
		rep.Recall[key] = recall(rt, t, src, all)
		rep.Verification[key] = verification(rt, t, src, all, o, rep.UnknownPredictions, all)
		if rl := responseLevel(rt, t, src, all, o.System, o.Extractor, extractors); rl != nil {
			rep.ResponseLevel[key] = rl
		}
	}
	for _, src := range t.sources {
		add(src.name, src.label(), src.id, false)
	}
	add(allKey, "Total", 0, true)
	rep.Extractors = []string{}
	for x := range extractors {
		rep.Extractors = append(rep.Extractors, x)
	}
	slices.Sort(rep.Extractors)
	return rep
}

// claimAccounts are the counts both extraction and verification start from.
type claimAccounts struct {
	claims, notAsked int
	steps            map[string]int
}

func claimCounts(rt rater, t *tallies, src int64, all bool) claimAccounts {
	a := claimAccounts{
		claims: t.sum(tally.Anyone, src, all, tally.Items, string(schema.KindClaim), nil),
		steps:  map[string]int{},
	}
	a.notAsked = t.sum(rt.id, src, all, tally.Gated, string(schema.KindClaim), nil)
	t.each(rt.id, src, all, tally.Step, func(k tally.Key, n int) { a.steps[k.B] += n })
	return a
}

func extraction(rt rater, t *tallies, src int64, all bool) *Extraction {
	a := claimCounts(rt, t, src, all)
	e := &Extraction{Claims: a.claims}
	e.Unknown = a.steps[tally.StepUnknownValidity]
	e.Valid = t.sum(rt.id, src, all, tally.Label, schema.ClaimValidity, strPtr("correct"))
	e.Judged = e.Valid + t.sum(rt.id, src, all, tally.Label, schema.ClaimValidity, strPtr("incorrect"))
	e.NotAsked = a.notAsked
	e.NotJudged = e.Claims - e.NotAsked - e.Judged - e.Unknown
	e.Accuracy = ratio(e.Valid, e.Judged)
	e.CI95 = wilson(e.Valid, e.Judged)
	return e
}

func recall(rt rater, t *tallies, src int64, all bool) *Recall {
	r := &Recall{
		Answers:          t.sum(rt.id, src, all, tally.RecallAnswers, "", nil),
		NotChecked:       t.sum(rt.id, src, all, tally.RecallNotChecked, "", nil),
		NoClaims:         t.sum(rt.id, src, all, tally.RecallNoClaims, "", nil),
		CorrectExtracted: t.sum(rt.id, src, all, tally.RecallCorrect, "", nil),
		Added:            t.sum(rt.id, src, all, tally.RecallAdded, "", nil),
	}
	r.Recall = ratio(r.CorrectExtracted, r.CorrectExtracted+r.Added)
	r.CI95 = wilson(r.CorrectExtracted, r.CorrectExtracted+r.Added)
	return r
}

// verification scores the system against the rater on the claims ready for
// it; unknown collects the system's values outside the classes (overall row).
func verification(rt rater, t *tallies, src int64, all bool, o MetricsOptions, unknown map[string]int, overall bool) *Verification {
	a := claimCounts(rt, t, src, all)
	classes := slices.Clone(schemaValues(schema.Entailment))
	k := len(classes)
	cells := pairCells{}
	t.each(rt.id, src, all, tally.Pair, func(key tally.Key, n int) {
		if key.A != o.System {
			return
		}
		expert, system, _ := strings.Cut(key.B, "|")
		tc := slices.Index(classes, expert)
		pc := slices.Index(classes, system)
		if pc < 0 {
			pc = metrics.Other
			if overall {
				unknown[system] += n
			}
		}
		cells[[2]int{tc, pc}] += n
	})
	cm := cells.confusion(k)
	r := cm.Report()
	n := r.N
	lo := LeftOut{
		Claims:            a.claims,
		NotAsked:          a.notAsked,
		UnknownValidity:   a.steps[tally.StepUnknownValidity],
		JudgedIncorrect:   a.steps[tally.StepJudgedIncorrect],
		NoEntailment:      a.steps[tally.StepNoEntailment],
		UnknownEntailment: a.steps[tally.StepUnknownEntailment],
		NoPrediction:      a.steps[tally.StepReady] - n,
	}
	judged := 0
	for _, v := range a.steps {
		judged += v
	}
	lo.NotJudged = a.claims - lo.NotAsked - judged
	v := &Verification{
		N:          n,
		Classes:    classScores(r, classes),
		Confusion:  confusionTable(cm, classes),
		Accuracy:   defined(r.Accuracy, n > 0),
		MacroF1:    defined(r.Macro.F1, n > 0),
		WeightedF1: defined(r.Weighted.F1, n > 0),
		Kappa:      defined(r.Kappa, cm.KappaDefined()),
		Macro:      Averages{r.Macro.Precision, r.Macro.Recall, r.Macro.F1},
		Weighted:   Averages{r.Weighted.Precision, r.Weighted.Recall, r.Weighted.F1},
		LeftOut:    lo,
		classes:    classes,
		counts:     cm,
	}
	if o.CI && n > 0 {
		truth, pred := cells.expand()
		bootstrapVerification(v, pairs{truth, pred}, k)
	}
	return v
}
