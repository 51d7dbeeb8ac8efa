package report

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/internal/suggest"
	"github.com/annotate-dev/annotate/metrics"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tally"
)

// The generation report (annotate gen, CanLegalRAGBench §5 and Appendix E):
// per system and condition, the expert's accuracy (claims supported by the
// accepted gold answer / claims judged) and groundedness (claims grounded in
// the documents / claims judged) with Wilson intervals, next to the
// automatic judge's rates over every claim; the judge against the expert per
// field; the distribution of error categories, as shares of categorised
// claims and of assignments (a claim may carry several categories: 25
// claims, one of them in two categories, are 26 assignments); the bounds of
// the hallucination rate; the answers' lengths. Everything is read off the
// kept counts (package tally, kind_gen_claim.go).

// GenOptions selects the labels and the claims.
type GenOptions struct {
	Selection
	Judge     string // the system whose verdicts are the automatic judge (default "judge")
	By        string // "", "persona" or "jurisdiction"
	System    string // only this system ("" : all)
	Condition string // only this condition ("" : all)
	// RateFrom chooses the not-grounded rate of the bounds: "judge" (the
	// paper's: the judge's rate over every claim, since the categorised
	// claims are a sample of what it flagged), "expert" (the expert's rate
	// over the claims they judged), or "" : the judge's when it has
	// verdicts on groundedness, else the expert's.
	RateFrom string
}

// GenReport is the report; its JSON keys are docs/json.md's.
type GenReport struct {
	Annotator string `json:"annotator"`
	Judge     string `json:"judge"`
	// Systems: system -> condition -> scores.
	Systems           map[string]map[string]*GenCell `json:"systems"`
	JudgeVsExpert     map[string]*JudgeAgreement     `json:"judge_vs_expert"` // field -> agreement
	Errors            *ErrorDistribution             `json:"errors"`
	HallucinationRate *HallucinationRate             `json:"hallucination_rate"`
	AnswerLengths     AnswerLengths                  `json:"answer_lengths"`
	// By: attribute -> value -> system -> condition -> scores (--by).
	By map[string]map[string]map[string]map[string]*GenCell `json:"by,omitempty"`
	// UnknownCategories: error categories outside the taxonomy in force
	// (kept from a file or an older taxonomy), with their claims; they are
	// in the distribution with no group.
	UnknownCategories map[string]int `json:"unknown_categories"`
	taxonomy          []schema.ErrorKind
}

// GenCell is one system in one condition.
type GenCell struct {
	Answers int `json:"answers"`
	Claims  int `json:"claims"`
	// Judged is the claims the expert judged for accuracy (accuracy_support
	// labelled); GroundedJudged those judged for groundedness.
	Judged            int                `json:"judged"`
	Supported         int                `json:"supported"`
	Accuracy          *float64           `json:"accuracy"`
	AccuracyCI        *[2]float64        `json:"accuracy_ci95"`
	GroundedJudged    int                `json:"grounded_judged"`
	Grounded          int                `json:"grounded"`
	Groundedness      *float64           `json:"groundedness"`
	GroundednessCI    *[2]float64        `json:"groundedness_ci95"`
	Judge             JudgeRates         `json:"judge"`
	MeanChars         *float64           `json:"mean_answer_chars"`
	Errors            *ErrorDistribution `json:"errors"`
	HallucinationRate *HallucinationRate `json:"hallucination_rate"`
	judgeSupported    int
	judgeGrounded     int
}

// JudgeRates are the automatic judge's accuracy and groundedness over every
// claim it gave a verdict on.
type JudgeRates struct {
	AccuracyJudged int      `json:"accuracy_judged"`
	Accuracy       *float64 `json:"accuracy"`
	GroundedJudged int      `json:"grounded_judged"`
	Groundedness   *float64 `json:"groundedness"`
}

