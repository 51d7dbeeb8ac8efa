package metrics

// The statistics of a field whose values are ranked (ordinal) or measured
// (interval): a disagreement between two values weighs by how far apart
// they are, so "1 against 2" on a 0–4 scale counts less than "0 against 4".

// Level is how far apart two codes of a field are.
type Level int

const (
	// Nominal codes are names: two of them are the same or they differ.
	Nominal Level = iota
	// Ordinal codes are ranks, 0 < 1 < … < K-1; only their order counts.
	Ordinal
	// Interval codes stand for numbers (Scale.Values); their differences
	// count.
	Interval
)

// Scale is the level of a field's codes and, on an interval scale, the
// number each code stands for.
type Scale struct {
	Level Level
	// Values[c] is the number code c stands for on an interval scale (len
	// K); nil: c itself. The other levels do not read it.
	Values []float64
}

// number is the number code c stands for: its value on an interval scale,
// else its rank.
func (s Scale) number(c int) float64 {
	if s.Level == Interval && s.Values != nil {
		return s.Values[c]
	}
	return float64(c)
}

// ScaledAgreement holds the multi-rater statistics of one field that weigh
// disagreements by the field's scale.
type ScaledAgreement struct {
	Items int // units with at least two labels: every statistic below

	// KrippendorffAlpha with the scale's difference function (Krippendorff
	// 2011, "Computing Krippendorff's Alpha-Reliability"): nominal δ² = 1
	// for two different values, ordinal δ²(c,k) = (Σ_{g=c..k} n_g −
	// (n_c+n_k)/2)² with n_g the pairable labels of value g, interval
	// δ²(c,k) = (x_c − x_k)².
	KrippendorffAlpha float64
	// WithinOne is, over every pair of labels two raters gave one unit, the
	// share at most one step apart in the scale's order (|c − k| ≤ 1), as
	// PercentAgreement counts the pairs that agree. Ordinal and interval
	// scales only.
	WithinOne float64

	// Defined says which statistics have something to count, as
	// Agreement.Defined: α needs two pairable labels and an expected
	// disagreement above 0; WithinOne a pair of labels and an ordered scale.
	Defined struct{ KrippendorffAlpha, WithinOne bool }
}

// AgreeScaled computes the statistics of r on scale s in one pass. Codes
// outside 0..K-1 are no label, as in Agree. On a nominal scale its α equals
// Agree's (to float rounding).
func AgreeScaled(r Ratings, s Scale) ScaledAgreement {
	r.check()
	return coincide(r.Codes, nil, r.Raters, r.K).agreement(s)
}

// AgreeScaledPatterns is AgreeScaled over the expanded matrix, computed from
// the pattern counts: it equals AgreeScaled(p.Ratings(), s) exactly.
func AgreeScaledPatterns(p Patterns, s Scale) ScaledAgreement {
	p.check()
	return coincide(p.Codes, p.Counts, p.Raters, p.K).agreement(s)
}

// coincidences is Krippendorff's coincidence matrix kept as integers: per
// number n of labels on a unit, the sum over such units of n_uc·n_ud
// (c ≠ d) or n_uc(n_uc − 1) (c = d); the matrix itself is the sum over n of
// these divided by n − 1, which the statistics do once at the end, so a
// pattern counted w times adds exactly what w equal units add.
type coincidences struct {
	k, items int
	byN      []int // [n*k*k + c*k + d]
	pairable []int // n_c: labels of value c on units with two labels or more
}

// coincide tallies rows of m codes over k values, row i counted weights[i]
// times (nil: once each).
func coincide(codes, weights []int, m, k int) coincidences {
	k = max(k, 0)
	t := coincidences{k: k, byN: make([]int, (m+1)*k*k), pairable: make([]int, k)}
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
		if n < 2 || w == 0 {
			continue
		}
		t.items += w
		byN := t.byN[n*k*k : (n+1)*k*k]
		for c, x := range counts {
			if x == 0 {
				continue
			}
			t.pairable[c] += w * x
			for d, y := range counts {
				if c == d {
					y--
				}
				byN[c*k+d] += w * x * y
			}
		}
	}
	return t
}

// pairSums are, over every ordered pair of labels of one unit, the pairs
// at most one step apart and all pairs (Σ n_u(n_u − 1)).
func (t coincidences) pairSums() (near, all int) {
	k := t.k
	for i, v := range t.byN {
		c, d := i%(k*k)/k, i%k
		all += v
		if c-d <= 1 && d-c <= 1 {
			near += v
		}
	}
	return near, all
}

