package metrics

import "math"

// Z95 is the standard normal quantile for a two-sided 95% interval,
// scipy.stats.norm.ppf(0.975), the value statsmodels uses.
const Z95 = 1.959963984540054

// Wilson returns the Wilson score 95% interval for successes out of n, as
// statsmodels' proportion_confint(successes, n, alpha=0.05, method="wilson").
// Wilson rather than the normal approximation because it stays inside [0, 1]
// and behaves at 0% and 100%, which small pilot batches hit. (0, 0) if n <= 0.
func Wilson(successes, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 0
	}
	const z2 = Z95 * Z95
	fn := float64(n)
	p := float64(successes) / fn
	denom := 1 + z2/fn
	center := (p + z2/(2*fn)) / denom
	half := Z95 / denom * math.Sqrt(p*(1-p)/fn+z2/(4*fn*fn))
	return math.Max(0, center-half), math.Min(1, center+half)
}
