package report

import (
	"encoding/json"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tally"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/annotate-dev/annotate/metrics"
	"github.com/annotate-dev/annotate/schema"
)

// TestAgreementFromPatternsEqualsUnits: a field's agreement computed from
// the pattern counts prints, in every field of its JSON, what the previous
// unit-by-unit computation over the expanded matrix (agreementOfUnits,
// transcribed below) prints, on random label sets of 1 to 5 annotators and
// 2 to 4 classes on a nominal, ordinal or interval scale, with and without
// the bootstrap intervals.
func TestAgreementFromPatternsEqualsUnits(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 3))
	classes := []string{"entailment", "neutral", "contradiction", "other"}
	for trial := range 200 {
		n := 1 + rng.IntN(5)
		var raters []rater
		for i := range n {
			raters = append(raters, rater{id: int64(i + 1), name: "a" + strconv.Itoa(i)})
		}
		cls := classes[:2+rng.IntN(3)]
		sc := randomScale(rng, len(cls))
		units := rng.IntN(400)
		o := AgreementOptions{CI: trial%10 == 0}
		if o.CI {
			units = rng.IntN(40)
		}
		skip := rng.IntN(4)
		codes := make([]int, 0, units*n)
		for range units {
			for range n {
				c := rng.IntN(len(cls))
				if skip > 0 && rng.IntN(skip+1) == 0 {
					c = metrics.Missing
				}
				codes = append(codes, c)
			}
		}
		// The report's matrix: units grouped by pattern, in pattern order.
		p := metrics.SortPatterns(metrics.PatternsOf(metrics.Ratings{Codes: codes, Raters: n, K: len(cls)}))
		got, _ := json.Marshal(agreementOf(p, p.Ratings, raters, cls, sc, o))
		want, _ := json.Marshal(agreementOfUnits(p.Ratings(), raters, cls, sc, o))
		if string(got) != string(want) {
			t.Fatalf("trial %d (%d annotators, %d classes, %s scale, %d units, ci %v):\npatterns %s\nunits    %s", trial, n, len(cls), sc.level, units, o.CI, got, want)
		}
	}
}

// randomScale is a nominal, ordinal or interval scale of k values (the
// interval's unevenly spaced).
func randomScale(rng *rand.Rand, k int) fieldScale {
	switch rng.IntN(3) {
	case 1:
		return fieldScale{level: schema.Ordinal, ordered: true, codes: metrics.Scale{Level: metrics.Ordinal}}
	case 2:
		values := make([]float64, k)
		for c := range values {
			values[c] = float64(c*c) + rng.Float64()
		}
		return fieldScale{level: schema.Interval, ordered: true, codes: metrics.Scale{Level: metrics.Interval, Values: values}}
	}
	return fieldScale{level: schema.Nominal}
}

// agreementOfUnits is the previous agreementOf: Agree (and on an ordered
// scale AgreeScaled) over the matrix, each pair's kappas and confusion from
// its two columns.
func agreementOfUnits(ratings metrics.Ratings, raters []rater, classes []string, sc fieldScale, o AgreementOptions) *FieldAgreement {
	a := metrics.Agree(ratings)
	fa := &FieldAgreement{
		Annotators: namesOf(raters), LeftOut: []string{}, Classes: classes, Scale: string(sc.level),
		Items: a.Items, Complete: a.Complete, Units: a.Units,
		PercentAgreement:  defined(a.PercentAgreement, a.Defined.PercentAgreement),
		FleissKappa:       defined(a.FleissKappa, a.Defined.FleissKappa),
		KrippendorffAlpha: defined(a.KrippendorffAlpha, a.Defined.KrippendorffAlpha),
		GwetAC1:           defined(a.GwetAC1, a.Defined.GwetAC1),
		GwetAC1Observed:   defined(a.GwetAC1Observed, a.Defined.GwetAC1Observed),
		PerClass:          map[string]*ClassAgreement{}, Pairs: []*PairAgreement{},
		Labels: map[string]int{}, UnknownValues: map[string]map[string]int{}, NotAsked: map[string]int{},
		raters: raters, scale: sc,
	}
	if sc.ordered {
		s := metrics.AgreeScaled(ratings, sc.codes)
		fa.Scaled = &ScaledAgreement{Metric: string(sc.level),
			KrippendorffAlpha: defined(s.KrippendorffAlpha, s.Defined.KrippendorffAlpha),
			PercentWithinOne:  defined(s.WithinOne, s.Defined.WithinOne)}
	}
	for c, k := range a.FleissPerClass {
		fa.PerClass[classes[c]] = &ClassAgreement{FleissKappa: defined(k, a.Defined.FleissPerClass[c])}
	}
	r := ratings
	for i := range raters {
		for j := i + 1; j < len(raters); j++ {
			x, y := r.Rater(i), r.Rater(j)
			kappa, n := metrics.CohenKappa(x, y, r.K)
			cm := metrics.NewConfusion(x, y, r.K)
			p := &PairAgreement{
				A: raters[i].name, B: raters[j].name, N: n,
				PercentAgreement: defined(cm.Accuracy(), n > 0),
				CohenKappa:       defined(kappa, cm.KappaDefined()),
				Confusion:        map[string]map[string]int{}, counts: cm,
			}
			if sc.ordered {
				lin, linOK := cm.WeightedKappa(metrics.Linear, sc.codes)
				quad, quadOK := cm.WeightedKappa(metrics.Quadratic, sc.codes)
				p.Scaled = &ScaledPair{CohenKappaLinear: defined(lin, linOK), CohenKappaQuadratic: defined(quad, quadOK),
					PercentWithinOne: defined(cm.WithinOne(), n > 0)}
			}
			for cx, row := range cm.Counts {
				p.Confusion[classes[cx]] = map[string]int{}
				for cy, v := range row[:len(classes)] {
					p.Confusion[classes[cx]][classes[cy]] = v
				}
			}
			if o.CI && n > 0 {
				var sa, sb []int
				for u := range x {
					if x[u] >= 0 && y[u] >= 0 {
						sa, sb = append(sa, x[u]), append(sb, y[u])
					}
				}
				ra, rb := make([]int, n), make([]int, n)
				p.CohenKappaCI95 = interval(n, func(idx []int) float64 {
					for u, v := range idx {
						ra[u], rb[u] = sa[v], sb[v]
					}
					k, _ := metrics.CohenKappa(ra, rb, r.K)
					return k
				})
				weighted := func(w metrics.Weighting) *[2]float64 {
					return interval(n, func(idx []int) float64 {
						for u, v := range idx {
							ra[u], rb[u] = sa[v], sb[v]
						}
						k, _ := metrics.NewConfusion(ra, rb, r.K).WeightedKappa(w, sc.codes)
						return k
					})
				}
				if p.Scaled != nil && p.Scaled.CohenKappaLinear != nil {
					p.Scaled.CohenKappaLinearCI95 = weighted(metrics.Linear)
				}
				if p.Scaled != nil && p.Scaled.CohenKappaQuadratic != nil {
					p.Scaled.CohenKappaQuadraticCI95 = weighted(metrics.Quadratic)
				}
			}
			fa.Pairs = append(fa.Pairs, p)
		}
	}
	if o.CI && a.Units > 0 {
		bootstrapAgreement(fa, ratings)
	}
	return fa
}

