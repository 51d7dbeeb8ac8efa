package report

import (
	"slices"

	"github.com/annotate-dev/annotate/metrics"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// Scores shared by the reports that compare a system with an expert (the
// claims' verification, the generated claims' judge): per-class scores, the
// Wilson interval, the confusion of counted (expert, system) pairs.

// ClassScores are one class's scores; with an empty denominator a score is
// 0, as scikit-learn's zero_division=0.
type ClassScores struct {
	Precision float64     `json:"precision"`
	Recall    float64     `json:"recall"`
	F1        float64     `json:"f1"`
	Support   int         `json:"support"`
	F1CI95    *[2]float64 `json:"f1_ci95,omitempty"`
}

// Averages are macro or support-weighted means of the per-class scores.
type Averages struct {
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
}

func strPtr(s string) *string { return &s }

// wilson is the Wilson 95% interval of k of n, nil when n is 0.
func wilson(k, n int) *[2]float64 {
	if n == 0 {
		return nil
	}
	lo, hi := metrics.Wilson(k, n)
	return &[2]float64{lo, hi}
}

// pairCells counts the (expert, system) codes of verified claims.
type pairCells map[[2]int]int

// expand lists the pairs, each as many times as counted, ordered by expert
// then system code: a bootstrap resamples the same list whatever order the
// counts were read in. (Filled in order, not sorted: a million claims.)
func (c pairCells) expand() (truth, pred []int) {
	keys := make([][2]int, 0, len(c))
	n := 0
	for k, m := range c {
		keys = append(keys, k)
		n += m
	}
	slices.SortFunc(keys, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	truth, pred = make([]int, 0, n), make([]int, 0, n)
	for _, k := range keys {
		for range c[k] {
			truth, pred = append(truth, k[0]), append(pred, k[1])
		}
	}
	return truth, pred
}

// confusion is the confusion matrix of the counted pairs, without listing
// them (a million claims make a dozen cells).
func (c pairCells) confusion(k int) metrics.Confusion {
	var truth, pred, counts []int
	for key, n := range c {
		truth, pred, counts = append(truth, key[0]), append(pred, key[1]), append(counts, n)
	}
	return metrics.NewConfusionCounts(truth, pred, counts, k)
}

// pairs are the (expert, system) codes of the verified claims of a source.
type pairs struct{ truth, pred []int }

func schemaValues(field string) []string {
	f, _ := schema.Lookup(field)
	return f.Values
}

// OtherColumn names the confusion column of system values outside the
// classes (the same column review shows).
const OtherColumn = tally.OtherClass

// classScores are the per-class scores of a report, by class name.
func classScores(r metrics.Report, classes []string) map[string]*ClassScores {
	out := map[string]*ClassScores{}
	for c, name := range classes {
		s := r.Classes[c]
		out[name] = &ClassScores{Precision: s.Precision, Recall: s.Recall, F1: s.F1, Support: s.Support}
	}
	return out
}

// confusionTable is the confusion matrix by class name: expert -> system ->
// count, with the predictions outside the classes in OtherColumn (always
// present).
func confusionTable(cm metrics.Confusion, classes []string) map[string]map[string]int {
	out := map[string]map[string]int{}
	for c, name := range classes {
		row := map[string]int{OtherColumn: 0}
		for p, cnt := range cm.Counts[c] {
			col := OtherColumn
			if p < len(classes) {
				col = classes[p]
			}
			row[col] = cnt
		}
		out[name] = row
	}
	return out
}
