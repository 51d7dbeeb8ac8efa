package metrics

// Agreement holds the multi-rater statistics of one field, as printed by
// `annotate agreement`. Each coefficient is computed over its own set of
// units, which the counts describe.
type Agreement struct {
	Units    int // units with at least one label (Gwet's AC1 chance term)
	Items    int // units with at least two labels (percent agreement, alpha, AC1)
	Complete int // units labelled by every rater (Fleiss' kappa)

	PercentAgreement  float64
	FleissKappa       float64
	FleissPerClass    []float64 // category-specific Fleiss' kappa, len K
	KrippendorffAlpha float64
	GwetAC1           float64
	// GwetAC1Observed is AC1 with the chance term over the categories
	// observed in the units instead of the schema's: irrCAC's
	// gwet.ac1.raw with its default categories. It differs from GwetAC1
	// when some category of the field is never used.
	GwetAC1Observed float64

	// Defined says which coefficients have something to count: with no
	// unit to compare, or a chance agreement of 1 (every label the same
	// class), a coefficient is 0/0, which the reports print as null, not
	// as the 0 the fields above hold then.
	Defined struct {
		PercentAgreement, FleissKappa, KrippendorffAlpha, GwetAC1, GwetAC1Observed bool
		FleissPerClass                                                             []bool
	}
}

// Agree computes every multi-rater statistic in one pass over r.
func Agree(r Ratings) Agreement { return agreeTally(tallyRatings(r)) }

func agreeTally(t tally) Agreement {
	a := Agreement{
		Units:             t.units,
		Items:             t.items,
		Complete:          t.complete,
		PercentAgreement:  t.percentAgreement(),
		FleissKappa:       t.fleiss(),
		FleissPerClass:    t.fleissPerClass(),
		KrippendorffAlpha: t.alpha(),
		GwetAC1:           t.ac1(),
	}
	var q int
	a.GwetAC1Observed, q = t.ac1Observed()
	d := &a.Defined
	d.PercentAgreement = t.pairsTotal > 0
	nm := float64(t.complete) * float64(t.raters)
	pe := 0.0
	d.FleissPerClass = make([]bool, t.k)
	for c, v := range t.completeByCat {
		p := float64(v) / max(nm, 1)
		pe += p * p
		d.FleissPerClass[c] = t.complete > 0 && t.raters >= 2 && p > 0 && p < 1
	}
	d.FleissKappa = t.complete > 0 && t.raters >= 2 && pe < 1
	n := float64(t.pairable)
	expected := n * n
	for _, v := range t.pairableByCat {
		expected -= float64(v) * float64(v)
	}
	d.KrippendorffAlpha = t.pairable >= 2 && expected > 0
	d.GwetAC1 = t.items > 0 && t.k >= 2
	d.GwetAC1Observed = t.items > 0 && q >= 2
	return a
}

// tally holds the sums every statistic needs, gathered in one pass. Every
// sum is an integer: the ones the coefficients divide per unit (by the
// unit's number of labels n) are kept per n and divided once at the end, so
// the result does not depend on the order of the units, and a pattern
// counted w times (AgreePatterns) adds exactly what w equal units add.
type tally struct {
	k, raters              int
	units, items, complete int
	pairsAgree, pairsTotal int   // sum n_uc(n_uc-1); sum m_u(m_u-1)
	sameByN                []int // [n]: sum over units with n labels of sum_c n_uc(n_uc-1)
	labelsByN              []int // [n*k+c]: sum over units with n labels of n_uc
	pairable               int   // labels in items (alpha's n)
	pairableByCat          []int // labels per category in items
	completeByCat          []int // labels per category in complete units
	completeDisagreeByCat  []int // sum over complete units of n_uc(m-n_uc)
	completeSquares        int   // sum over complete units of sum_c n_uc²
}

func tallyRatings(r Ratings) tally {
	r.check()
	return tallyRows(r.Codes, nil, r.Raters, r.K)
}

