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

func TestUndefinedCoefficientsAreSaidSo(t *testing.T) {
	// scikit-learn: cohen_kappa_score([0,0],[0,0]) is nan (0/0); one
	// disagreement defines it (-0.0... here 0 with pe < 1).
	if NewConfusion([]int{0, 0}, []int{0, 0}, 3).KappaDefined() {
		t.Error("every label the same class: kappa is 0/0")
	}
	if NewConfusion(nil, nil, 3).KappaDefined() {
		t.Error("no item: kappa is undefined")
	}
	if !NewConfusion([]int{0, 1}, []int{0, 0}, 3).KappaDefined() {
		t.Error("two classes seen: kappa is defined")
	}
	one := Ratings{Codes: []int{0, Missing, 1, Missing}, Raters: 2, K: 2}
	a := Agree(one)
	if a.Defined.PercentAgreement || a.Defined.FleissKappa || a.Defined.KrippendorffAlpha || a.Defined.GwetAC1 {
		t.Errorf("no unit labelled twice: %+v", a.Defined)
	}
	same := Ratings{Codes: []int{0, 0, 0, 0}, Raters: 2, K: 2}
	a = Agree(same)
	if !a.Defined.PercentAgreement || a.Defined.FleissKappa || a.Defined.KrippendorffAlpha || !a.Defined.GwetAC1 {
		t.Errorf("all agree on one class: percent and AC1 defined, kappa and alpha not: %+v", a.Defined)
	}
}
