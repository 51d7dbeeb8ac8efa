package metrics

import (
	"fmt"
	"testing"
)

func TestWilson(t *testing.T) {
	// statsmodels 0.13.5 proportion_confint(x, n, alpha=0.05, method="wilson")
	cases := []struct {
		x, n   int
		lo, hi float64
	}{
		{453, 520, 0.8396132179004122, 0.8972509487292933},
		{0, 10, 0.0, 0.27753279986288926},
		{10, 10, 0.7224672001371106, 1.0},
		{1, 3, 0.06149194472039626, 0.7923403991979523},
		{84, 100, 0.7557973061072976, 0.8990471151119521},
	}
	for _, c := range cases {
		lo, hi := Wilson(c.x, c.n)
		name := fmt.Sprintf("Wilson(%d, %d)", c.x, c.n)
		near(t, name+" lo", lo, c.lo, tight)
		near(t, name+" hi", hi, c.hi, tight)
		if lo < 0 || hi > 1 {
			t.Errorf("%s = [%v, %v] leaves [0, 1]", name, lo, hi)
		}
	}
	if lo, hi := Wilson(0, 0); lo != 0 || hi != 0 {
		t.Errorf("Wilson(0, 0) = %v, %v; want 0, 0", lo, hi)
	}
}