// TestAgreementReportEqualsItemByItem: on random stores (three annotators
// labelling the claims of a few QA pairs, with gaps, claims judged
// incorrect, whose entailment is then not asked, and values outside the
// schema), every field's statistics in the report equal those computed
// unit by unit from each item's counted labels, read item by item as the
// --disagreements list reads them (so in item order, not pattern order).
func TestAgreementReportEqualsItemByItem(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 4))
	who := []string{"jo", "kim", "sam"}
	values := map[string][]string{
		"claim_validity": {"correct", "correct", "correct", "incorrect"},
		"entailment":     {"entailment", "neutral", "contradiction", "Entailed?"},
	}
	for trial := range 8 {
		s := openStore(t)
		seed(t, s, func(b *builder) {
			for q := range 3 {
				qa := "q" + strconv.Itoa(q)
				b.QA(qa, "GDPR", "en", "factual_recall")
				for c := range 2 + rng.IntN(10) {
					id := qa + "c" + strconv.Itoa(c)
					b.Claim(qa, id, nil)
					for _, w := range who {
						for _, f := range []string{"claim_validity", "entailment"} {
							if rng.IntN(4) > 0 {
								b.Label(w, id, f, values[f][rng.IntN(4)])
							}
						}
					}
				}
			}
		})
		rep, err := store.ReadWith(s, Agreement, AgreementOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, field := range []string{"claim_validity", "entailment"} {
			fa := rep.Fields[field]
			r := itemByItem(t, s, field, fa)
			want := agreementOfUnits(r, fa.raters, fa.Classes, fa.scale, AgreementOptions{})
			want.LeftOut, want.Labels, want.UnknownValues, want.NotAsked = fa.LeftOut, fa.Labels, fa.UnknownValues, fa.NotAsked
			got, _ := json.Marshal(fa)
			wantJSON, _ := json.Marshal(want)
			if string(got) != string(wantJSON) {
				t.Fatalf("trial %d, %s:\nreport       %s\nitem by item %s", trial, field, got, wantJSON)
			}
			if fa.Items == 0 {
				t.Fatalf("trial %d, %s: no item labelled twice; the test compares nothing", trial, field)
			}
		}
	}
}

// itemByItem is the matrix of a field's counted labels in schema values,
// one row per item with at least one, in item order.
func itemByItem(t *testing.T, s *store.Store, field string, fa *FieldAgreement) metrics.Ratings {
	r := metrics.Ratings{Raters: len(fa.raters), K: len(fa.Classes)}
	err := s.Read(func(rx *store.ReadTx) error {
		return rx.FamiliesWithField(field, func(fams []*tally.Family) error {
			for _, f := range fams {
				members := []*tally.Member{&f.Root}
				for i := range f.Children {
					members = append(members, &f.Children[i])
				}
				for _, m := range members {
					row, any := make([]int, len(fa.raters)), false
					for i, rt := range fa.raters {
						v, ok := f.Counted(m, rt.id)[field]
						row[i] = metrics.Missing
						if ok {
							row[i] = slices.Index(fa.Classes, v)
						}
						any = any || row[i] >= 0
					}
					if any {
						r.Codes = append(r.Codes, row...)
					}
				}
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}
