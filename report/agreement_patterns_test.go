package report

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/annotate-dev/annotate/metrics"
)

// TestAgreementFromPatternsEqualsUnits: a field's agreement computed from
// the pattern counts prints, in every field of its JSON, what the previous
// unit-by-unit computation over the expanded matrix (agreementOfUnits,
// transcribed below) prints, on random label sets of 1 to 5 annotators and
// 2 to 4 classes, with and without the bootstrap intervals.
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
		got, _ := json.Marshal(agreementOf(p, p.Ratings, raters, cls, o))
		want, _ := json.Marshal(agreementOfUnits(p.Ratings(), raters, cls, o))
		if string(got) != string(want) {
			t.Fatalf("trial %d (%d annotators, %d classes, %d units, ci %v):\npatterns %s\nunits    %s", trial, n, len(cls), units, o.CI, got, want)
		}
	}
}

// agreementOfUnits is the previous agreementOf: Agree over the matrix,
// each pair's kappa and confusion from its two columns.
func agreementOfUnits(ratings metrics.Ratings, raters []rater, classes []string, o AgreementOptions) *FieldAgreement {
	a := metrics.Agree(ratings)
	fa := &FieldAgreement{
		Annotators: namesOf(raters), LeftOut: []string{}, Classes: classes,
		Items: a.Items, Complete: a.Complete, Units: a.Units,
		PercentAgreement:  defined(a.PercentAgreement, a.Defined.PercentAgreement),
		FleissKappa:       defined(a.FleissKappa, a.Defined.FleissKappa),
		KrippendorffAlpha: defined(a.KrippendorffAlpha, a.Defined.KrippendorffAlpha),
		GwetAC1:           defined(a.GwetAC1, a.Defined.GwetAC1),
		PerClass:          map[string]*ClassAgreement{}, Pairs: []*PairAgreement{},
		Labels: map[string]int{}, UnknownValues: map[string]map[string]int{}, NotAsked: map[string]int{},
		raters: raters,
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
			}
			fa.Pairs = append(fa.Pairs, p)
		}
	}
	if o.CI && a.Units > 0 {
		bootstrapAgreement(fa, ratings)
	}
	return fa
}
