package report

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/annotate-dev/annotate/metrics"
)

// pairCells.expand lists what the obvious way lists: every pair, sorted by
// expert then system code (the system's "other" code included).
func TestPairCellsExpandIsTheSortedList(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 50 {
		n := r.IntN(500)
		cells := pairCells{}
		var list [][2]int
		for range n {
			p := [2]int{r.IntN(3), r.IntN(4) - 1}
			if p[1] < 0 {
				p[1] = metrics.Other
			}
			cells[p]++
			list = append(list, p)
		}
		slices.SortStableFunc(list, func(a, b [2]int) int {
			if a[0] != b[0] {
				return a[0] - b[0]
			}
			return a[1] - b[1]
		})
		truth, pred := cells.expand()
		if len(truth) != n || len(pred) != n {
			t.Fatalf("round %d: %d, %d pairs, want %d", round, len(truth), len(pred), n)
		}
		for i, p := range list {
			if truth[i] != p[0] || pred[i] != p[1] {
				t.Fatalf("round %d, pair %d: (%d, %d), want %v", round, i, truth[i], pred[i], p)
			}
		}
	}
}
