package metrics

// Ratings is the input of the multi-rater statistics: a units×raters matrix
// of category codes, stored row-major in one slice so that a million units
// cost one allocation, not a million.
type Ratings struct {
	// Codes[u*Raters+r] is rater r's code for unit u. Codes outside 0..K-1
	// (normally Missing) mean the rater did not label the unit.
	Codes []int
	// Raters is the number of columns; len(Codes) must be a multiple of it.
	Raters int
	// K is the number of categories of the field (the label schema, not
	// only the categories that happen to be used).
	K int
}

// Units returns the number of units (rows).
func (r Ratings) Units() int {
	r.check()
	return len(r.Codes) / r.Raters
}

// Rater returns a copy of rater i's column, one code per unit, ready for
// CohenKappa or NewConfusion (pairwise kappas and confusion matrices).
func (r Ratings) Rater(i int) []int {
	r.check()
	if i < 0 || i >= r.Raters {
		panic("metrics: Ratings.Rater: rater out of range")
	}
	col := make([]int, len(r.Codes)/r.Raters)
	for u := range col {
		col[u] = r.Codes[u*r.Raters+i]
	}
	return col
}

// check panics on a malformed matrix: that is a programming error, and a
// silent wrong answer would be worse.
func (r Ratings) check() {
	if r.Raters <= 0 || len(r.Codes)%r.Raters != 0 {
		panic("metrics: Ratings: len(Codes) is not a multiple of Raters > 0")
	}
}

// RatingsFromCounts converts the per-unit category-count form
// (counts[u][c] = raters who put unit u in category c, as statsmodels'
// fleiss_kappa and irrCAC's *.dist functions take) into Ratings. Raters is
// the largest row total; shorter rows are padded with Missing, so they
// count as incomplete units. The synthetic rater columns carry no identity:
// do not use them for pairwise statistics. It panics on rows of unequal
// length or negative counts.
func RatingsFromCounts(counts [][]int) Ratings {
	k, raters := 0, 0
	if len(counts) > 0 {
		k = len(counts[0])
	}
	for _, row := range counts {
		if len(row) != k {
			panic("metrics: RatingsFromCounts: rows differ in length")
		}
		m := 0
		for _, v := range row {
			if v < 0 {
				panic("metrics: RatingsFromCounts: negative count")
			}
			m += v
		}
		raters = max(raters, m)
	}
	if raters == 0 {
		raters = 1 // keep the matrix well formed; every unit is unlabelled
	}
	codes := make([]int, len(counts)*raters)
	for u, row := range counts {
		j := u * raters
		for c, v := range row {
			for ; v > 0; v-- {
				codes[j] = c
				j++
			}
		}
		for ; j < (u+1)*raters; j++ {
			codes[j] = Missing
		}
	}
	return Ratings{Codes: codes, Raters: raters, K: k}
}
