package metrics

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// cacRaw4Raters is irrCAC's example data set cac.raw4raters (12 units, 4
// raters, categories 1..5 coded 0..4, many missing labels), which is also
// Krippendorff's worked nominal example with missing data.
func cacRaw4Raters() Ratings {
	const M = Missing
	return Ratings{Raters: 4, K: 5, Codes: []int{
		0, 0, M, 0,
		1, 1, 2, 1,
		2, 2, 2, 2,
		2, 2, 2, 2,
		1, 1, 1, 1,
		0, 1, 2, 3,
		3, 3, 3, 3,
		0, 0, 1, 0,
		1, 1, 1, 1,
		M, 4, 4, 4,
		M, M, 0, 0,
		M, M, 2, M,
	}}
}

func TestAgreementWithMissing(t *testing.T) {
	a := Agree(cacRaw4Raters())
	// Units: 12 with a label, 11 with two or more, 8 with all four.
	if a.Units != 12 || a.Items != 11 || a.Complete != 8 {
		t.Fatalf("Units, Items, Complete = %d, %d, %d; want 12, 11, 8", a.Units, a.Items, a.Complete)
	}
	// irrCAC README: krippen.alpha.raw(cac.raw4raters) = 0.74342; nltk 3.8
	// AnnotationTask(data).alpha() on the same triples = 0.743421052631579.
	near(t, "alpha", a.KrippendorffAlpha, 0.743421052631579, tight)
	// irrCAC README: gwet.ac1.raw(cac.raw4raters) gives pa 0.8181818,
	// pe 0.1903212, AC1 0.77544 (printed to 5 decimals).
	near(t, "AC1 (irrCAC)", a.GwetAC1, 0.77544, 5e-6)
	// Full precision: numpy transcription of gwet.ac1.raw's formula.
	near(t, "AC1", a.GwetAC1, 0.775444068126995, tight)
	// Every category is used: the observed categories are the schema's.
	near(t, "AC1, observed categories", a.GwetAC1Observed, a.GwetAC1, tight)

	// The same ratings in a schema of six categories, the sixth never
	// used: AC1 over the schema's categories (q = 6) is 0.7855267812261463
	// (the same transcription with q = 6); irrCAC's default reads q = 5 off
	// the data and still gives its README's 0.77544.
	r := cacRaw4Raters()
	r.K = 6
	b := Agree(r)
	near(t, "AC1, q = 6", b.GwetAC1, 0.7855267812261463, tight)
	near(t, "AC1, observed (irrCAC's default)", b.GwetAC1Observed, 0.775444068126995, tight)
	if !b.Defined.GwetAC1 || !b.Defined.GwetAC1Observed {
		t.Error("AC1 undefined")
	}
	// One category observed: irrCAC divides by q - 1 = 0; annotate's
	// observed-category AC1 is undefined (null), the schema's is not.
	one := Agree(Ratings{Raters: 2, K: 3, Codes: []int{1, 1, 1, 1}})
	if one.Defined.GwetAC1Observed || !one.Defined.GwetAC1 {
		t.Errorf("one category used: observed AC1 defined %v, schema AC1 defined %v; want false, true", one.Defined.GwetAC1Observed, one.Defined.GwetAC1)
	}
	// Enumerating every pair of raters on every unit (Python
	// itertools.combinations): 43 agreeing pairs out of 55.
	near(t, "percent agreement", a.PercentAgreement, 43.0/55, tight)
	// statsmodels fleiss_kappa(table, method="fleiss") on the count table
	// of the 8 complete units (rows 2-9).
	near(t, "Fleiss", a.FleissKappa, 0.6414565826330533, tight)
	// Fleiss 1971 kappa_j, numpy over the same 8-row table; category 5
	// never occurs in complete units, so p_j q_j = 0 (numpy: nan) -> 0.
	want := []float64{0.4285714285714286, 0.611336032388664, 0.7090909090909091, 0.762962962962963, 0}
	for j := range want {
		near(t, "Fleiss per class", a.FleissPerClass[j], want[j], tight)
	}
}

func TestAgreementComplete(t *testing.T) {
	// 8 units, 3 raters, every label present.
	rater := [][]int{
		{0, 1, 1, 2, 0, 2, 1, 0},
		{0, 1, 2, 2, 0, 2, 1, 1},
		{0, 0, 1, 2, 1, 2, 1, 0},
	}
	r := Ratings{Raters: 3, K: 3, Codes: make([]int, 0, 24)}
	for u := range rater[0] {
		for _, row := range rater {
			r.Codes = append(r.Codes, row[u])
		}
	}
	a := Agree(r)
	// nltk AnnotationTask: avg_Ao() = 0.6666666666666666 (mean over rater
	// pairs; with complete data it equals the pooled pair ratio), alpha() =
	// 0.5183246073298429.
	near(t, "percent agreement", a.PercentAgreement, 0.6666666666666666, tight)
	near(t, "alpha", a.KrippendorffAlpha, 0.5183246073298429, tight)
	// statsmodels fleiss_kappa(table, method="fleiss"); per class by numpy.
	near(t, "Fleiss", a.FleissKappa, 0.4973821989528795, tight)
	for j, w := range []float64{0.4375000000000001, 0.28888888888888886, 0.7983193277310925} {
		near(t, "Fleiss per class", a.FleissPerClass[j], w, tight)
	}
	// Each standalone function must agree with the one-pass Agree.
	near(t, "FleissKappa()", FleissKappa(r), a.FleissKappa, 0)
	near(t, "KrippendorffAlpha()", KrippendorffAlpha(r), a.KrippendorffAlpha, 0)
	near(t, "GwetAC1()", GwetAC1(r), a.GwetAC1, 0)
	near(t, "PercentAgreement()", PercentAgreement(r), a.PercentAgreement, 0)
	if !slices.Equal(FleissPerClass(r), a.FleissPerClass) {
		t.Error("FleissPerClass() differs from Agree")
	}
	// Pairwise Cohen's kappa through Rater columns: rater 0 vs 1, checked
	// with sklearn cohen_kappa_score([0,1,1,2,0,2,1,0], [0,1,2,2,0,2,1,1]).
	k, n := CohenKappa(r.Rater(0), r.Rater(1), 3)
	if n != 8 {
		t.Fatalf("pair n = %d, want 8", n)
	}
	near(t, "pair kappa", k, 0.627906976744186, tight)
}

