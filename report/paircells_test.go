package report

import (
	"math/rand/v2"
	"reflect"
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

// pairCells.confusion is the matrix of the listed pairs, and its report
// (what the metrics report prints) the same to the bit.
func TestPairCellsConfusionIsTheListed(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 6))
	for round := range 50 {
		cells := pairCells{}
		for range r.IntN(500) {
			p := [2]int{r.IntN(3), r.IntN(4) - 1}
			if p[1] < 0 {
				p[1] = metrics.Other
			}
			cells[p]++
		}
		truth, pred := cells.expand()
		got, want := cells.confusion(3), metrics.NewConfusion(truth, pred, 3)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(got.Report(), want.Report()) {
			t.Fatalf("round %d: confusion %v, listed %v", round, got, want)
		}
	}
}