// JudgeAgreement is the judge against the expert on one field, over the
// claims with both a label and a verdict (rows expert, columns judge).
type JudgeAgreement struct {
	N          int                       `json:"n"`
	Classes    map[string]*ClassScores   `json:"classes"`
	Confusion  map[string]map[string]int `json:"confusion"`
	Accuracy   *float64                  `json:"accuracy"`
	MacroF1    *float64                  `json:"macro_f1"`
	WeightedF1 *float64                  `json:"weighted_f1"`
	Kappa      *float64                  `json:"kappa"`
	classes    []string
	counts     metrics.Confusion
}

// ErrorDistribution is how categorised claims spread over the categories
// and their groups.
type ErrorDistribution struct {
	Claims      int                    `json:"claims"`      // claims with at least one category
	Assignments int                    `json:"assignments"` // (claim, category) pairs
	Categories  map[string]*ErrorShare `json:"categories"`
	Groups      map[string]*ErrorShare `json:"groups"`
}

// ErrorShare is one category or group: the claims in it (a claim counts
// once per group however many of the group's categories it has), its
// assignments, and their shares of the categorised claims and of all
// assignments.
type ErrorShare struct {
	Group              string   `json:"group,omitempty"`
	Label              string   `json:"label,omitempty"`
	Claims             int      `json:"claims"`
	Assignments        int      `json:"assignments"`
	ShareOfClaims      *float64 `json:"share_of_claims"`
	ShareOfAssignments *float64 `json:"share_of_assignments"`
}

// HallucinationRate bounds the share of claims that are hallucinations
// (Appendix E.3): the upper bound takes every ungrounded claim for one, the
// lower only the hallucination share of the categorised ones.
type HallucinationRate struct {
	Lower              *float64 `json:"lower"`
	Upper              *float64 `json:"upper"`
	HallucinationShare *float64 `json:"hallucination_share"` // claims in group hallucination / categorised claims
	NotGroundedRate    *float64 `json:"not_grounded_rate"`
	RateFrom           string   `json:"rate_from"`   // judge | expert
	RateClaims         int      `json:"rate_claims"` // claims the rate is over
}

// AnswerLengths are the mean lengths (characters) of generated and gold answers.
type AnswerLengths struct {
	Systems map[string]map[string]*Length `json:"systems"`
	Gold    *Length                       `json:"gold"`      // accepted gold answers
	Written *Length                       `json:"submitted"` // every answer the experts submitted
}

// Length is a count of answers and their mean length.
type Length struct {
	Answers   int      `json:"answers"`
	MeanChars *float64 `json:"mean_chars"`
}

var genCounts = []string{tally.GenAnswers, tally.GenChars, tally.GenClaims, tally.GenLabel, tally.GenVerdict, tally.GenPair,
	tally.GenErrors, tally.GoldAnswers, tally.GoldChars}

// ErrNoGenerated says there is nothing to report on.
var ErrNoGenerated = errors.New("no generated answers yet (import gen_answer lines: annotate import FILE)")

// Gen builds the generation report.
func Gen(s *store.Store, o GenOptions) (*GenReport, error) {
	if o.Judge == "" {
		o.Judge = "judge"
	}
	switch o.By {
	case "", tally.AttrPersona, tally.AttrJurisdiction:
	default:
		return nil, fmt.Errorf("--by %q: must be persona or jurisdiction%s", o.By, suggest.Hint(o.By, []string{"persona", "jurisdiction"}))
	}
	switch o.RateFrom {
	case "", "judge", "expert":
	default:
		return nil, fmt.Errorf("--rate-from %q: must be judge or expert", o.RateFrom)
	}
	var rep *GenReport
	err := s.Read(func(rx *store.ReadTx) error {
		t, err := loadTallies(rx, genCounts...)
		if err != nil {
			return err
		}
		answers := 0
		t.each(tally.Anyone, 0, true, tally.GenAnswers, func(_ tally.Key, n int) { answers += n })
		if answers == 0 {
			return ErrNoGenerated
		}
		rt, err := genRater(rx, t, o.Selection)
		if err != nil {
			return err
		}
		rep = computeGen(rt, t, o, schema.Taxonomy())
		return nil
	})
	return rep, err
}