func TestFleissFromCounts(t *testing.T) {
	// Wikipedia "Fleiss' kappa" worked example: 10 subjects, 14 raters,
	// 5 categories; kappa = 0.210. Full precision: statsmodels
	// fleiss_kappa(table, method="fleiss") = 0.20993070442195522.
	table := [][]int{
		{0, 0, 0, 0, 14}, {0, 2, 6, 4, 2}, {0, 0, 3, 5, 6}, {0, 3, 9, 2, 0}, {2, 2, 8, 1, 1},
		{7, 7, 0, 0, 0}, {3, 2, 6, 3, 0}, {2, 5, 3, 2, 2}, {6, 5, 2, 1, 0}, {0, 2, 2, 3, 7},
	}
	r := RatingsFromCounts(table)
	if r.Raters != 14 || r.K != 5 || r.Units() != 10 {
		t.Fatalf("RatingsFromCounts: raters %d, K %d, units %d", r.Raters, r.K, r.Units())
	}
	near(t, "Fleiss", FleissKappa(r), 0.20993070442195522, tight)
	// Fleiss 1971 kappa_j, numpy on the same table.
	want := []float64{0.20128205128205134, 0.07967032967032961, 0.17159763313609477, 0.030381383322559685, 0.5076566951566952}
	got := FleissPerClass(r)
	for j := range want {
		near(t, "Fleiss per class", got[j], want[j], tight)
	}
}

func TestRatingsFromCountsLayout(t *testing.T) {
	// A unit with fewer labels than the largest row gets Missing padding.
	r := RatingsFromCounts([][]int{{2, 1}, {0, 1}})
	want := []int{0, 0, 1, 1, Missing, Missing}
	if r.Raters != 3 || r.K != 2 || !slices.Equal(r.Codes, want) {
		t.Fatalf("got %+v, want Raters 3, K 2, Codes %v", r, want)
	}
	if a := Agree(r); a.Complete != 1 || a.Items != 1 || a.Units != 2 {
		t.Fatalf("Complete, Items, Units = %d, %d, %d; want 1, 1, 2", a.Complete, a.Items, a.Units)
	}
}

func TestFleissPerClassIdentities(t *testing.T) {
	// Fleiss (1971): with two categories each kappa_j equals the overall
	// kappa, and in general kappa = sum p_j q_j kappa_j / sum p_j q_j.
	rng := rand.New(rand.NewPCG(7, 7))
	r := Ratings{Raters: 4, K: 2, Codes: make([]int, 4*200)}
	for u := 0; u < len(r.Codes); u += 4 {
		shared := rng.IntN(3) == 0 // a third of the units are unanimous
		c := rng.IntN(2)
		for j := 0; j < 4; j++ {
			if !shared {
				c = rng.IntN(2)
			}
			r.Codes[u+j] = c
		}
	}
	overall := FleissKappa(r)
	for _, k := range FleissPerClass(r) {
		near(t, "two-category kappa_j", k, overall, tight)
	}
	if overall <= 0 {
		t.Fatalf("test data should show agreement, kappa = %v", overall)
	}
}

func TestAgreementUndefined(t *testing.T) {
	// Everyone always says category 0: observed and expected agreement are
	// both 1, so kappa and alpha are 0/0, reported as 0. AC1 stays defined
	// (its chance term is sum pi(1-pi)/(q-1) = 0), and is 1.
	r := Ratings{Raters: 3, K: 3, Codes: []int{0, 0, 0, 0, 0, Missing}}
	a := Agree(r)
	if a.FleissKappa != 0 || a.KrippendorffAlpha != 0 || a.PercentAgreement != 1 || a.GwetAC1 != 1 {
		t.Fatalf("got %+v", a)
	}
	if !slices.Equal(a.FleissPerClass, []float64{0, 0, 0}) {
		t.Fatalf("per class = %v, want zeros", a.FleissPerClass)
	}
	// No units at all: zeros, no panic, per-class still has K entries.
	e := Agree(Ratings{Raters: 3, K: 3})
	if e.Units != 0 || e.FleissKappa != 0 || e.KrippendorffAlpha != 0 || e.GwetAC1 != 0 || e.PercentAgreement != 0 || len(e.FleissPerClass) != 3 {
		t.Fatalf("empty: %+v", e)
	}
}

func TestAgreementIgnoresOutOfRange(t *testing.T) {
	// Other and codes >= K are not labels: the result must equal the one
	// with Missing in their place.
	base := cacRaw4Raters()
	odd := Ratings{Raters: 4, K: 5, Codes: slices.Clone(base.Codes)}
	odd.Codes[2], odd.Codes[36] = Other, 9
	want := Agree(base)
	got := Agree(odd)
	if got.KrippendorffAlpha != want.KrippendorffAlpha || got.GwetAC1 != want.GwetAC1 || got.Items != want.Items {
		t.Fatalf("out-of-range codes changed the result: %+v vs %+v", got, want)
	}
}

func TestRatingsMalformed(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("Agree on 5 codes with 2 raters did not panic")
		}
	}()
	Agree(Ratings{Raters: 2, K: 2, Codes: []int{0, 1, 0, 1, 0}})
}
