package report

import (
	"cmp"
	"slices"

	"github.com/annotate-dev/annotate/metrics"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tally"
)

// AgreementOptions are the flags of `annotate agreement`.
type AgreementOptions struct {
	// Annotators to compare; empty: per field, every annotator with at least
	// one label of that field.
	Annotators    []string
	Field         string // "": every asked field
	Disagreements bool   // list the items they disagree on
	CI            bool   // bootstrap intervals for the kappas, alpha and AC1
	// ByGuidelinesVersion splits each field by the guidelines version its
	// labels were made under (agreement_versions.go).
	ByGuidelinesVersion bool
}

// AgreementReport is `annotate agreement`.
type AgreementReport struct {
	// Annotators lists everyone compared on some field, in creation order.
	Annotators []string                   `json:"annotators"`
	Fields     map[string]*FieldAgreement `json:"fields"`
	Bootstrap  *BootstrapInfo             `json:"bootstrap,omitempty"`
	// Suggested counts, per field and annotator, the labels made with a
	// system's prediction preselected (annotate --suggest), which the
	// coefficients include; empty: every label was made blind.
	Suggested map[string]map[string]int `json:"suggested_labels"`
	// OwnAdjudications counts, per field, the adjudicated labels a lead
	// decided on a unit in which they gave a label (review --allow-own).
	OwnAdjudications map[string]int `json:"own_adjudications"`

	order []string // fields in schema order, for the text renderer
}

// FieldAgreement is the agreement of the annotators on one field. Each
// coefficient has its own set of items: Items (labelled by at least two of
// them: percent agreement, Krippendorff's alpha, Gwet's AC1), Complete
// (labelled by all: Fleiss' kappa), a pair's N (Cohen's kappa). A
// coefficient with nothing to count is null.
type FieldAgreement struct {
	// Annotators compared on this field; LeftOut the campaign's other
	// annotators (assigned a batch, or with labels of other fields), who
	// have no label of this one, left out of the default set.
	Annotators []string `json:"annotators"`
	LeftOut    []string `json:"left_out"`
	// Classes in the field's declared order, which is the order of an
	// ordinal scale.
	Classes []string `json:"classes"`
	// Scale is the field's level of measurement (nominal, ordinal,
	// interval, boolean, text); Scaled, for an ordinal or interval one,
	// the statistics that weigh a disagreement by distance.
	Scale             string           `json:"scale"`
	Scaled            *ScaledAgreement `json:"scaled,omitempty"`
	Items             int              `json:"items"`
	Complete          int              `json:"complete"`
	Units             int              `json:"units"` // labelled by at least one
	PercentAgreement  *float64         `json:"percent_agreement"`
	FleissKappa       *float64         `json:"fleiss_kappa"`
	KrippendorffAlpha *float64         `json:"krippendorff_alpha"`
	GwetAC1           *float64         `json:"gwet_ac1"`
	// GwetAC1Observed: AC1 with the chance term over the classes used
	// instead of the schema's (irrCAC's default); docs/metrics.md.
	GwetAC1Observed *float64                   `json:"gwet_ac1_observed_classes"`
	PerClass        map[string]*ClassAgreement `json:"per_class"`
	Pairs           []*PairAgreement           `json:"pairs"`
	// Labels counts each annotator's labels that count; UnknownValues and
	// NotAsked the ones left out (value outside the schema; field not asked
	// given the annotator's own labels).
	Labels        map[string]int            `json:"labels"`
	UnknownValues map[string]map[string]int `json:"unknown_values"`
	NotAsked      map[string]int            `json:"not_asked"`
	Disagreements []Disagreement            `json:"disagreements,omitzero"` // with --disagreements
	// ByGuidelinesVersion: with --by-guidelines-version, the same
	// statistics per version of the field's guidelines.
	ByGuidelinesVersion []*VersionAgreement `json:"by_guidelines_version,omitzero"`

	FleissKappaCI95       *[2]float64 `json:"fleiss_kappa_ci95,omitempty"`
	KrippendorffAlphaCI95 *[2]float64 `json:"krippendorff_alpha_ci95,omitempty"`
	GwetAC1CI95           *[2]float64 `json:"gwet_ac1_ci95,omitempty"`

	raters []rater
	scale  fieldScale
}

// ClassAgreement is the category-specific Fleiss' kappa of one class.
type ClassAgreement struct {
	FleissKappa *float64 `json:"fleiss_kappa"`
}

