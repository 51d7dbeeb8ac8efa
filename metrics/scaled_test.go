package metrics

import (
	"math/rand/v2"
	"testing"
)

// The reference implementations behind the values below, run with
// /usr/bin/python3 (Debian: numpy 1.24.2, scikit-learn 1.2.1, statsmodels,
// nltk 3.8):
//   - fast-krippendorff (github.com/pln-fing-udelar/fast-krippendorff,
//     commit b1eb616, on PYTHONPATH): krippendorff.alpha(reliability_data=
//     raters × units with nan for no label, value_domain=the values in the
//     scale's order, level_of_measurement="nominal"/"ordinal"/"interval");
//   - nltk AnnotationTask(triples, distance=interval_distance).alpha() for
//     interval α;
//   - sklearn.metrics.cohen_kappa_score(a, b, labels=the scale's order,
//     weights=None/"linear"/"quadratic") over the units both labelled;
//   - statsmodels.stats.inter_rater.cohens_kappa(table, weights=the
//     values, wt="linear"/"quadratic") for unevenly spaced interval values.

var (
	ordinal  = Scale{Level: Ordinal}
	interval = Scale{Level: Interval}
)

// TestKrippendorff2011: the reliability data of Krippendorff (2011),
// "Computing Krippendorff's Alpha-Reliability", section C (4 observers, 12
// units, values 1..5, missing data), whose published α are nominal 0.743,
// ordinal 0.815, interval 0.849.
func TestKrippendorff2011(t *testing.T) {
	r := cacRaw4Raters() // the same matrix, values 1..5 as codes 0..4
	checks := []struct {
		name             string
		s                Scale
		paper, reference float64
	}{
		// fast-krippendorff with value_domain=[1,2,3,4,5]:
		{"nominal", Scale{}, 0.743, 0.743421052631579},
		{"ordinal", ordinal, 0.815, 0.8153875037548814},
		// also nltk with interval_distance: 0.8491071428571428
		{"interval", interval, 0.849, 0.8491071428571428},
		{"interval, values 1..5", Scale{Level: Interval, Values: []float64{1, 2, 3, 4, 5}}, 0.849, 0.8491071428571428},
	}
	for _, c := range checks {
		a := AgreeScaled(r, c.s)
		if !a.Defined.KrippendorffAlpha || a.Items != 11 {
			t.Fatalf("%s: defined %v, items %d; want true, 11", c.name, a.Defined.KrippendorffAlpha, a.Items)
		}
		near(t, c.name+" (paper)", a.KrippendorffAlpha, c.paper, 5e-4)
		near(t, c.name, a.KrippendorffAlpha, c.reference, tight)
	}
	// The ordinal metric reads ranks only: the values 1, 2, 4, 8, 16 leave
	// it unchanged and move the interval one (fast-krippendorff with
	// value_domain=[1,2,4,8,16]: 0.9344732658679384).
	pow2 := Scale{Level: Interval, Values: []float64{1, 2, 4, 8, 16}}
	near(t, "interval, values 1,2,4,..16", AgreeScaled(r, pow2).KrippendorffAlpha, 0.9344732658679384, tight)

	// Cohen's kappa of each pair of observers over the units both coded,
	// sklearn cohen_kappa_score(labels=[1,2,3,4,5], weights=…):
	// unweighted, linear, quadratic.
	pairs := []struct {
		i, j, n          int
		plain, lin, quad float64
	}{
		{0, 1, 9, 0.8448275862068966, 0.8941176470588236, 0.9395973154362416},
		{0, 2, 8, 0.4782608695652174, 0.5, 0.5384615384615384},
		{0, 3, 9, 0.85, 0.7157894736842105, 0.5524861878453038},
		{1, 2, 9, 0.5423728813559321, 0.7157894736842105, 0.8571428571428572},
		{1, 3, 10, 0.8701298701298701, 0.855072463768116, 0.8709677419354839},
		{2, 3, 10, 0.6153846153846154, 0.7727272727272727, 0.8920863309352518},
	}
	for _, p := range pairs {
		cm := NewConfusion(r.Rater(p.i), r.Rater(p.j), r.K)
		if cm.N() != p.n {
			t.Fatalf("pair %d,%d: %d units, want %d", p.i, p.j, cm.N(), p.n)
		}
		near(t, "kappa", cm.Kappa(), p.plain, tight)
		lin, ok1 := cm.WeightedKappa(Linear, ordinal)
		quad, ok2 := cm.WeightedKappa(Quadratic, ordinal)
		if !ok1 || !ok2 {
			t.Fatalf("pair %d,%d: weighted kappa undefined", p.i, p.j)
		}
		near(t, "linear kappa", lin, p.lin, tight)
		near(t, "quadratic kappa", quad, p.quad, tight)
	}
}

