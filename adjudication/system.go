package adjudication

import (
	"cmp"
	"slices"

	"github.com/annotate-dev/annotate/tally"
)

// The system view of `annotate review --system`: the expert's entailment
// classes against one system's predictions over the verified claims, and
// the claims of each disagreement. The store says which claims are
// verified (tally.Verify) and reads the two values; the matrix is built
// here.

// SystemPair is one verified claim: the expert's class and the system's
// predicted value.
type SystemPair struct {
	Item           int64
	Expert, System string
}

// Confusion is the expert-versus-system matrix.
type Confusion struct {
	N, Agree int
	// Matrix: expert class -> system class (tally.OtherClass for values
	// outside the classes) -> claims; every cell present, zero or not.
	Matrix map[string]map[string]int
	Cells  []Cell // off the diagonal, most claims first, then in class order
}

// Cell is one off-diagonal cell of the matrix: the claims the expert put in
// one class and the system in another.
type Cell struct {
	Expert, System string
	Items          []int64 // in the order of the pairs
}

// Confuse builds the matrix of the pairs over the classes: a system value
// outside the classes counts in the tally.OtherClass column.
func Confuse(classes []string, pairs []SystemPair) Confusion {
	c := Confusion{Matrix: map[string]map[string]int{}}
	for _, e := range classes {
		c.Matrix[e] = map[string]int{tally.OtherClass: 0}
		for _, p := range classes {
			c.Matrix[e][p] = 0
		}
	}
	cells := map[[2]string]*Cell{}
	for _, p := range pairs {
		sys := p.System
		if !slices.Contains(classes, sys) {
			sys = tally.OtherClass
		}
		c.N++
		c.Matrix[p.Expert][sys]++
		if sys == p.Expert {
			c.Agree++
			continue
		}
		k := [2]string{p.Expert, sys}
		if cells[k] == nil {
			cells[k] = &Cell{Expert: p.Expert, System: sys}
		}
		cells[k].Items = append(cells[k].Items, p.Item)
	}
	for _, cell := range cells {
		c.Cells = append(c.Cells, *cell)
	}
	slices.SortFunc(c.Cells, func(a, b Cell) int { return compareCells(classes, a, b) })
	return c
}

// compareCells orders cells by size, largest first, then by the expert's
// class and the system's in class order (OtherClass last).
func compareCells(classes []string, a, b Cell) int {
	rank := func(class string) int {
		if i := slices.Index(classes, class); i >= 0 {
			return i
		}
		return len(classes)
	}
	return cmp.Or(
		len(b.Items)-len(a.Items),
		rank(a.Expert)-rank(b.Expert),
		rank(a.System)-rank(b.System),
	)
}
