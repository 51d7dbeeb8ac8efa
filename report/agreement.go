package report

import (
	"github.com/annotate-dev/annotate/metrics"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// AgreementOptions are the flags of `annotate agreement`.
type AgreementOptions struct {
	Annotators    []string // "" or empty: every annotator
	Field         string   // "": every asked field
	Disagreements bool     // list the items they disagree on
	CI            bool     // bootstrap intervals for the kappas, alpha and AC1
}

// AgreementReport is `annotate agreement`.
type AgreementReport struct {
	Annotators []string                   `json:"annotators"`
	Fields     map[string]*FieldAgreement `json:"fields"`
	Bootstrap  *BootstrapInfo             `json:"bootstrap,omitempty"`

	order []string // fields in schema order, for the text renderer
}

// FieldAgreement is the agreement of the annotators on one field. Each
// coefficient has its own set of items: Items (labelled by at least two of
// them: percent agreement, Krippendorff's alpha, Gwet's AC1), Complete
// (labelled by all: Fleiss' kappa), a pair's N (Cohen's kappa).
type FieldAgreement struct {
	Classes           []string                   `json:"classes"`
	Items             int                        `json:"items"`
	Complete          int                        `json:"complete"`
	Units             int                        `json:"units"` // labelled by at least one
	PercentAgreement  float64                    `json:"percent_agreement"`
	FleissKappa       float64                    `json:"fleiss_kappa"`
	KrippendorffAlpha float64                    `json:"krippendorff_alpha"`
	GwetAC1           float64                    `json:"gwet_ac1"`
	PerClass          map[string]*ClassAgreement `json:"per_class"`
	Pairs             []*PairAgreement           `json:"pairs"`
	// Labels counts each annotator's labels that count; UnknownValues and
	// NotAsked the ones left out (value outside the schema; field not asked
	// given the annotator's own labels).
	Labels        map[string]int            `json:"labels"`
	UnknownValues map[string]map[string]int `json:"unknown_values"`
	NotAsked      map[string]int            `json:"not_asked"`
	Disagreements []Disagreement            `json:"disagreements,omitzero"` // with --disagreements

	FleissKappaCI95       *[2]float64 `json:"fleiss_kappa_ci95,omitempty"`
	KrippendorffAlphaCI95 *[2]float64 `json:"krippendorff_alpha_ci95,omitempty"`
	GwetAC1CI95           *[2]float64 `json:"gwet_ac1_ci95,omitempty"`
}

// ClassAgreement is the category-specific Fleiss' kappa of one class.
type ClassAgreement struct {
	FleissKappa float64 `json:"fleiss_kappa"`
}

// PairAgreement compares two annotators over the items both labelled.
type PairAgreement struct {
	A                string                    `json:"a"`
	B                string                    `json:"b"`
	N                int                       `json:"n"`
	PercentAgreement float64                   `json:"percent_agreement"`
	CohenKappa       float64                   `json:"cohen_kappa"`
	CohenKappaCI95   *[2]float64               `json:"cohen_kappa_ci95,omitempty"`
	Confusion        map[string]map[string]int `json:"confusion"` // a's label -> b's label -> items

	counts metrics.Confusion
}

// Disagreement is an item the annotators labelled differently.
type Disagreement struct {
	Item   string            `json:"item"`
	Labels map[string]string `json:"labels"` // annotator -> label; absent: no label that counts

	id int64 // item id, until nameDisagreements names it
}

// Agreement builds the agreement report.
func Agreement(s *store.Store, o AgreementOptions) (*AgreementReport, error) {
	fields := schema.FieldNames()
	var load []string // nil: every field
	if o.Field != "" {
		if err := schema.CheckField(o.Field); err != nil {
			return nil, err
		}
		f := fieldIndex(o.Field)
		fields = []string{o.Field}
		// The asked-when rule needs the other fields of the item's kind.
		for _, g := range kindFields(tracked[f].Kind) {
			load = append(load, tracked[g].Name)
		}
	}
	r, err := s.ReportReader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	raters, err := resolveMany(r, o.Annotators)
	if err != nil {
		return nil, err
	}
	sets, n, err := loadLabels(r, raters, load, 0)
	if err != nil {
		return nil, err
	}
	rep := computeAgreement(raters, sets, n, fields, o)
	if o.Disagreements {
		if err := nameDisagreements(r, rep); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// ratingsOf builds the units x raters matrix of one field: a unit per item
// at least one rater labelled (with a label that counts), in item order.
func ratingsOf(sets []*labelSet, f int, n int64) (metrics.Ratings, []int64) {
	m := len(sets)
	r := metrics.Ratings{Raters: m, K: len(tracked[f].Values)}
	var items []int64
	cols := make([][]int8, m)
	for i, s := range sets {
		cols[i] = s.cols[f]
	}
	// Count the units first: growing slices of millions costs more than a
	// second pass over the columns.
	units := 0
	for item := range n {
		for _, c := range cols {
			if c != nil && c[item] >= 0 {
				units++
				break
			}
		}
	}
	r.Codes = make([]int, 0, units*m)
	items = make([]int64, 0, units)
	row := make([]int, m)
	for item := range n {
		labelled := false
		for i, c := range cols {
			row[i] = metrics.Missing
			if c != nil && c[item] >= 0 {
				row[i] = int(c[item])
				labelled = true
			}
		}
		if labelled {
			r.Codes = append(r.Codes, row...)
			items = append(items, item)
		}
	}
	return r, items
}

func computeAgreement(raters []rater, sets []*labelSet, n int64, fields []string, o AgreementOptions) *AgreementReport {
	rep := &AgreementReport{Annotators: namesOf(raters), Fields: map[string]*FieldAgreement{}, order: fields}
	if o.CI {
		rep.Bootstrap = &BootstrapInfo{Replicates: BootstrapReplicates, Seed: BootstrapSeed}
	}
	for _, name := range fields {
		f := fieldIndex(name)
		ratings, items := ratingsOf(sets, f, n)
		a := metrics.Agree(ratings)
		classes := tracked[f].Values
		fa := &FieldAgreement{
			Classes:           classes,
			Items:             a.Items,
			Complete:          a.Complete,
			Units:             a.Units,
			PercentAgreement:  a.PercentAgreement,
			FleissKappa:       a.FleissKappa,
			KrippendorffAlpha: a.KrippendorffAlpha,
			GwetAC1:           a.GwetAC1,
			PerClass:          map[string]*ClassAgreement{},
			Pairs:             []*PairAgreement{},
			Labels:            map[string]int{},
			UnknownValues:     map[string]map[string]int{},
			NotAsked:          map[string]int{},
		}
		for c, k := range a.FleissPerClass {
			fa.PerClass[classes[c]] = &ClassAgreement{FleissKappa: k}
		}
		for i, rt := range raters {
			fa.Labels[rt.name] = countLabels(sets[i], f)
			if u := sets[i].unknownValues()[name]; len(u) > 0 {
				fa.UnknownValues[rt.name] = u
			}
			if s := sets[i].stale[f]; s > 0 {
				fa.NotAsked[rt.name] = s
			}
		}
		for i := range raters {
			for j := i + 1; j < len(raters); j++ {
				fa.Pairs = append(fa.Pairs, pairAgreement(ratings, raters, i, j, classes, o.CI))
			}
		}
		if o.CI && ratings.Units() > 0 {
			bootstrapAgreement(fa, ratings)
		}
		if o.Disagreements {
			fa.Disagreements = disagreements(ratings, items, raters, classes)
		}
		rep.Fields[name] = fa
	}
	return rep
}

func countLabels(s *labelSet, f int) int {
	n := 0
	for _, c := range s.cols[f] {
		if c >= 0 {
			n++
		}
	}
	return n
}

func pairAgreement(r metrics.Ratings, raters []rater, i, j int, classes []string, ci bool) *PairAgreement {
	a, b := r.Rater(i), r.Rater(j)
	kappa, n := metrics.CohenKappa(a, b, r.K)
	// Missing codes on either side drop the item, so the matrix and the
	// kappa are over the same items.
	cm := metrics.NewConfusion(a, b, r.K)
	p := &PairAgreement{
		A: raters[i].name, B: raters[j].name, N: n,
		PercentAgreement: cm.Accuracy(), CohenKappa: kappa,
		Confusion: map[string]map[string]int{}, counts: cm,
	}
	for x, row := range cm.Counts {
		p.Confusion[classes[x]] = map[string]int{}
		for y, v := range row[:len(classes)] {
			p.Confusion[classes[x]][classes[y]] = v
		}
	}
	if ci && n > 0 {
		// Resample the items both labelled, as Cohen's kappa is computed on them.
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
	}
	return p
}

func bootstrapAgreement(fa *FieldAgreement, r metrics.Ratings) {
	n := r.Units()
	buf := make([]int, len(r.Codes))
	agree := func(idx []int) metrics.Agreement { return metrics.Agree(resampleRatings(r, idx, buf)) }
	fa.FleissKappaCI95 = interval(n, func(idx []int) float64 { return agree(idx).FleissKappa })
	fa.KrippendorffAlphaCI95 = interval(n, func(idx []int) float64 { return agree(idx).KrippendorffAlpha })
	fa.GwetAC1CI95 = interval(n, func(idx []int) float64 { return agree(idx).GwetAC1 })
}

// disagreements lists the units where at least two labels differ; the item
// ids are turned into ext ids by nameDisagreements.
func disagreements(r metrics.Ratings, items []int64, raters []rater, classes []string) []Disagreement {
	out := []Disagreement{}
	m := r.Raters
	for u := range r.Units() {
		row := r.Codes[u*m : (u+1)*m]
		first, differ := -1, false
		for _, c := range row {
			if c < 0 {
				continue
			}
			if first < 0 {
				first = c
			} else if c != first {
				differ = true
			}
		}
		if !differ {
			continue
		}
		d := Disagreement{id: items[u], Labels: map[string]string{}}
		for i, c := range row {
			if c >= 0 {
				d.Labels[raters[i].name] = classes[c]
			}
		}
		out = append(out, d)
	}
	return out
}

// nameDisagreements replaces the item ids of the disagreements by ext ids,
// in one query for all fields.
func nameDisagreements(r *store.ReportReader, rep *AgreementReport) error {
	var ids []int64
	for _, name := range rep.order {
		for _, d := range rep.Fields[name].Disagreements {
			ids = append(ids, d.id)
		}
	}
	ext, err := r.ExtIDs(ids)
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
