package metrics

import "testing"

func TestCohenKappaMissing(t *testing.T) {
	a := []int{0, 1, 2, 1, Missing, 0, 2, 2, 1, 0, 1, Missing}
	b := []int{0, 1, 1, 1, 2, Missing, 2, 0, 1, 0, 2, 1}
	// sklearn cohen_kappa_score over the 9 items both labelled,
	// labels=[0, 1, 2]: 0.49056603773584906.
	k, n := CohenKappa(a, b, 3)
	if n != 9 {
		t.Fatalf("n = %d, want 9", n)
	}
	near(t, "kappa", k, 0.49056603773584906, tight)
	// Kappa is symmetric in its raters.
	k2, _ := CohenKappa(b, a, 3)
	near(t, "kappa swapped", k2, k, tight)
	// The confusion-matrix form must agree when nothing falls outside.
	near(t, "Confusion.Kappa", NewConfusion(a, b, 3).Kappa(), k, tight)
}

func TestCohenKappaUndefined(t *testing.T) {
	// Both raters always say 0: pe = 1, kappa is 0/0 (sklearn returns nan);
	// this package reports 0 by its documented convention.
	k, n := CohenKappa([]int{0, 0, 0}, []int{0, 0, 0}, 2)
	if k != 0 || n != 3 {
		t.Fatalf("kappa, n = %v, %d; want 0, 3", k, n)
	}
	if k, n := CohenKappa(nil, nil, 2); k != 0 || n != 0 {
		t.Fatalf("empty: kappa, n = %v, %d; want 0, 0", k, n)
	}
	// Perfect agreement over two categories is exactly 1.
	if k, _ := CohenKappa([]int{0, 1, 1, 0}, []int{0, 1, 1, 0}, 2); k != 1 {
		t.Fatalf("perfect agreement kappa = %v, want 1", k)
	}
}
