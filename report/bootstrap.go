package report

import "github.com/annotate-dev/annotate/metrics"

// --ci: percentile bootstrap intervals, seeded so that a report can be
// reproduced exactly. Every statistic of one report uses the same seed, so
// the intervals of, say, kappa and macro F1 come from the same resamples.
const (
	BootstrapReplicates = 1000
	BootstrapSeed       = 1
)

// BootstrapInfo says how the intervals of a report were drawn.
type BootstrapInfo struct {
	Replicates int   `json:"replicates"`
	Seed       int64 `json:"seed"`
}

func interval(n int, stat func(idx []int) float64) *[2]float64 {
	lo, hi := metrics.Bootstrap(n, BootstrapReplicates, BootstrapSeed, stat)
	return &[2]float64{lo, hi}
}

// bootstrapVerification adds intervals for kappa, macro F1 and each class's
// F1, resampling the verified claims.
func bootstrapVerification(v *Verification, p pairs, k int) {
	n := len(p.truth)
	t, q := make([]int, n), make([]int, n)
	report := func(idx []int) metrics.Report {
		for i, j := range idx {
			t[i], q[i] = p.truth[j], p.pred[j]
		}
		return metrics.NewConfusion(t, q, k).Report()
	}
	v.KappaCI95 = interval(n, func(idx []int) float64 { return report(idx).Kappa })
	v.MacroF1CI = interval(n, func(idx []int) float64 { return report(idx).Macro.F1 })
	for c, name := range v.classes {
		v.Classes[name].F1CI95 = interval(n, func(idx []int) float64 { return report(idx).Classes[c].F1 })
	}
}

// resampleRatings fills dst with the rows of r that idx names.
func resampleRatings(r metrics.Ratings, idx []int, dst []int) metrics.Ratings {
	m := r.Raters
	for i, j := range idx {
		copy(dst[i*m:(i+1)*m], r.Codes[j*m:(j+1)*m])
	}
	return metrics.Ratings{Codes: dst[:len(idx)*m], Raters: m, K: r.K}
}
