package metrics

// Confusion is a confusion matrix of a system against a reference: rows are
// the truth (the expert), columns the prediction (the system).
type Confusion struct {
	// Classes optionally names the k classes for display; NewConfusion
	// leaves it nil and nothing in this package reads it.
	Classes []string
	// Other reports whether at least one prediction fell outside the
	// classes. Only then does each row have the extra column k, so a matrix
	// stays square when the system kept to the schema.
	Other bool
	// Counts[t][p] is the number of items with truth t and prediction p;
	// k rows, and k columns (k+1 with Other).
	Counts [][]int
}

// NewConfusion counts the pairs (truth[i], pred[i]) over k classes.
// A pair is skipped when truth[i] is not in 0..k-1 (the expert gave no
// usable label) or pred[i] is Missing (the system gave none). Any other
// prediction outside 0..k-1 (Other, or a code >= k) goes to column k.
// It panics if the slices differ in length.
func NewConfusion(truth, pred []int, k int) Confusion {
	if len(truth) != len(pred) {
		panic("metrics: NewConfusion: truth and pred differ in length")
	}
	b := newConfusionBuilder(k)
	for i, t := range truth {
		b.add(t, pred[i], 1)
	}
	return b.confusion()
}

// confusionBuilder counts pairs into a confusion matrix: NewConfusion's
// rules, shared with PairConfusion, which counts a pattern n times.
type confusionBuilder struct {
	k     int
	flat  []int // k rows of k+1 columns: room for the other column
	other bool
}

func newConfusionBuilder(k int) *confusionBuilder {
	k = max(k, 0)
	return &confusionBuilder{k: k, flat: make([]int, k*(k+1))}
}

func (b *confusionBuilder) add(t, p, n int) {
	if uint(t) >= uint(b.k) || p == Missing || n == 0 {
		return
	}
	if uint(p) >= uint(b.k) {
		p = b.k
		b.other = true
	}
	b.flat[t*(b.k+1)+p] += n
}

func (b *confusionBuilder) confusion() Confusion {
	k, w := b.k, b.k+1
	cols := k
	if b.other {
		cols = k + 1
	}
	rows := make([][]int, k)
	for t := range rows {
		rows[t] = b.flat[t*w : t*w+cols : t*w+cols]
	}
	return Confusion{Other: b.other, Counts: rows}
}

// K returns the number of classes.
func (c Confusion) K() int { return len(c.Counts) }

// N returns the number of counted pairs.
func (c Confusion) N() int {
	n := 0
	for _, row := range c.Counts {
		for _, v := range row {
			n += v
		}
	}
	return n
}

// Accuracy is the diagonal over all counted pairs; a prediction in the other
// column is always wrong. 0 for an empty matrix.
func (c Confusion) Accuracy() float64 {
	return ratio(c.trace(), c.N())
}

func (c Confusion) trace() int {
	tr := 0
	for t, row := range c.Counts {
		tr += row[t]
	}
	return tr
}

// ratio is a/b, or 0 when b is 0 (scikit-learn's zero_division=0).
func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