// PairAgreement compares two annotators over the items both labelled.
type PairAgreement struct {
	A                string                    `json:"a"`
	B                string                    `json:"b"`
	N                int                       `json:"n"`
	PercentAgreement *float64                  `json:"percent_agreement"`
	CohenKappa       *float64                  `json:"cohen_kappa"`
	CohenKappaCI95   *[2]float64               `json:"cohen_kappa_ci95,omitempty"`
	Scaled           *ScaledPair               `json:"scaled,omitempty"` // an ordinal or interval field
	Confusion        map[string]map[string]int `json:"confusion"`        // a's label -> b's label -> items

	counts metrics.Confusion
}

// Disagreement is an item the annotators labelled differently.
type Disagreement struct {
	Item   string            `json:"item"`
	Labels map[string]string `json:"labels"` // annotator -> label; absent: no label that counts

	id int64 // item id, until nameDisagreements names it
}

// Agreement builds the agreement report.
func Agreement(rx *store.ReadTx, o AgreementOptions) (*AgreementReport, error) {
	fields := schema.AgreementFieldNames()
	if o.Field != "" {
		if err := schema.CheckField(o.Field); err != nil {
			return nil, err
		}
		fields = []string{o.Field}
	}
	var rep *AgreementReport
	err := func() error {
		p, err := loadPeople(rx)
		if err != nil {
			return err
		}
		var chosen []rater
		if len(o.Annotators) > 0 {
			if chosen, err = explicit(p, o.Annotators); err != nil {
				return err
			}
			if len(chosen) < 2 {
				return &TooFewAnnotatorsError{Have: namesOf(chosen), All: len(p.withLabels())}
			}
		} else if len(p.withLabels()) < 2 {
			var have []string
			for _, a := range p.withLabels() {
				have = append(have, a.Name)
			}
			return &TooFewAnnotatorsError{Have: have, All: len(have)}
		}
		t, err := loadTallies(rx, tally.Agree, tally.Label, tally.NotAsked)
		if err != nil {
			return err
		}
		rep = &AgreementReport{Annotators: []string{}, Fields: map[string]*FieldAgreement{}, order: fields}
		if rep.Suggested, err = suggestedByField(rx, fields); err != nil {
			return err
		}
		if rep.OwnAdjudications, err = rx.OwnAdjudications(); err != nil {
			return err
		}
		if o.CI {
			rep.Bootstrap = &BootstrapInfo{Replicates: BootstrapReplicates, Seed: BootstrapSeed}
		}
		everyone := map[int64]bool{}
		for _, name := range fields {
			raters := chosen
			leftOut := []string{}
			if raters == nil {
				if raters, leftOut, err = defaultRaters(rx, p, name); err != nil {
					return err
				}
			}
			for _, r := range raters {
				everyone[r.id] = true
			}
			rep.Fields[name] = fieldAgreement(t, name, raters, leftOut, o)
		}
		for _, a := range p.byName() {
			if everyone[a.ID] {
				rep.Annotators = append(rep.Annotators, a.Name)
			}
		}
		if o.ByGuidelinesVersion {
			if err := byGuidelinesVersion(rx, rep, o); err != nil {
				return err
			}
		}
		if o.Disagreements {
			return disagreements(rx, rep)
		}
		return nil
	}()
	return rep, err
}

// defaultRaters are the annotators with a label of the field that counts, by
// name (so a database and its re-imported export agree); left out, the
// campaign's other annotators (assigned a batch, or with labels of other
// fields), who have none.
func defaultRaters(rx *store.ReadTx, p *people, field string) ([]rater, []string, error) {
	assigned, err := rx.Assignees("")
	if err != nil {
		return nil, nil, err
	}
	var raters []rater
	leftOut := []string{}
	for _, a := range p.byName() {
		switch {
		case p.fields[field][a.ID]:
			raters = append(raters, rater{id: a.ID, name: a.Name})
		case p.labelled[a.ID] || slices.Contains(assigned, a.ID):
			leftOut = append(leftOut, a.Name)
		}
	}
	return raters, leftOut, nil
}

// patternsOf counts the units of one field per pattern from the kept
// patterns: a unit per item at least one of the raters labelled, the
// patterns in the order of their codes.
func patternsOf(t *tallies, field string, raters []rater, classes []string) metrics.Patterns {
	type pattern struct {
		codes []int
		n     int
	}
	byCodes := map[string]*pattern{}
	t.each(tally.Anyone, 0, true, tally.Agree, func(k tally.Key, n int) {
		if k.A != field {
			return
		}
		p := tally.ParsePattern(k.B)
		codes := make([]int, len(raters))
		any := false
		for i, r := range raters {
			codes[i] = metrics.Missing
			if v, ok := p[r.id]; ok {
				codes[i] = slices.Index(classes, v)
				any = any || codes[i] >= 0
			}
		}
		if !any {
			return
		}
		key := string(intsKey(codes))
		if byCodes[key] == nil {
			byCodes[key] = &pattern{codes: codes}
		}
		byCodes[key].n += n
	})
	ps := metrics.Patterns{Raters: max(len(raters), 1), K: len(classes)}
	for _, p := range byCodes {
		ps.Add(p.codes, p.n)
	}
	return metrics.SortPatterns(ps)
}

