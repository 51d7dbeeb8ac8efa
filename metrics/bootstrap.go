package metrics

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Bootstrap returns the 95% percentile bootstrap interval of a statistic
// over n items. Each of reps replicates draws n indices uniformly with
// replacement and calls stat with them; lo and hi are the 2.5th and 97.5th
// percentiles of the replicates, linearly interpolated as numpy.percentile's
// default.
//
// The generator is math/rand/v2's PCG seeded with (uint64(seed), 0): the
// same seed gives the same interval on every machine, so a reported interval
// can be reproduced (the tests pin one).
//
// stat receives the same index slice every time, overwritten between calls:
// it must not keep it. Replicates where stat returns NaN are left out (a
// ratio with an empty denominator, say). (0, 0) if n <= 0, reps <= 0 or
// every replicate is NaN.
func Bootstrap(n, reps int, seed int64, stat func(idx []int) float64) (lo, hi float64) {
	if n <= 0 || reps <= 0 {
		return 0, 0
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	idx := make([]int, n)
	values := make([]float64, 0, reps)
	for range reps {
		for i := range idx {
			idx[i] = rng.IntN(n)
		}
		if v := stat(idx); !math.IsNaN(v) {
			values = append(values, v)
		}
	}
	if len(values) == 0 {
		return 0, 0
	}
	slices.Sort(values)
	return percentile(values, 2.5), percentile(values, 97.5)
}

// percentile of sorted values, q in [0, 100], with numpy's default "linear"
// interpolation between the two nearest ranks.
func percentile(sorted []float64, q float64) float64 {
	pos := q / 100 * float64(len(sorted)-1)
	i := int(math.Floor(pos))
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	frac := pos - float64(i)
	return sorted[i] + frac*(sorted[i+1]-sorted[i])
}
