package metrics

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

const snliDev = "../testdata/snli/snli_1.0_dev_subset_sBiMPM.jsonl"

// loadSNLI reads the five crowd labels of each SNLI pair into Ratings
// (5 raters, entailment/neutral/contradiction); pairs with four labels get
// a Missing fifth.
func loadSNLI(t *testing.T) Ratings {
	t.Helper()
	f, err := os.Open(snliDev)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := Ratings{Raters: 5, K: 3}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var line struct {
			AnnotatorLabels []string `json:"annotator_labels"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		if len(line.AnnotatorLabels) > r.Raters {
			t.Fatalf("%d labels on one line", len(line.AnnotatorLabels))
		}
		codes := Encode(line.AnnotatorLabels, nli)
		for len(codes) < r.Raters {
			codes = append(codes, Missing)
		}
		r.Codes = append(r.Codes, codes...)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestSNLIAgreement(t *testing.T) {
	r := loadSNLI(t)
	a := Agree(r)
	if a.Units != 1289 || a.Items != 1289 || a.Complete != 1286 {
		t.Fatalf("Units, Items, Complete = %d, %d, %d; want 1289, 1289, 1286", a.Units, a.Items, a.Complete)
	}
	// Known answers given with the task (5 decimals, must match to 1e-5),
	// then the full-precision values of the reference implementations:
	//   Fleiss: statsmodels fleiss_kappa(table of the 1,286 five-label
	//     pairs, method="fleiss"); per class: numpy, Fleiss 1971 kappa_j.
	//   alpha: nltk AnnotationTask(data=[(rater, pair, label)...]).alpha()
	//     over all 1,289 pairs.
	//   AC1: numpy transcription of irrCAC gwet.ac1.raw over all 1,289
	//     pairs (over only the complete pairs it would be 0.66084).
	checks := []struct {
		name           string
		got            float64
		given, precise float64
	}{
		{"Fleiss", a.FleissKappa, 0.66074, 0.6607448458488286},
		{"Fleiss entailment", a.FleissPerClass[0], 0.66472, 0.6647183628418183},
		{"Fleiss neutral", a.FleissPerClass[1], 0.55199, 0.5519939531112763},
		{"Fleiss contradiction", a.FleissPerClass[2], 0.76755, 0.76755166637691},
		{"Krippendorff alpha", a.KrippendorffAlpha, 0.66019, 0.6601856990140231},
		{"Gwet AC1", a.GwetAC1, 0.66008, 0.660079655258338},
	}
	for _, c := range checks {
		near(t, c.name+" (given)", c.got, c.given, 1e-5)
		near(t, c.name, c.got, c.precise, 1e-12)
	}
	// Percent agreement (no given value): itertools.combinations over each
	// pair's labels finds 9962 agreeing of 12878 label pairs.
	near(t, "percent agreement", a.PercentAgreement, 9962.0/12878, 1e-12)
	// Fleiss (1971): the overall kappa is the p_j q_j-weighted mean of the
	// per-class kappas; this ties the two computations together.
	var num, den float64
	counts := make([]int, 3)
	for u := 0; u < r.Units(); u++ {
		row := r.Codes[u*5 : u*5+5]
		if !slicesAllValid(row) {
			continue
		}
		for _, c := range row {
			counts[c]++
		}
	}
	total := float64(counts[0] + counts[1] + counts[2])
	for j, c := range counts {
		p := float64(c) / total
		num += p * (1 - p) * a.FleissPerClass[j]
		den += p * (1 - p)
	}
	near(t, "weighted mean of kappa_j", num/den, a.FleissKappa, 1e-12)
}

func slicesAllValid(codes []int) bool {
	for _, c := range codes {
		if c < 0 {
			return false
		}
	}
	return true
}
