package metrics

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// randomSparse makes a units×raters matrix over k categories where each
// rater leaves out a unit with its own probability, so incomplete units,
// single labels and empty rows all occur.
func randomSparse(rng *rand.Rand, units, raters, k int) Ratings {
	skip := make([]int, raters)
	for i := range skip {
		skip[i] = rng.IntN(4) // 0: never; else 1 in skip+1
	}
	codes := make([]int, units*raters)
	for u := range units {
		for i := range raters {
			c := rng.IntN(k)
			if skip[i] > 0 && rng.IntN(skip[i]+1) == 0 {
				c = Missing
			}
			codes[u*raters+i] = c
		}
	}
	return Ratings{Codes: codes, Raters: raters, K: k}
}

// TestPatternsEqualRatings: every statistic from the pattern counts equals,
// bit for bit, the same statistic over the expanded matrix, on random
// matrices of 1 to 5 raters, 1 to 5 classes (a class may never occur), up
// to 300 units.
func TestPatternsEqualRatings(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 1))
	for trial := range 500 {
		raters, k := 1+rng.IntN(5), 1+rng.IntN(5)
		r := randomSparse(rng, rng.IntN(300), raters, k)
		p := PatternsOf(r)
		if got, want := AgreePatterns(p), Agree(r); !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d: AgreePatterns = %+v\nAgree = %+v", trial, got, want)
		}
		if back := p.Ratings(); len(back.Codes) != len(r.Codes) || !reflect.DeepEqual(Agree(back), Agree(r)) {
			t.Fatalf("trial %d: Ratings() of the patterns is not the matrix (%d codes, want %d)", trial, len(back.Codes), len(r.Codes))
		}
		if sorted := SortPatterns(p); !reflect.DeepEqual(AgreePatterns(sorted), Agree(r)) {
			t.Fatalf("trial %d: sorting the patterns changed the statistics", trial)
		}
		for i := range raters {
			for j := range raters {
				a, b := r.Rater(i), r.Rater(j)
				gk, gn := PairCohenKappa(p, i, j)
				wk, wn := CohenKappa(a, b, k)
				if gk != wk || gn != wn {
					t.Fatalf("trial %d pair %d,%d: PairCohenKappa = %v, %d; CohenKappa = %v, %d", trial, i, j, gk, gn, wk, wn)
				}
				if got, want := PairConfusion(p, i, j), NewConfusion(a, b, k); !reflect.DeepEqual(got, want) {
					t.Fatalf("trial %d pair %d,%d: PairConfusion = %v; NewConfusion = %v", trial, i, j, got, want)
				}
			}
		}
	}
}

// TestConfusionCountsEqualsPairs: NewConfusionCounts over counted pairs
// equals NewConfusion over the pairs repeated, with Missing and Other codes
// on either side.
func TestConfusionCountsEqualsPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 5))
	for trial := range 300 {
		k := rng.IntN(5)
		var truth, pred, counts, rt, rp []int
		for range rng.IntN(30) {
			x, y, n := rng.IntN(k+3)-2, rng.IntN(k+3)-2, rng.IntN(5)
			truth, pred, counts = append(truth, x), append(pred, y), append(counts, n)
			for range n {
				rt, rp = append(rt, x), append(rp, y)
			}
		}
		if got, want := NewConfusionCounts(truth, pred, counts, k), NewConfusion(rt, rp, k); !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d: NewConfusionCounts = %v, NewConfusion = %v", trial, got, want)
		}
	}
}

func TestPatternsOfCounts(t *testing.T) {
	// Rows a, b, a, a, empty: three patterns counted 3, 1, 1 in first-seen
	// order (by hand).
	const M = Missing
	r := Ratings{Raters: 2, K: 3, Codes: []int{0, 1, 2, M, 0, 1, 0, 1, M, M}}
	p := PatternsOf(r)
	if !slices.Equal(p.Counts, []int{3, 1, 1}) || !slices.Equal(p.Codes, []int{0, 1, 2, M, M, M}) {
		t.Fatalf("PatternsOf = %v × %v", p.Codes, p.Counts)
	}
	if p.Len() != 3 {
		t.Fatalf("Len = %d, want 3", p.Len())
	}
}

// TestIntegerSumsMatchFloatSums: the coefficients from the integer sums
// kept per number of labels agree, to float rounding, with the per-unit
// float accumulation they replace (transcribed below from the previous
// implementation), on random matrices of up to 6 raters.
func TestIntegerSumsMatchFloatSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 2))
	for range 300 {
		r := randomSparse(rng, 1+rng.IntN(2000), 1+rng.IntN(6), 2+rng.IntN(4))
		a := Agree(r)
		pa, ac1, alpha := floatSums(r)
		near(t, "percent agreement", a.PercentAgreement, pa, tight)
		near(t, "AC1", a.GwetAC1, ac1, tight)
		near(t, "alpha", a.KrippendorffAlpha, alpha, tight)
	}
}

// floatSums is the previous per-unit float accumulation of the sums
// behind percent agreement, AC1 and alpha, and the coefficients from them.
func floatSums(r Ratings) (pa, ac1, alpha float64) {
	k, m := r.K, r.Raters
	prevSum := make([]float64, k)
	byCat := make([]int, k)
	counts := make([]int, k)
	var paSum, coincident float64
	units, items, pairable, agree, total := 0, 0, 0, 0, 0
	for row := 0; row < len(r.Codes); row += m {
		clear(counts)
		n := 0
		for _, c := range r.Codes[row : row+m] {
			if uint(c) < uint(k) {
				counts[c]++
				n++
			}
		}
		if n == 0 {
			continue
		}
		units++
		same := 0
		for c, v := range counts {
			prevSum[c] += float64(v) / float64(n)
			same += v * (v - 1)
		}
		if n >= 2 {
			items++
			agree += same
			total += n * (n - 1)
			paSum += float64(same) / float64(n) / float64(n-1)
			pairable += n
			coincident += float64(same) / float64(n-1)
			for c, v := range counts {
				byCat[c] += v
			}
		}
	}
	if total > 0 {
		pa = float64(agree) / float64(total)
	}
	if items > 0 {
		pe := 0.0
		for _, s := range prevSum {
			p := s / float64(units)
			pe += p * (1 - p)
		}
		pe /= float64(k - 1)
		ac1 = chanceCorrected(paSum/float64(items), pe)
	}
	n := float64(pairable)
	expected := n * n
	for _, v := range byCat {
		expected -= float64(v) * float64(v)
	}
	if pairable >= 2 && expected > 0 {
		alpha = 1 - (n-1)*(n-coincident)/expected
	}
	return pa, ac1, alpha
}