// TestScaledByHand: two raters, four units (0,0) (0,1) (1,2) (0,2) on a
// 0 < 1 < 2 scale, worked by hand from Krippendorff's definitions.
//
// Coincidences: o00 = 2, o01 = o12 = o02 = 1 (and symmetric); n0 = 4,
// n1 = 2, n2 = 2, n = 8.
//
//	ordinal  δ²01 = (4+2 − 3)² = 9, δ²12 = (2+2 − 2)² = 4, δ²02 = (8 − 3)² = 25;
//	         D_o ∝ 2(9+4+25) = 76, D_e ∝ 2(4·2·9 + 2·2·4 + 4·2·25) = 576;
//	         α = 1 − 7·76/576 = 44/576
//	interval δ² = 1, 1, 4: α = 1 − 7·12/88 = 4/88
//	nominal  α = 1 − 7·6/(64 − 24) = −0.05
//
// Within one step: the pairs of the first three units (6 of 8 ordered
// pairs). fast-krippendorff gives the three α: -0.050000000000000044,
// 0.07638888888888884, 0.0454545454545453.
func TestScaledByHand(t *testing.T) {
	a, b := []int{0, 0, 1, 0}, []int{0, 1, 2, 2}
	r := Ratings{Raters: 2, K: 3}
	for u := range a {
		r.Codes = append(r.Codes, a[u], b[u])
	}
	near(t, "ordinal alpha", AgreeScaled(r, ordinal).KrippendorffAlpha, 44.0/576, tight)
	near(t, "interval alpha", AgreeScaled(r, interval).KrippendorffAlpha, 4.0/88, tight)
	near(t, "nominal alpha", AgreeScaled(r, Scale{}).KrippendorffAlpha, -0.05, tight)
	near(t, "within one", AgreeScaled(r, ordinal).WithinOne, 0.75, 0)

	// Cohen's weighted kappa: rows 0: (0,0) (0,1) (0,2), row 1: (1,2);
	// row totals 3, 1, 0, column totals 1, 1, 2, n = 4.
	//   linear:    observed 0+1+2+1 = 4, expected 3·1·1 + 3·2·2 + 1·1·1 +
	//              1·2·1 = 18, κ = 1 − 4·4/18 = 1/9
	//   quadratic: observed 6, expected 3 + 24 + 1 + 2 = 30, κ = 1 − 24/30
	// sklearn: 0.11111111111111116, 0.19999999999999996 (unweighted 0.0).
	cm := NewConfusion(a, b, 3)
	lin, _ := cm.WeightedKappa(Linear, ordinal)
	quad, _ := cm.WeightedKappa(Quadratic, ordinal)
	near(t, "linear kappa", lin, 1.0/9, tight)
	near(t, "quadratic kappa", quad, 0.2, tight)
	near(t, "pair within one", cm.WithinOne(), 0.75, 0)

	// On the interval scale 0, 1, 3 the weights are the values'
	// differences: statsmodels cohens_kappa(table, weights=[0,1,3],
	// wt=…) gives linear 0.07692307692307687, quadratic
	// 0.15151515151515138; fast-krippendorff's interval α with the values
	// 0, 1, 3: -0.02083333333333348.
	uneven := Scale{Level: Interval, Values: []float64{0, 1, 3}}
	lin, _ = cm.WeightedKappa(Linear, uneven)
	quad, _ = cm.WeightedKappa(Quadratic, uneven)
	near(t, "linear kappa, values 0,1,3", lin, 0.07692307692307687, tight)
	near(t, "quadratic kappa, values 0,1,3", quad, 0.15151515151515138, tight)
	near(t, "interval alpha, values 0,1,3", AgreeScaled(r, uneven).KrippendorffAlpha, -0.02083333333333348, tight)
}

// TestSNLIScaled: the SNLI crowd labels read on the scale entailment <
// neutral < contradiction (neutral between the two: a check of the
// computation on real data with five raters and missing labels, not a
// claim that annotate's entailment field is ordinal; it is nominal).
func TestSNLIScaled(t *testing.T) {
	r := loadSNLI(t)
	// fast-krippendorff over the 5 × 1,289 matrix, value_domain=[0,1,2];
	// interval also nltk with interval_distance: 0.7692959621493838.
	near(t, "ordinal alpha", AgreeScaled(r, ordinal).KrippendorffAlpha, 0.7685238108469616, tight)
	near(t, "interval alpha", AgreeScaled(r, interval).KrippendorffAlpha, 0.7692959621493838, tight)
	near(t, "nominal alpha", AgreeScaled(r, Scale{}).KrippendorffAlpha, 0.6601856990140231, tight)
	// Every ordered pair of labels of a pair (Python loops): 25078 of
	// 25756 are at most one step apart (only entailment/contradiction
	// pairs are not).
	near(t, "within one", AgreeScaled(r, ordinal).WithinOne, 25078.0/25756, tight)
	// The first two label columns (sklearn, labels=[0,1,2]); the columns
	// are positions, not people, which does not matter to the arithmetic.
	cm := NewConfusion(r.Rater(0), r.Rater(1), 3)
	lin, _ := cm.WeightedKappa(Linear, ordinal)
	quad, _ := cm.WeightedKappa(Quadratic, ordinal)
	near(t, "kappa", cm.Kappa(), 0.6916162150547731, tight)
	near(t, "linear kappa", lin, 0.740504454357326, tight)
	near(t, "quadratic kappa", quad, 0.7894978980505907, tight)
}

