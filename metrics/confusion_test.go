package metrics

import (
	"slices"
	"testing"
)

var nli = []string{"entailment", "neutral", "contradiction"}

// Case A: the system once answers "x" (outside the classes) and never
// predicts contradiction, so contradiction's precision is 0/0.
var (
	truthA = []string{"entailment", "entailment", "entailment", "entailment", "neutral", "neutral", "neutral", "contradiction", "contradiction", "contradiction", "entailment", "neutral"}
	predA  = []string{"entailment", "entailment", "neutral", "x", "neutral", "entailment", "neutral", "entailment", "neutral", "entailment", "entailment", "x"}
)

func TestConfusionOtherColumn(t *testing.T) {
	c := NewConfusion(Encode(truthA, nli), Encode(predA, nli), 3)
	// sklearn.metrics.confusion_matrix(truthA, predA,
	//   labels=[entailment, neutral, contradiction, "x"]), first three rows.
	want := [][]int{{3, 1, 0, 1}, {1, 2, 0, 1}, {2, 1, 0, 0}}
	if !c.Other || !slices.EqualFunc(c.Counts, want, slices.Equal) {
		t.Fatalf("Counts = %v (Other %v), want %v with Other", c.Counts, c.Other, want)
	}
	r := c.Report()
	if r.N != 12 {
		t.Errorf("N = %d, want 12", r.N)
	}
	// sklearn 1.2.1 precision_recall_fscore_support(truthA, predA,
	//   labels=nli, average=None, zero_division=0)
	wantClasses := []Scores{
		{Precision: 0.5, Recall: 0.6, F1: 0.5454545454545454, Support: 5},
		{Precision: 0.5, Recall: 0.5, F1: 0.5, Support: 4},
		{Precision: 0, Recall: 0, F1: 0, Support: 3},
	}
	checkScores(t, "A", r.Classes, wantClasses)
	// Same call with average="macro" and average="weighted".
	checkScores(t, "A macro", []Scores{r.Macro}, []Scores{{0.3333333333333333, 0.3666666666666667, 0.34848484848484845, 12}})
	checkScores(t, "A weighted", []Scores{r.Weighted}, []Scores{{0.375, 0.41666666666666674, 0.39393939393939387, 12}})
	// sklearn accuracy_score(truthA, predA) and cohen_kappa_score(truthA,
	// predA) (labels = union, so "x" is a class nobody's truth).
	near(t, "A accuracy", r.Accuracy, 0.4166666666666667, tight)
	near(t, "A kappa", r.Kappa, 0.14285714285714302, tight)
}

func TestConfusionZeroSupport(t *testing.T) {
	// Case B: contradiction is predicted but never true, so its recall is
	// 0/0 and it must not weigh in the weighted average.
	truth := []string{"entailment", "entailment", "neutral", "neutral", "neutral", "entailment", "entailment", "neutral"}
	pred := []string{"entailment", "contradiction", "neutral", "neutral", "entailment", "entailment", "contradiction", "neutral"}
	c := NewConfusion(Encode(truth, nli), Encode(pred, nli), 3)
	// sklearn confusion_matrix(truth, pred, labels=nli)
	want := [][]int{{2, 0, 2}, {1, 3, 0}, {0, 0, 0}}
	if c.Other || !slices.EqualFunc(c.Counts, want, slices.Equal) {
		t.Fatalf("Counts = %v (Other %v), want %v, square", c.Counts, c.Other, want)
	}
	r := c.Report()
	// sklearn 1.2.1 precision_recall_fscore_support(truth, pred, labels=nli,
	//   average=None / "macro" / "weighted", zero_division=0)
	checkScores(t, "B", r.Classes, []Scores{
		{0.6666666666666666, 0.5, 0.5714285714285715, 4},
		{1.0, 0.75, 0.8571428571428571, 4},
		{0, 0, 0, 0},
	})
	checkScores(t, "B macro", []Scores{r.Macro}, []Scores{{0.5555555555555555, 0.41666666666666674, 0.4761904761904762, 8}})
	checkScores(t, "B weighted", []Scores{r.Weighted}, []Scores{{0.8333333333333333, 0.625, 0.7142857142857143, 8}})
	// sklearn accuracy_score and cohen_kappa_score(truth, pred)
	near(t, "B accuracy", r.Accuracy, 0.625, tight)
	near(t, "B kappa", r.Kappa, 0.4, tight)
}

func TestConfusionSkipsAndOther(t *testing.T) {
	// Expected by the documented convention: a truth outside 0..k-1 or a
	// Missing prediction drops the pair; Other, k or any code >= k is "other".
	truth := []int{0, Missing, 1, 2, 1, 5, 0, Other}
	pred := []int{0, 0, Missing, Other, 3, 1, 7, 1}
	c := NewConfusion(truth, pred, 3)
	want := [][]int{{1, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 1}}
	if !c.Other || !slices.EqualFunc(c.Counts, want, slices.Equal) {
		t.Fatalf("Counts = %v, want %v", c.Counts, want)
	}
	if c.N() != 4 || c.K() != 3 {
		t.Fatalf("N, K = %d, %d; want 4, 3", c.N(), c.K())
	}
}

func TestConfusionEmpty(t *testing.T) {
	// Every ratio is 0/0 here, so everything must be 0 (zero_division=0),
	// never NaN, which encoding/json refuses.
	r := NewConfusion(nil, nil, 3).Report()
	if r.N != 0 || r.Accuracy != 0 || r.Kappa != 0 || r.Macro != (Scores{}) || r.Weighted != (Scores{}) {
		t.Fatalf("empty report = %+v, want zeros", r)
	}
	for _, s := range r.Classes {
		if s != (Scores{}) {
			t.Fatalf("empty class scores = %+v, want zeros", s)
		}
	}
}

func TestNewConfusionLengthMismatch(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("NewConfusion with unequal lengths did not panic")
		}
	}()
	NewConfusion([]int{0}, nil, 2)
}

func checkScores(t *testing.T, name string, got, want []Scores) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d scores, want %d", name, len(got), len(want))
	}
	for i := range want {
		near(t, name+" precision", got[i].Precision, want[i].Precision, tight)
		near(t, name+" recall", got[i].Recall, want[i].Recall, tight)
		near(t, name+" f1", got[i].F1, want[i].F1, tight)
		if got[i].Support != want[i].Support {
			t.Errorf("%s[%d] support = %d, want %d", name, i, got[i].Support, want[i].Support)
		}
	}
}