func (t coincidences) agreement(s Scale) ScaledAgreement {
	a := ScaledAgreement{Items: t.items}
	if s.Level != Nominal {
		near, all := t.pairSums()
		a.WithinOne, a.Defined.WithinOne = ratio(near, all), all > 0
	}
	a.KrippendorffAlpha, a.Defined.KrippendorffAlpha = t.alpha(s)
	return a
}

// alpha = 1 − D_o/D_e = 1 − (n − 1) Σ o_cd δ²_cd / Σ n_c n_d δ²_cd, n the
// pairable labels (Krippendorff 2011, eq. for α with any metric).
func (t coincidences) alpha(s Scale) (float64, bool) {
	k := t.k
	delta := t.distances(s)
	n := 0
	for _, v := range t.pairable {
		n += v
	}
	expected := 0.0
	for c, x := range t.pairable {
		for d, y := range t.pairable {
			expected += float64(x) * float64(y) * delta[c*k+d]
		}
	}
	if n < 2 || expected <= 0 {
		return 0, false
	}
	observed := 0.0
	for m := 2; (m+1)*k*k <= len(t.byN); m++ {
		sum := 0.0
		for i, v := range t.byN[m*k*k : (m+1)*k*k] {
			sum += float64(v) * delta[i]
		}
		observed += sum / float64(m-1)
	}
	return 1 - float64(n-1)*observed/expected, true
}

// distances is δ²(c, d) of the scale, row-major k×k; the ordinal metric
// reads the pairable labels per value.
func (t coincidences) distances(s Scale) []float64 {
	k := t.k
	delta := make([]float64, k*k)
	for c := range k {
		for d := range k {
			var x float64
			switch {
			case c == d:
			case s.Level == Nominal:
				x = 1
			case s.Level == Ordinal:
				lo, hi := min(c, d), max(c, d)
				between := 0
				for g := lo; g <= hi; g++ {
					between += t.pairable[g]
				}
				x = float64(between) - float64(t.pairable[c]+t.pairable[d])/2
				x *= x
			default:
				x = s.number(c) - s.number(d)
				x *= x
			}
			delta[c*k+d] = x
		}
	}
	return delta
}

// Weighting says how a weighted kappa weighs a disagreement between codes
// i and j: by |x_i − x_j| or (x_i − x_j)², x the number a code stands for.
type Weighting int

const (
	Linear Weighting = iota + 1
	Quadratic
)

func (w Weighting) weight(s Scale, i, j int) float64 {
	d := s.number(i) - s.number(j)
	if w == Quadratic {
		return d * d
	}
	if d < 0 {
		return -d
	}
	return d
}

// WeightedKappa is Cohen's weighted kappa of the two raters of the matrix
// (rows against columns) on scale s: 1 − Σ w_ij o_ij / Σ w_ij e_ij, with o
// the counts, e = row total × column total / n the counts expected by
// chance, and w the weighting of a disagreement between codes i and j on
// the scale (on an ordinal one, their ranks: scikit-learn's
// cohen_kappa_score(weights="linear"/"quadratic") with the labels in the
// scale's order). The other column has no place on the scale and is not
// counted. defined is false when there is nothing to count: no pair, or no
// disagreement expected by chance (scikit-learn's nan).
func (c Confusion) WeightedKappa(w Weighting, s Scale) (kappa float64, defined bool) {
	k := c.K()
	rowTotal, colTotal := make([]int, k), make([]int, k)
	n := 0
	observed := 0.0
	for i, row := range c.Counts {
		for j, v := range row[:k] {
			rowTotal[i] += v
			colTotal[j] += v
			n += v
			observed += float64(v) * w.weight(s, i, j)
		}
	}
	expected := 0.0
	for i, r := range rowTotal {
		for j, t := range colTotal {
			expected += float64(r) * float64(t) * w.weight(s, i, j)
		}
	}
	if n == 0 || expected <= 0 {
		return 0, false
	}
	return 1 - float64(n)*observed/expected, true
}

// WithinOne is the share of the matrix's pairs at most one step apart on
// the scale's order (|i − j| ≤ 1), the other column left out; 0 for an
// empty matrix.
func (c Confusion) WithinOne() float64 {
	k := c.K()
	near, n := 0, 0
	for i, row := range c.Counts {
		for j, v := range row[:k] {
			n += v
			if i-j <= 1 && j-i <= 1 {
				near += v
			}
		}
	}
	return ratio(near, n)
}