// tallyRows tallies rows of m codes, row i counted weights[i] times (nil:
// once each).
func tallyRows(codes, weights []int, m, k int) tally {
	k = max(k, 0)
	t := tally{
		k: k, raters: m,
		sameByN:               make([]int, m+1),
		labelsByN:             make([]int, (m+1)*k),
		pairableByCat:         make([]int, k),
		completeByCat:         make([]int, k),
		completeDisagreeByCat: make([]int, k),
	}
	counts := make([]int, k)
	for i, row := 0, 0; row+m <= len(codes); i, row = i+1, row+m {
		w := 1
		if weights != nil {
			w = weights[i]
		}
		clear(counts)
		n := 0
		for _, c := range codes[row : row+m] {
			if uint(c) < uint(k) {
				counts[c]++
				n++
			}
		}
		if n == 0 || w == 0 {
			continue
		}
		t.units += w
		same := 0
		byN := t.labelsByN[n*k : n*k+k]
		for c, v := range counts { // branch-free: K is small
			byN[c] += w * v
			same += v * (v - 1)
		}
		if n >= 2 {
			t.items += w
			t.pairsAgree += w * same
			t.pairsTotal += w * n * (n - 1)
			t.sameByN[n] += w * same
			t.pairable += w * n
			for c, v := range counts {
				t.pairableByCat[c] += w * v
			}
		}
		if n == m {
			t.complete += w
			for c, v := range counts {
				t.completeByCat[c] += w * v
				t.completeDisagreeByCat[c] += w * v * (m - v)
				t.completeSquares += w * v * v
			}
		}
	}
	return t
}

// paSum is the sum over items of their per-unit agreement
// sum_c n_uc(n_uc-1) / (n(n-1)).
func (t tally) paSum() float64 {
	s := 0.0
	for n := 2; n < len(t.sameByN); n++ {
		s += float64(t.sameByN[n]) / float64(n*(n-1))
	}
	return s
}

// coincidentSame is alpha's sum over items of sum_c n_uc(n_uc-1)/(n-1).
func (t tally) coincidentSame() float64 {
	s := 0.0
	for n := 2; n < len(t.sameByN); n++ {
		s += float64(t.sameByN[n]) / float64(n-1)
	}
	return s
}

// prevalence is AC1's sum over units of n_uc / n, for category c.
func (t tally) prevalence(c int) float64 {
	s := 0.0
	for n := 1; n*t.k+c < len(t.labelsByN); n++ {
		s += float64(t.labelsByN[n*t.k+c]) / float64(n)
	}
	return s
}

func (t tally) percentAgreement() float64 { return ratio(t.pairsAgree, t.pairsTotal) }

func (t tally) fleiss() float64 {
	if t.complete == 0 || t.raters < 2 {
		return 0
	}
	nm := float64(t.complete) * float64(t.raters)
	pe := 0.0
	for _, v := range t.completeByCat {
		p := float64(v) / nm
		pe += p * p
	}
	po := (float64(t.completeSquares) - nm) / (nm * float64(t.raters-1))
	return chanceCorrected(po, pe)
}

func (t tally) fleissPerClass() []float64 {
	out := make([]float64, t.k)
	if t.complete == 0 || t.raters < 2 {
		return out
	}
	nm := float64(t.complete) * float64(t.raters)
	for c, v := range t.completeByCat {
		p := float64(v) / nm
		d := nm * float64(t.raters-1) * p * (1 - p)
		if d > 0 {
			out[c] = 1 - float64(t.completeDisagreeByCat[c])/d
		}
	}
	return out
}

// alpha = 1 - D_o/D_e with, for nominal data,
// D_o ∝ (n - sum_c o_cc) / n and D_e ∝ (n² - sum_c n_c²) / (n(n-1)).
func (t tally) alpha() float64 {
	n := float64(t.pairable)
	expected := n * n
	for _, v := range t.pairableByCat {
		expected -= float64(v) * float64(v)
	}
	if t.pairable < 2 || expected <= 0 {
		return 0
	}
	return 1 - (n-1)*(n-t.coincidentSame())/expected
}

func (t tally) ac1() float64 {
	if t.items == 0 || t.k < 2 {
		return 0
	}
	pa := t.paSum() / float64(t.items)
	pe := 0.0
	for c := range t.k {
		p := t.prevalence(c) / float64(t.units)
		pe += p * (1 - p)
	}
	pe /= float64(t.k - 1)
	return chanceCorrected(pa, pe)
}

// ac1Observed is AC1 with q the number of categories used at least once in
// the units (the categories irrCAC's gwet.ac1.raw reads off the data when
// categ.labels is not given), and that q. A category never used adds 0 to
// the chance term's sum, so only its divisor, q - 1, changes.
func (t tally) ac1Observed() (float64, int) {
	q := 0
	for c := range t.k {
		if t.prevalence(c) > 0 {
			q++
		}
	}
	if t.items == 0 || q < 2 {
		return 0, q
	}
	pa := t.paSum() / float64(t.items)
	pe := 0.0
	for c := range t.k {
		p := t.prevalence(c) / float64(t.units)
		pe += p * (1 - p)
	}
	pe /= float64(q - 1)
	return chanceCorrected(pa, pe), q
}

// chanceCorrected is (po - pe) / (1 - pe), 0 when pe = 1 (undefined).
func chanceCorrected(po, pe float64) float64 {
	if pe >= 1 {
		return 0
	}
	return (po - pe) / (1 - pe)
}
