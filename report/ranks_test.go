package report

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// ranks from the distinct values equal, bit for bit, the ranks of a stable
// sort of x (rankRef, the previous implementation), on random values with
// many ties.
func TestRanksEqualSortedRanks(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 7))
	for trial := range 200 {
		x := make([]float64, rng.IntN(300))
		d := 1 + rng.IntN(6)
		for i := range x {
			x[i] = float64(rng.IntN(d+1)) / float64(d)
		}
		if got, want := ranks(x), rankRef(x); !slices.Equal(got, want) {
			t.Fatalf("trial %d: ranks(%v) = %v, want %v", trial, x, got, want)
		}
	}
	// By hand: 0.5 0 0.5 1 0 → 0s at 1,2 (rank 1.5), 0.5s at 3,4 (3.5), 1 at 5.
	if got := ranks([]float64{0.5, 0, 0.5, 1, 0}); !slices.Equal(got, []float64{3.5, 1.5, 3.5, 5, 1.5}) {
		t.Fatalf("ranks = %v", got)
	}
}

func rankRef(x []float64) []float64 {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case x[a] < x[b]:
			return -1
		case x[a] > x[b]:
			return 1
		}
		return 0
	})
	out := make([]float64, len(x))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && x[idx[j+1]] == x[idx[i]] {
			j++
		}
		avg := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			out[idx[k]] = avg
		}
		i = j + 1
	}
	return out
}
