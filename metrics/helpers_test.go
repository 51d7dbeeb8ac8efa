package metrics

import (
	"math"
	"testing"
)

// near fails the test unless got is within tol of want.
func near(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.IsNaN(got) || math.Abs(got-want) > tol {
		t.Errorf("%s = %.15g, want %.15g (±%g)", name, got, want, tol)
	}
}

// tight is the tolerance for values recomputed from the same counts by a
// reference implementation: only float rounding may differ.
const tight = 1e-12