func intsKey(v []int) []byte {
	b := make([]byte, 0, 2*len(v))
	for _, x := range v {
		b = append(b, byte(x+3), ',')
	}
	return b
}

func fieldAgreement(t *tallies, name string, raters []rater, leftOut []string, o AgreementOptions) *FieldAgreement {
	classes := schemaValues(name)
	p := patternsOf(t, name, raters, classes)
	fa := agreementOf(p, p.Ratings, raters, classes, scaleOf(name), o)
	fa.LeftOut = leftOut
	for _, rt := range raters {
		n := 0
		for _, v := range classes {
			n += t.sum(rt.id, 0, true, tally.Label, name, strPtr(v))
		}
		fa.Labels[rt.name] = n
		if u := unknownValues(t, rt.id, schema.AllFields())[name]; len(u) > 0 {
			fa.UnknownValues[rt.name] = u
		}
		if s := notAsked(t, rt.id)[name]; s > 0 {
			fa.NotAsked[rt.name] = s
		}
	}
	return fa
}

// agreementOf computes the statistics of one field on its scale from its
// pattern counts: every coefficient, per class, per pair, and with o.CI
// the intervals, which resample the units of the matrix units returns
// (called only then). The counts of labels left out are the caller's.
func agreementOf(p metrics.Patterns, units func() metrics.Ratings, raters []rater, classes []string, sc fieldScale, o AgreementOptions) *FieldAgreement {
	var a metrics.Agreement
	if len(raters) > 0 {
		a = metrics.AgreePatterns(p)
	} else {
		a.FleissPerClass = make([]float64, len(classes))
		a.Defined.FleissPerClass = make([]bool, len(classes))
	}
	fa := &FieldAgreement{
		Annotators:        namesOf(raters),
		LeftOut:           []string{},
		Classes:           classes,
		Scale:             string(sc.level),
		Scaled:            scaledAgreement(p, sc, len(raters) > 0),
		Items:             a.Items,
		Complete:          a.Complete,
		Units:             a.Units,
		PercentAgreement:  defined(a.PercentAgreement, a.Defined.PercentAgreement),
		FleissKappa:       defined(a.FleissKappa, a.Defined.FleissKappa),
		KrippendorffAlpha: defined(a.KrippendorffAlpha, a.Defined.KrippendorffAlpha),
		GwetAC1:           defined(a.GwetAC1, a.Defined.GwetAC1),
		GwetAC1Observed:   defined(a.GwetAC1Observed, a.Defined.GwetAC1Observed),
		PerClass:          map[string]*ClassAgreement{},
		Pairs:             []*PairAgreement{},
		Labels:            map[string]int{},
		UnknownValues:     map[string]map[string]int{},
		NotAsked:          map[string]int{},
		raters:            raters,
		scale:             sc,
	}
	if fa.Annotators == nil {
		fa.Annotators = []string{}
	}
	for c, k := range a.FleissPerClass {
		fa.PerClass[classes[c]] = &ClassAgreement{FleissKappa: defined(k, a.Defined.FleissPerClass[c])}
	}
	var ratings metrics.Ratings
	if o.CI && a.Units > 0 {
		ratings = units()
	}
	for i := range raters {
		for j := i + 1; j < len(raters); j++ {
			fa.Pairs = append(fa.Pairs, pairAgreement(p, ratings, raters, i, j, classes, sc, o.CI))
		}
	}
	if o.CI && a.Units > 0 {
		bootstrapAgreement(fa, ratings)
	}
	return fa
}

