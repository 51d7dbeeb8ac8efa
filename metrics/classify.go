package metrics

// Scores are the precision, recall and F1 of one class, or an average of
// them. Support is the number of items whose truth is the class (for an
// average: all counted items).
type Scores struct {
	Precision float64
	Recall    float64
	F1        float64
	Support   int
}

// Report gathers what `annotate metrics` prints for one system: the same
// numbers as scikit-learn's precision_recall_fscore_support(labels=classes,
// zero_division=0), accuracy_score and cohen_kappa_score.
type Report struct {
	Classes  []Scores // per class, in code order
	Macro    Scores   // unweighted mean over classes
	Weighted Scores   // mean over classes weighted by support
	Accuracy float64
	Kappa    float64
	N        int
}

// Report computes per-class and averaged scores.
//
// Precision of class c is its diagonal cell over its column total: a
// prediction in the other column is a false negative of its true class but
// a false positive of no class, as in scikit-learn with labels=classes.
// Recall is the diagonal cell over the row total (the support). F1 is their
// harmonic mean, 0 when both are 0. Averages are taken over per-class values
// (macro F1 is the mean of F1s, not the F1 of mean precision and recall),
// exactly as scikit-learn does; a class with no support still counts in the
// macro average, with zeros.
func (c Confusion) Report() Report {
	k := c.K()
	r := Report{Classes: make([]Scores, k), N: c.N(), Accuracy: c.Accuracy(), Kappa: c.Kappa()}
	colTotal := make([]int, k)
	for _, row := range c.Counts {
		for p := 0; p < k; p++ {
			colTotal[p] += row[p]
		}
	}
	for t, row := range c.Counts {
		support := 0
		for _, v := range row {
			support += v
		}
		tp := row[t]
		s := Scores{Precision: ratio(tp, colTotal[t]), Recall: ratio(tp, support), Support: support}
		if s.Precision+s.Recall > 0 {
			s.F1 = 2 * s.Precision * s.Recall / (s.Precision + s.Recall)
		}
		r.Classes[t] = s
	}
	r.Macro.Support, r.Weighted.Support = r.N, r.N
	if k == 0 {
		return r
	}
	var m, w Scores // sums, divided once as numpy's mean and average do
	for _, s := range r.Classes {
		m.Precision += s.Precision
		m.Recall += s.Recall
		m.F1 += s.F1
		sup := float64(s.Support)
		w.Precision += sup * s.Precision
		w.Recall += sup * s.Recall
		w.F1 += sup * s.F1
	}
	fk := float64(k)
	r.Macro.Precision, r.Macro.Recall, r.Macro.F1 = m.Precision/fk, m.Recall/fk, m.F1/fk
	if r.N > 0 {
		fn := float64(r.N)
		r.Weighted.Precision, r.Weighted.Recall, r.Weighted.F1 = w.Precision/fn, w.Recall/fn, w.F1/fn
	}
	return r
}