// genRater resolves the selection among the annotators who judged
// generated claims: with neither --annotator nor --adjudicated, the only
// one of them.
func genRater(rx *store.ReadTx, t *tallies, sel Selection) (rater, error) {
	if sel.Annotator != "" || sel.Adjudicated {
		return resolve(rx, sel)
	}
	judges := map[int64]bool{}
	for k := range t.by {
		if k.Name == tally.GenLabel && k.Rater > 0 {
			judges[k.Rater] = true
		}
	}
	all, err := rx.Annotators()
	if err != nil {
		return rater{}, err
	}
	var them []store.Annotator
	for _, a := range all {
		if judges[a.ID] {
			them = append(them, a)
		}
	}
	switch len(them) {
	case 0:
		return rater{}, errors.New("no annotator has judged a generated claim yet: nothing to compare (annotate --kind gen_claim)")
	case 1:
		return rater{id: them[0].ID, name: them[0].Name}, nil
	}
	return rater{}, fmt.Errorf("%d annotators judged generated claims: choose --annotator NAME (%s) or --adjudicated", len(them), names(them))
}

// genSel is one selection of the counts: a slice and the system and
// condition filters.
type genSel struct {
	slice, system, condition string
}

func (g genSel) match(a string) (sys, cond string, ok bool) {
	sys, cond, slice, ok := tally.ParseGenKey(a)
	if !ok || slice != g.slice || g.system != "" && sys != g.system || g.condition != "" && cond != g.condition {
		return "", "", false
	}
	return sys, cond, true
}

func computeGen(rt rater, t *tallies, o GenOptions, tax []schema.ErrorKind) *GenReport {
	rep := &GenReport{Annotator: rt.name, Judge: o.Judge, Systems: map[string]map[string]*GenCell{},
		JudgeVsExpert: map[string]*JudgeAgreement{}, UnknownCategories: map[string]int{}, taxonomy: tax}
	all := genSel{system: o.System, condition: o.Condition}
	rep.Systems = genCells(rt, t, o, all, tax)
	rep.Errors = errorDistribution(rt, t, all, tax, rep.UnknownCategories)
	rep.HallucinationRate = hallucination(rt, t, o, all, rep.Errors)
	for _, f := range []string{schema.AccuracySupport, schema.Grounded} {
		rep.JudgeVsExpert[f] = judgeAgreement(rt, t, o, all, f)
	}
	rep.AnswerLengths = AnswerLengths{Systems: map[string]map[string]*Length{},
		Gold: goldLength(t, true), Written: goldLength(t, false)}
	for sys, conds := range rep.Systems {
		rep.AnswerLengths.Systems[sys] = map[string]*Length{}
		for cond, c := range conds {
			rep.AnswerLengths.Systems[sys][cond] = &Length{Answers: c.Answers, MeanChars: c.MeanChars}
		}
	}
	if o.By != "" {
		rep.By = map[string]map[string]map[string]map[string]*GenCell{o.By: {}}
		values := map[string]bool{}
		for k := range t.by {
			if k.Name != tally.GenAnswers {
				continue
			}
			if _, _, slice, ok := tally.ParseGenKey(k.A); ok {
				if v, ok := strings.CutPrefix(slice, o.By+"="); ok {
					values[v] = true
				}
			}
		}
		for v := range values {
			sel := all
			sel.slice = o.By + "=" + v
			rep.By[o.By][v] = genCells(rt, t, o, sel, tax)
		}
	}
	return rep
}

