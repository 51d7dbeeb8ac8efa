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
