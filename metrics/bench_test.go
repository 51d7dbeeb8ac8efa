package metrics

import (
	"math/rand/v2"
	"testing"
)

// randomRatings makes units×raters seeded random codes over k categories,
// with about 5% Missing so the missing-data paths run too.
func randomRatings(units, raters, k int) Ratings {
	rng := rand.New(rand.NewPCG(1, 2))
	codes := make([]int, units*raters)
	for i := range codes {
		if rng.IntN(20) == 0 {
			codes[i] = Missing
		} else {
			codes[i] = rng.IntN(k)
		}
	}
	return Ratings{Codes: codes, Raters: raters, K: k}
}

func TestAllocationsDoNotGrowWithItems(t *testing.T) {
	// The package promises a fixed number of allocations per call, none per
	// item: 100 units and 100,000 units must allocate the same.
	small, large := randomRatings(100, 3, 3), randomRatings(100_000, 3, 3)
	for name, f := range map[string]func(Ratings){
		"Agree":          func(r Ratings) { Agree(r) },
		"FleissPerClass": func(r Ratings) { FleissPerClass(r) },
		"AgreeScaled":    func(r Ratings) { AgreeScaled(r, Scale{Level: Ordinal}) },
		"NewConfusion+Report": func(r Ratings) {
			NewConfusion(r.Codes[:len(r.Codes)/2], r.Codes[len(r.Codes)/2:], r.K).Report()
		},
	} {
		a := testing.AllocsPerRun(5, func() { f(small) })
		b := testing.AllocsPerRun(5, func() { f(large) })
		if a != b {
			t.Errorf("%s: %v allocations for 100 units, %v for 100,000", name, a, b)
		}
	}
}

func BenchmarkAgreement1M(b *testing.B) {
	r := randomRatings(1_000_000, 3, 3)
	b.ResetTimer()
	for b.Loop() {
		Agree(r)
	}
}

func BenchmarkAgreeScaled1M(b *testing.B) {
	r := randomRatings(1_000_000, 3, 3)
	b.ResetTimer()
	for b.Loop() {
		AgreeScaled(r, Scale{Level: Ordinal})
	}
}

func BenchmarkPerClass1M(b *testing.B) {
	r := randomRatings(1_000_000, 3, 3)
	b.ResetTimer()
	for b.Loop() {
		FleissPerClass(r)
	}
}

func BenchmarkConfusion1M(b *testing.B) {
	r := randomRatings(1_000_000, 2, 3)
	truth, pred := r.Rater(0), r.Rater(1)
	b.ResetTimer()
	for b.Loop() {
		NewConfusion(truth, pred, 3).Report()
	}
}

func BenchmarkCohenKappa1M(b *testing.B) {
	r := randomRatings(1_000_000, 2, 3)
	x, y := r.Rater(0), r.Rater(1)
	b.ResetTimer()
	for b.Loop() {
		CohenKappa(x, y, 3)
	}
}

// BenchmarkAgreementPatterns1M is Agree's work on the same million units
// counted per pattern, as the agreement report computes it.
func BenchmarkAgreementPatterns1M(b *testing.B) {
	p := PatternsOf(randomRatings(1_000_000, 3, 3))
	b.ResetTimer()
	for b.Loop() {
		AgreePatterns(p)
		for i := range p.Raters {
			for j := i + 1; j < p.Raters; j++ {
				PairCohenKappa(p, i, j)
				PairConfusion(p, i, j)
			}
		}
	}
}

// BenchmarkAgreeScaledPatterns1M is what an ordinal field adds to the
// agreement report: the ordinal α from the pattern counts and each pair's
// weighted kappas from its confusion matrix.
func BenchmarkAgreeScaledPatterns1M(b *testing.B) {
	p := PatternsOf(randomRatings(1_000_000, 3, 3))
	s := Scale{Level: Ordinal}
	b.ResetTimer()
	for b.Loop() {
		AgreeScaledPatterns(p, s)
		for i := range p.Raters {
			for j := i + 1; j < p.Raters; j++ {
				cm := PairConfusion(p, i, j)
				cm.WeightedKappa(Linear, s)
				cm.WeightedKappa(Quadratic, s)
			}
		}
	}
}
