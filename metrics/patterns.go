package metrics

import "slices"

// Patterns is a Ratings matrix in pattern-count form: each distinct row of
// codes (a pattern: what every rater said about a unit) once, with the
// number of units that have it. A field's labels by a few raters make a few
// dozen patterns however many units there are, so the statistics below cost
// a sum over the patterns, not a pass over a million units; each equals its
// Ratings counterpart on the expanded matrix exactly (every sum behind them
// is an integer).
type Patterns struct {
	// Codes[p*Raters+r] is rater r's code in pattern p; codes outside
	// 0..K-1 (normally Missing) mean no label.
	Codes []int
	// Counts[p] is the number of units with pattern p.
	Counts []int
	Raters int
	K      int
}

func (p Patterns) check() {
	if p.Raters <= 0 || len(p.Codes) != len(p.Counts)*p.Raters {
		panic("metrics: Patterns: len(Codes) is not Raters × len(Counts)")
	}
	for _, n := range p.Counts {
		if n < 0 {
			panic("metrics: Patterns: negative count")
		}
	}
}

// Add appends a pattern counted n times. codes is copied.
func (p *Patterns) Add(codes []int, n int) {
	if len(codes) != p.Raters {
		panic("metrics: Patterns.Add: pattern length is not Raters")
	}
	p.Codes = append(p.Codes, codes...)
	p.Counts = append(p.Counts, n)
}

// PatternsOf counts the distinct rows of r, in the order each first occurs.
func PatternsOf(r Ratings) Patterns {
	r.check()
	p := Patterns{Raters: r.Raters, K: r.K}
	index := map[string]int{}
	key := make([]byte, 0, 8*r.Raters)
	for row := 0; row < len(r.Codes); row += r.Raters {
		codes := r.Codes[row : row+r.Raters]
		key = key[:0]
		for _, c := range codes {
			key = append(key, byte(c), byte(c>>8), byte(c>>16), byte(c>>24))
		}
		if i, ok := index[string(key)]; ok {
			p.Counts[i]++
			continue
		}
		index[string(key)] = len(p.Counts)
		p.Add(codes, 1)
	}
	return p
}

// Ratings expands the patterns into a units×raters matrix, each pattern's
// units next to each other in pattern order: the input of the bootstrap,
// which resamples units.
func (p Patterns) Ratings() Ratings {
	p.check()
	total := 0
	for _, n := range p.Counts {
		total += n
	}
	r := Ratings{Codes: make([]int, 0, total*p.Raters), Raters: p.Raters, K: p.K}
	for i, n := range p.Counts {
		codes := p.Codes[i*p.Raters : (i+1)*p.Raters]
		for range n {
			r.Codes = append(r.Codes, codes...)
		}
	}
	return r
}

// AgreePatterns is Agree over the expanded matrix, computed from the
// pattern counts.
func AgreePatterns(p Patterns) Agreement {
	p.check()
	return agreeTally(tallyRows(p.Codes, p.Counts, p.Raters, p.K))
}

// PairCohenKappa is CohenKappa between raters i and j of the expanded
// matrix: the units where both gave a code in 0..K-1.
func PairCohenKappa(p Patterns, i, j int) (kappa float64, n int) {
	p.checkPair(i, j)
	k := p.K
	if k <= 0 {
		return 0, 0
	}
	rowTotal := make([]int, k)
	colTotal := make([]int, k)
	agree := 0
	for u, w := range p.Counts {
		x, y := p.Codes[u*p.Raters+i], p.Codes[u*p.Raters+j]
		if uint(x) >= uint(k) || uint(y) >= uint(k) {
			continue
		}
		rowTotal[x] += w
		colTotal[y] += w
		if x == y {
			agree += w
		}
		n += w
	}
	return kappaFrom(agree, rowTotal, colTotal, n), n
}

// PairConfusion is NewConfusion(Rater(i), Rater(j), K) of the expanded
// matrix: rater i as the rows, rater j as the columns.
func PairConfusion(p Patterns, i, j int) Confusion {
	p.checkPair(i, j)
	b := newConfusionBuilder(p.K)
	for u, w := range p.Counts {
		b.add(p.Codes[u*p.Raters+i], p.Codes[u*p.Raters+j], w)
	}
	return b.confusion()
}

// NewConfusionCounts is NewConfusion over pairs each counted n times:
// the pair (truth[i], pred[i]) counts counts[i] times. It panics if the
// slices differ in length.
func NewConfusionCounts(truth, pred, counts []int, k int) Confusion {
	if len(truth) != len(pred) || len(truth) != len(counts) {
		panic("metrics: NewConfusionCounts: truth, pred and counts differ in length")
	}
	b := newConfusionBuilder(k)
	for i, t := range truth {
		b.add(t, pred[i], counts[i])
	}
	return b.confusion()
}

func (p Patterns) checkPair(i, j int) {
	p.check()
	if i < 0 || i >= p.Raters || j < 0 || j >= p.Raters {
		panic("metrics: Patterns: rater out of range")
	}
}

// SortPatterns orders the patterns by their codes, so that a report built
// from them does not depend on the order they were counted in.
func SortPatterns(p Patterns) Patterns {
	p.check()
	order := make([]int, len(p.Counts))
	for i := range order {
		order[i] = i
	}
	row := func(i int) []int { return p.Codes[i*p.Raters : (i+1)*p.Raters] }
	slices.SortFunc(order, func(a, b int) int { return slices.Compare(row(a), row(b)) })
	out := Patterns{Raters: p.Raters, K: p.K}
	for _, i := range order {
		out.Add(row(i), p.Counts[i])
	}
	return out
}