func TestScaledUndefined(t *testing.T) {
	// One label per unit: nothing pairable.
	one := Ratings{Codes: []int{0, Missing, 2, Missing}, Raters: 2, K: 3}
	if a := AgreeScaled(one, ordinal); a.Defined.KrippendorffAlpha || a.Defined.WithinOne || a.Items != 0 {
		t.Errorf("no unit labelled twice: %+v", a)
	}
	// Everyone says 1: no disagreement expected, α is 0/0; every pair is
	// within one step.
	same := Ratings{Codes: []int{1, 1, 1, 1}, Raters: 2, K: 3}
	a := AgreeScaled(same, ordinal)
	if a.Defined.KrippendorffAlpha || !a.Defined.WithinOne || a.WithinOne != 1 {
		t.Errorf("all agree on one value: %+v", a)
	}
	// A nominal scale has no steps.
	if AgreeScaled(same, Scale{}).Defined.WithinOne {
		t.Error("within one on a nominal scale")
	}
	// sklearn cohen_kappa_score([1,1],[1,1],weights="linear") is nan.
	if _, ok := NewConfusion([]int{1, 1}, []int{1, 1}, 3).WeightedKappa(Linear, ordinal); ok {
		t.Error("one value only: weighted kappa is 0/0")
	}
	if _, ok := NewConfusion(nil, nil, 3).WeightedKappa(Quadratic, ordinal); ok {
		t.Error("no pair: weighted kappa is undefined")
	}
	// Perfect agreement over two values is exactly 1.
	if k, ok := NewConfusion([]int{0, 2, 1}, []int{0, 2, 1}, 3).WeightedKappa(Quadratic, ordinal); !ok || k != 1 {
		t.Errorf("perfect agreement: %v, %v", k, ok)
	}
}

// TestScaledPatternsEqualRatings: the scaled statistics from the pattern
// counts equal, bit for bit, the same statistics over the expanded
// matrix, and the weighted kappas of a pair from the pattern counts equal
// the item-by-item sums of scaledByItem.
func TestScaledPatternsEqualRatings(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 2))
	for trial := range 500 {
		raters, k := 1+rng.IntN(5), 1+rng.IntN(6)
		r := randomSparse(rng, rng.IntN(300), raters, k)
		p := PatternsOf(r)
		values := make([]float64, k)
		for c := range values {
			values[c] = float64(c*c + rng.IntN(3)) // integers, unevenly spaced (the sums need no order)
		}
		for _, s := range []Scale{{}, ordinal, interval, {Level: Interval, Values: values}} {
			if got, want := AgreeScaledPatterns(p, s), AgreeScaled(r, s); got != want {
				t.Fatalf("trial %d scale %v: AgreeScaledPatterns = %+v\nAgreeScaled = %+v", trial, s, got, want)
			}
			if got, want := AgreeScaledPatterns(SortPatterns(p), s), AgreeScaled(r, s); got != want {
				t.Fatalf("trial %d: sorting the patterns changed the statistics", trial)
			}
			for i := range raters {
				for j := range raters {
					cm := PairConfusion(p, i, j)
					for _, w := range []Weighting{Linear, Quadratic} {
						got, gotOK := cm.WeightedKappa(w, s)
						want, wantOK := weightedKappaByItem(r.Rater(i), r.Rater(j), k, w, s)
						if got != want || gotOK != wantOK {
							t.Fatalf("trial %d pair %d,%d weighting %d: %v, %v from the patterns; %v, %v item by item", trial, i, j, w, got, gotOK, want, wantOK)
						}
					}
					if got, want := cm.WithinOne(), withinOneByItem(r.Rater(i), r.Rater(j), k); got != want {
						t.Fatalf("trial %d pair %d,%d: within one %v from the patterns, %v item by item", trial, i, j, got, want)
					}
				}
			}
		}
	}
}

