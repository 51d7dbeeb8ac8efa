package metrics

// Kappa is Cohen's kappa of the prediction against the truth:
// (po - pe) / (1 - pe) with po = trace / n and pe = sum over classes of
// row total × column total / n².
//
// The other column has no matching row (no truth is "other"), so it lowers
// po but adds nothing to pe; this equals scikit-learn's cohen_kappa_score
// over the union of the labels seen. 0 when undefined (pe = 1 or n = 0).
func (c Confusion) Kappa() float64 {
	k := c.K()
	n := c.N()
	if n == 0 {
		return 0
	}
	colTotal := make([]int, k)
	rowTotal := make([]int, k)
	for t, row := range c.Counts {
		for p, v := range row {
			rowTotal[t] += v
			if p < k {
				colTotal[p] += v
			}
		}
	}
	return kappaFrom(c.trace(), rowTotal, colTotal, n)
}

// CohenKappa is Cohen's kappa between two raters over the items both
// labelled: items where either code is outside 0..k-1 are skipped. It
// returns the kappa and the number of items compared. Use it for the
// per-pair kappas of `annotate agreement`, e.g. with Ratings.Rater.
// It panics if the slices differ in length.
func CohenKappa(a, b []int, k int) (kappa float64, n int) {
	if len(a) != len(b) {
		panic("metrics: CohenKappa: a and b differ in length")
	}
	if k <= 0 {
		return 0, 0
	}
	rowTotal := make([]int, k)
	colTotal := make([]int, k)
	agree := 0
	for i, x := range a {
		y := b[i]
		if uint(x) >= uint(k) || uint(y) >= uint(k) {
			continue
		}
		rowTotal[x]++
		colTotal[y]++
		if x == y {
			agree++
		}
		n++
	}
	return kappaFrom(agree, rowTotal, colTotal, n), n
}

// kappaFrom computes kappa from the number of agreements and the marginals,
// all over n items. Products are taken in float64 so n² cannot overflow.
func kappaFrom(agree int, rowTotal, colTotal []int, n int) float64 {
	if n == 0 {
		return 0
	}
	fn := float64(n)
	po := float64(agree) / fn
	pe := 0.0
	for i := range rowTotal {
		pe += float64(rowTotal[i]) * float64(colTotal[i])
	}
	pe /= fn * fn
	if pe >= 1 {
		return 0
	}
	return (po - pe) / (1 - pe)
}

// KappaDefined reports whether Kappa has something to count: at least one
// item, and a chance agreement below 1 (else kappa is 0/0, as scikit-learn's
// nan, and Kappa's 0 is no measurement).
func (c Confusion) KappaDefined() bool {
	k := c.K()
	n := c.N()
	if n == 0 {
		return false
	}
	colTotal := make([]int, k)
	rowTotal := make([]int, k)
	for t, row := range c.Counts {
		for p, v := range row {
			rowTotal[t] += v
			if p < k {
				colTotal[p] += v
			}
		}
	}
	pe := 0.0
	for i := range rowTotal {
		pe += float64(rowTotal[i]) * float64(colTotal[i])
	}
	return pe < float64(n)*float64(n)
}