// genCells scores every system and condition of a selection.
func genCells(rt rater, t *tallies, o GenOptions, sel genSel, tax []schema.ErrorKind) map[string]map[string]*GenCell {
	out := map[string]map[string]*GenCell{}
	cell := func(sys, cond string) *GenCell {
		if out[sys] == nil {
			out[sys] = map[string]*GenCell{}
		}
		if out[sys][cond] == nil {
			out[sys][cond] = &GenCell{}
		}
		return out[sys][cond]
	}
	var chars = map[[2]string]int{}
	for k, n := range t.by {
		sys, cond, ok := sel.match(k.A)
		if !ok {
			continue
		}
		switch {
		case k.Rater == tally.Anyone && k.Name == tally.GenAnswers:
			cell(sys, cond).Answers += n
		case k.Rater == tally.Anyone && k.Name == tally.GenChars:
			chars[[2]string{sys, cond}] += n
		case k.Rater == tally.Anyone && k.Name == tally.GenClaims:
			cell(sys, cond).Claims += n
		case k.Rater == rt.id && k.Name == tally.GenLabel:
			c := cell(sys, cond)
			switch k.B {
			case schema.AccuracySupport + "=supported":
				c.Judged += n
				c.Supported += n
			case schema.AccuracySupport + "=not_supported":
				c.Judged += n
			case schema.Grounded + "=grounded":
				c.GroundedJudged += n
				c.Grounded += n
			case schema.Grounded + "=not_grounded":
				c.GroundedJudged += n
			}
		case k.Rater == tally.Anyone && k.Name == tally.GenVerdict:
			judge, fv, _ := strings.Cut(k.B, "|")
			if judge != o.Judge {
				continue
			}
			c := cell(sys, cond)
			switch fv {
			case schema.AccuracySupport + "=supported":
				c.Judge.AccuracyJudged += n
				c.judgeSupported += n
			case schema.AccuracySupport + "=not_supported":
				c.Judge.AccuracyJudged += n
			case schema.Grounded + "=grounded":
				c.Judge.GroundedJudged += n
				c.judgeGrounded += n
			case schema.Grounded + "=not_grounded":
				c.Judge.GroundedJudged += n
			}
		}
	}
	for sys, conds := range out {
		for cond, c := range conds {
			c.Accuracy, c.AccuracyCI = ratio(c.Supported, c.Judged), wilson(c.Supported, c.Judged)
			c.Groundedness, c.GroundednessCI = ratio(c.Grounded, c.GroundedJudged), wilson(c.Grounded, c.GroundedJudged)
			c.Judge.Accuracy = ratio(c.judgeSupported, c.Judge.AccuracyJudged)
			c.Judge.Groundedness = ratio(c.judgeGrounded, c.Judge.GroundedJudged)
			c.MeanChars = ratio(chars[[2]string{sys, cond}], c.Answers)
			one := genSel{slice: sel.slice, system: sys, condition: cond}
			c.Errors = errorDistribution(rt, t, one, tax, nil)
			c.HallucinationRate = hallucination(rt, t, o, one, c.Errors)
		}
	}
	return out
}

// errorDistribution reads the categorised claims of a selection by their
// sets of categories. unknown (when not nil) collects categories outside
// the taxonomy.
func errorDistribution(rt rater, t *tallies, sel genSel, tax []schema.ErrorKind, unknown map[string]int) *ErrorDistribution {
	d := &ErrorDistribution{Categories: map[string]*ErrorShare{}, Groups: map[string]*ErrorShare{}}
	groupOf := map[string]string{}
	for _, c := range tax {
		groupOf[c.Value] = c.Group
		d.Categories[c.Value] = &ErrorShare{Group: c.Group, Label: c.Label}
		if d.Groups[c.Group] == nil {
			d.Groups[c.Group] = &ErrorShare{}
		}
	}
	for k, n := range t.by {
		if k.Rater != rt.id || k.Name != tally.GenErrors {
			continue
		}
		if _, _, ok := sel.match(k.A); !ok {
			continue
		}
		set := schema.DecodeMulti(k.B)
		if len(set) == 0 {
			continue
		}
		d.Claims += n
		d.Assignments += n * len(set)
		groups := map[string]bool{}
		for _, v := range set {
			c := d.Categories[v]
			if c == nil {
				c = &ErrorShare{}
				d.Categories[v] = c
				if unknown != nil {
					unknown[v] += n
				}
			}
			c.Claims += n
			c.Assignments += n
			if g := groupOf[v]; g != "" {
				d.Groups[g].Assignments += n
				groups[g] = true
			}
		}
		for g := range groups {
			d.Groups[g].Claims += n
		}
	}
	for _, m := range []map[string]*ErrorShare{d.Categories, d.Groups} {
		for _, s := range m {
			s.ShareOfClaims = ratio(s.Claims, d.Claims)
			s.ShareOfAssignments = ratio(s.Assignments, d.Assignments)
		}
	}
	return d
}