// TestScaledMatchesUnitByUnit: α from the integer coincidence sums agrees,
// to float rounding, with the textbook computation (scaledByItem: each
// ordered pair of labels of a unit adds 1/(n_u − 1) to the coincidence
// matrix), and on a nominal scale with Agree's α.
func TestScaledMatchesUnitByUnit(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 3))
	for range 300 {
		k := 2 + rng.IntN(5)
		r := randomSparse(rng, 1+rng.IntN(500), 1+rng.IntN(6), k)
		values := make([]float64, k)
		for c := range values {
			values[c] = float64(c) * (1 + rng.Float64())
		}
		for _, s := range []Scale{{}, ordinal, interval, {Level: Interval, Values: values}} {
			a := AgreeScaled(r, s)
			alpha, ok, within := scaledByItem(r, s)
			if a.Defined.KrippendorffAlpha != ok {
				t.Fatalf("scale %v: defined %v, by item %v", s, a.Defined.KrippendorffAlpha, ok)
			}
			near(t, "alpha", a.KrippendorffAlpha, alpha, 1e-9)
			if s.Level != Nominal {
				near(t, "within one", a.WithinOne, within, tight)
			}
		}
		if n, s := Agree(r), AgreeScaled(r, Scale{}); n.Defined.KrippendorffAlpha == s.Defined.KrippendorffAlpha {
			near(t, "nominal alpha against Agree", s.KrippendorffAlpha, n.KrippendorffAlpha, 1e-9)
		} else {
			t.Fatalf("nominal alpha defined %v, Agree's %v", s.Defined.KrippendorffAlpha, n.Defined.KrippendorffAlpha)
		}
	}
}

// scaledByItem is Krippendorff's α computed the obvious way: unit by unit,
// every ordered pair of labels of a unit with n_u ≥ 2 labels adds
// 1/(n_u − 1) to the coincidence matrix; δ² as defined by the scale.
func scaledByItem(r Ratings, s Scale) (alpha float64, defined bool, within float64) {
	k := r.K
	o := make([][]float64, k)
	for c := range o {
		o[c] = make([]float64, k)
	}
	near, pairs := 0, 0
	for u := 0; u < r.Units(); u++ {
		var labels []int
		for _, c := range r.Codes[u*r.Raters : (u+1)*r.Raters] {
			if c >= 0 && c < k {
				labels = append(labels, c)
			}
		}
		if len(labels) < 2 {
			continue
		}
		for i, c := range labels {
			for j, d := range labels {
				if i == j {
					continue
				}
				o[c][d] += 1 / float64(len(labels)-1)
				pairs++
				if c-d <= 1 && d-c <= 1 {
					near++
				}
			}
		}
	}
	nc := make([]float64, k)
	n := 0.0
	for c := range o {
		for d := range o {
			nc[c] += o[c][d]
		}
		n += nc[c]
	}
	value := func(c int) float64 {
		if s.Values != nil {
			return s.Values[c]
		}
		return float64(c)
	}
	delta := func(c, d int) float64 {
		switch {
		case c == d:
			return 0
		case s.Level == Nominal:
			return 1
		case s.Level == Ordinal:
			between := 0.0
			for g := min(c, d); g <= max(c, d); g++ {
				between += nc[g]
			}
			x := between - (nc[c]+nc[d])/2
			return x * x
		}
		x := value(c) - value(d)
		return x * x
	}
	var do, de float64
	for c := range k {
		for d := range k {
			do += o[c][d] * delta(c, d)
			de += nc[c] * nc[d] * delta(c, d)
		}
	}
	if pairs > 0 {
		within = float64(near) / float64(pairs)
	}
	if n < 2 || de <= 0 {
		return 0, false, within
	}
	return 1 - (n-1)*do/de, true, within
}

// weightedKappaByItem is Cohen's weighted kappa summed item by item over
// the items both raters labelled: the observed weighted disagreement item
// by item (exact with the integer weights the property test uses), the
// expected one from the raters' totals.
func weightedKappaByItem(a, b []int, k int, w Weighting, s Scale) (float64, bool) {
	rows, cols := make([]int, k), make([]int, k)
	n := 0
	var do, de float64
	for u := range a {
		x, y := a[u], b[u]
		if x < 0 || x >= k || y < 0 || y >= k {
			continue
		}
		rows[x]++
		cols[y]++
		do += w.weight(s, x, y)
		n++
	}
	for i := range k {
		for j := range k {
			de += float64(rows[i]) * float64(cols[j]) * w.weight(s, i, j)
		}
	}
	if n == 0 || de <= 0 {
		return 0, false
	}
	return 1 - float64(n)*do/de, true
}

func withinOneByItem(a, b []int, k int) float64 {
	near, n := 0, 0
	for u := range a {
		x, y := a[u], b[u]
		if x < 0 || x >= k || y < 0 || y >= k {
			continue
		}
		n++
		if x-y <= 1 && y-x <= 1 {
			near++
		}
	}
	return ratio(near, n)
}