// pairAgreement compares raters i and j from the pattern counts; with ci,
// the intervals resample the units of r both labelled.
func pairAgreement(ps metrics.Patterns, r metrics.Ratings, raters []rater, i, j int, classes []string, sc fieldScale, ci bool) *PairAgreement {
	kappa, n := metrics.PairCohenKappa(ps, i, j)
	// Missing codes on either side drop the item, so the matrix and the
	// kappa are over the same items.
	cm := metrics.PairConfusion(ps, i, j)
	p := &PairAgreement{
		A: raters[i].name, B: raters[j].name, N: n,
		PercentAgreement: defined(cm.Accuracy(), n > 0),
		CohenKappa:       defined(kappa, cm.KappaDefined()),
		Scaled:           scaledPair(cm, sc),
		Confusion:        map[string]map[string]int{}, counts: cm,
	}
	for x, row := range cm.Counts {
		p.Confusion[classes[x]] = map[string]int{}
		for y, v := range row[:len(classes)] {
			p.Confusion[classes[x]][classes[y]] = v
		}
	}
	if ci && n > 0 {
		// Resample the items both labelled, as Cohen's kappa is computed on them.
		a, b := r.Rater(i), r.Rater(j)
		var sa, sb []int
		for u := range a {
			if a[u] >= 0 && b[u] >= 0 {
				sa, sb = append(sa, a[u]), append(sb, b[u])
			}
		}
		ra, rb := make([]int, n), make([]int, n)
		p.CohenKappaCI95 = interval(n, func(idx []int) float64 {
			for x, y := range idx {
				ra[x], rb[x] = sa[y], sb[y]
			}
			k, _ := metrics.CohenKappa(ra, rb, r.K)
			return k
		})
		if p.Scaled != nil {
			weighted := func(w metrics.Weighting) *[2]float64 {
				return interval(n, func(idx []int) float64 {
					for x, y := range idx {
						ra[x], rb[x] = sa[y], sb[y]
					}
					k, _ := metrics.NewConfusion(ra, rb, r.K).WeightedKappa(w, sc.codes)
					return k
				})
			}
			if p.Scaled.CohenKappaLinear != nil {
				p.Scaled.CohenKappaLinearCI95 = weighted(metrics.Linear)
			}
			if p.Scaled.CohenKappaQuadratic != nil {
				p.Scaled.CohenKappaQuadraticCI95 = weighted(metrics.Quadratic)
			}
		}
	}
	return p
}

func bootstrapAgreement(fa *FieldAgreement, r metrics.Ratings) {
	n := r.Units()
	buf := make([]int, len(r.Codes))
	agree := func(idx []int) metrics.Agreement { return metrics.Agree(resampleRatings(r, idx, buf)) }
	if fa.FleissKappa != nil {
		fa.FleissKappaCI95 = interval(n, func(idx []int) float64 { return agree(idx).FleissKappa })
	}
	if fa.KrippendorffAlpha != nil {
		fa.KrippendorffAlphaCI95 = interval(n, func(idx []int) float64 { return agree(idx).KrippendorffAlpha })
	}
	if fa.GwetAC1 != nil {
		fa.GwetAC1CI95 = interval(n, func(idx []int) float64 { return agree(idx).GwetAC1 })
	}
	if fa.Scaled != nil && fa.Scaled.KrippendorffAlpha != nil {
		fa.Scaled.KrippendorffAlphaCI95 = interval(n, func(idx []int) float64 {
			return metrics.AgreeScaled(resampleRatings(r, idx, buf), fa.scale.codes).KrippendorffAlpha
		})
	}
}

// disagreements lists, per field, the items where at least two of the
// field's annotators gave different values that count, in item order.
func disagreements(rx *store.ReadTx, rep *AgreementReport) error {
	var ids []int64
	for _, name := range rep.order {
		fa := rep.Fields[name]
		fa.Disagreements = []Disagreement{}
		err := rx.FamiliesWithField(name, func(fams []*tally.Family) error {
			for _, f := range fams {
				members := []*tally.Member{&f.Root}
				for i := range f.Children {
					members = append(members, &f.Children[i])
				}
				for _, m := range members {
					d := Disagreement{id: m.ID, Labels: map[string]string{}}
					first, differ := "", false
					for _, r := range fa.raters {
						v, ok := f.Counted(m, r.id)[name]
						if !ok || !slices.Contains(fa.Classes, v) {
							continue
						}
						d.Labels[r.name] = v
						if first == "" {
							first = v
						}
						differ = differ || v != first
					}
					if differ {
						fa.Disagreements = append(fa.Disagreements, d)
					}
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		slices.SortFunc(fa.Disagreements, func(a, b Disagreement) int { return cmp.Compare(a.id, b.id) })
		for _, d := range fa.Disagreements {
			ids = append(ids, d.id)
		}
	}
	ext, err := rx.ExtIDs(ids)
	if err != nil {
		return err
	}
	i := 0
	for _, name := range rep.order {
		ds := rep.Fields[name].Disagreements
		for k := range ds {
			ds[k].Item = ext[i]
			i++
		}
	}
	return nil
}