// hallucination bounds the hallucination rate of a selection: the upper
// bound is the not-grounded rate, the lower the hallucination share of the
// categorised claims times that rate.
func hallucination(rt rater, t *tallies, o GenOptions, sel genSel, d *ErrorDistribution) *HallucinationRate {
	var judgeNot, judgeAll, expertNot, expertAll int
	for k, n := range t.by {
		if _, _, ok := sel.match(k.A); !ok {
			continue
		}
		switch {
		case k.Rater == tally.Anyone && k.Name == tally.GenVerdict:
			switch k.B {
			case o.Judge + "|" + schema.Grounded + "=not_grounded":
				judgeNot += n
				judgeAll += n
			case o.Judge + "|" + schema.Grounded + "=grounded":
				judgeAll += n
			}
		case k.Rater == rt.id && k.Name == tally.GenLabel:
			switch k.B {
			case schema.Grounded + "=not_grounded":
				expertNot += n
				expertAll += n
			case schema.Grounded + "=grounded":
				expertAll += n
			}
		}
	}
	h := &HallucinationRate{RateFrom: o.RateFrom}
	if h.RateFrom == "" {
		h.RateFrom = "expert"
		if judgeAll > 0 {
			h.RateFrom = "judge"
		}
	}
	not, all := expertNot, expertAll
	if h.RateFrom == "judge" {
		not, all = judgeNot, judgeAll
	}
	h.RateClaims = all
	h.NotGroundedRate = ratio(not, all)
	if g := d.Groups[schema.GroupHallucination]; g != nil {
		h.HallucinationShare = g.ShareOfClaims
	}
	h.Upper = h.NotGroundedRate
	if h.Upper != nil && h.HallucinationShare != nil {
		h.Lower = ptr(*h.HallucinationShare * *h.Upper)
	}
	return h
}

// judgeAgreement scores the judge against the expert on one field.
func judgeAgreement(rt rater, t *tallies, o GenOptions, sel genSel, field string) *JudgeAgreement {
	classes := slices.Clone(schemaValues(field))
	k := len(classes)
	cells := pairCells{}
	for key, n := range t.by {
		if key.Rater != rt.id || key.Name != tally.GenPair {
			continue
		}
		if _, _, ok := sel.match(key.A); !ok {
			continue
		}
		parts := strings.SplitN(key.B, "|", 4)
		if len(parts) != 4 || parts[0] != o.Judge || parts[1] != field {
			continue
		}
		tc := slices.Index(classes, parts[2])
		if tc < 0 {
			continue // the expert's value is outside the classes: left out
		}
		pc := slices.Index(classes, parts[3])
		if pc < 0 {
			pc = metrics.Other
		}
		cells[[2]int{tc, pc}] += n
	}
	truth, pred := cells.expand()
	cm := metrics.NewConfusion(truth, pred, k)
	r := cm.Report()
	a := &JudgeAgreement{N: r.N, Classes: classScores(r, classes), Confusion: confusionTable(cm, classes),
		Accuracy: defined(r.Accuracy, r.N > 0), MacroF1: defined(r.Macro.F1, r.N > 0), WeightedF1: defined(r.Weighted.F1, r.N > 0),
		Kappa: defined(r.Kappa, cm.KappaDefined()), classes: classes, counts: cm}
	return a
}

// goldLength is the count and mean length of gold answers: those the lead
// accepted (the adjudicated ones), or every answer an expert submitted.
func goldLength(t *tallies, accepted bool) *Length {
	var n, chars int
	for k, v := range t.by {
		if k.A != "" || k.Rater == tally.Anyone || (k.Rater == tally.Adjudicated) != accepted {
			continue
		}
		switch k.Name {
		case tally.GoldAnswers:
			n += v
		case tally.GoldChars:
			chars += v
		}
	}
	return &Length{Answers: n, MeanChars: ratio(chars, n)}
}
