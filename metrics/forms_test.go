package metrics

// The forms of the statistics that only the tests use: one statistic of a
// matrix at a time (the program asks Agree or AgreePatterns for all of them
// in one pass), strings coded by Encode (the program codes the values it
// reads as it reads them), the count form of statsmodels and irrCAC
// (RatingsFromCounts), and the number of patterns.

// PercentAgreement is the mean pairwise percent agreement: over every unit
// and every pair of raters who both labelled it, agreeing pairs / pairs.
// It weights a pair of raters by the units they share; with complete data
// it equals the mean over units and the mean over rater pairs. (irrCAC's
// pa.coeff.raw instead averages per-unit agreement over units.)
func PercentAgreement(r Ratings) float64 { return tallyRatings(r).percentAgreement() }

// FleissKappa is Fleiss' kappa over the units labelled by every rater, as
// statsmodels' fleiss_kappa(table, method="fleiss"). Units with a missing
// label are left out, not imputed, because Fleiss' chance term assumes the
// same number of raters per unit.
func FleissKappa(r Ratings) float64 { return tallyRatings(r).fleiss() }

// FleissPerClass is the category-specific Fleiss' kappa of each category
// over the complete units (Fleiss 1971, eq. 17):
// kappa_j = 1 - sum_i n_ij (m - n_ij) / (N m (m-1) p_j q_j).
// It shows which category the raters find hard; a category never or always
// used is undefined and reported as 0.
func FleissPerClass(r Ratings) []float64 { return tallyRatings(r).fleissPerClass() }

// KrippendorffAlpha is Krippendorff's alpha for nominal data with missing
// values, by the coincidence-matrix method: units with fewer than two labels
// are not pairable and are dropped. Same as nltk's AnnotationTask.alpha()
// and irrCAC's krippen.alpha.raw.
func KrippendorffAlpha(r Ratings) float64 { return tallyRatings(r).alpha() }

// GwetAC1 is Gwet's AC1 (Gwet 2008) for any number of raters, with missing
// labels handled as irrCAC's gwet.ac1.raw: observed agreement is averaged
// over units with at least two labels, while the category prevalences of
// the chance term are averaged over every unit with at least one label
// (each unit weighted equally, as the share of its raters per category).
// The chance term uses q = K categories, i.e. gwet.ac1.raw with
// categ.labels set to the whole schema.
func GwetAC1(r Ratings) float64 { return tallyRatings(r).ac1() }

// Encode returns the code of each value: its index in classes, Missing for
// the empty string, and Other for any other string not in classes.
// Keeping "unknown" (Other) apart from "absent" (Missing) is what lets a
// confusion matrix count out-of-schema predictions instead of dropping them.
func Encode(values, classes []string) []int {
	index := make(map[string]int, len(classes))
	for i, c := range classes {
		if _, dup := index[c]; !dup {
			index[c] = i
		}
	}
	codes := make([]int, len(values))
	for i, v := range values {
		switch c, ok := index[v]; {
		case ok:
			codes[i] = c
		case v == "":
			codes[i] = Missing
		default:
			codes[i] = Other
		}
	}
	return codes
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

// Len returns the number of patterns.
func (p Patterns) Len() int {
	p.check()
	return len(p.Counts)
}
