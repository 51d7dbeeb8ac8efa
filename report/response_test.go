package report

import (
	"github.com/annotate-dev/annotate/store"
	"math"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/importer"
)

// TestResponseLevelLikeRefChecker imports RefChecker's own human-annotation
// files (a slice, with a synthetic nli checker: testdata/refchecker/README.md)
// and checks the response-level meta-evaluation against the values
// RefChecker's benchmark/evaluation/corr.py computes on the same files, run
// while developing with scikit-learn 1.2.1 and scipy 1.10.1 (Debian):
//
//	gt_factual = all(human_label == 'Entailment'); gt rate = share not entailed
//	pred_factual, pred rate: the same with nli_label
//	accuracy_score, f1_score(pos_label=True / False), pearsonr, spearmanr
//
// corr.py reports each setting (file) on its own; the "all" row pools the
// three files' responses, computed the same way.
func TestResponseLevelLikeRefChecker(t *testing.T) {
	s := openStore(t)
	files := []string{"testdata/refchecker/nq_gpt4_answers.json", "testdata/refchecker/msmarco_gpt4_answers.json", "testdata/refchecker/dolly_gpt4_answers.json"}
	if _, err := importer.Import(s, files, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	rep, err := store.ReadWith(s, Metrics, MetricsOptions{Selection: Selection{Annotator: "refchecker-human"}, System: "nli"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key                              string
		n                                int
		acc, fact, nonfact, pearson, rho float64
	}{
		{"nq_gpt4_answers", 40, 0.6, 0.3846153846153846, 0.7037037037037038, 0.4730206577921757, 0.47248142455216235},
		{"msmarco_gpt4_answers", 35, 0.34285714285714286, 0.4651162790697675, 0.14814814814814814, 0.3329502221344072, 0.2998031671706668},
		{"dolly_gpt4_answers", 36, 0.16666666666666666, 0.21052631578947367, 0.11764705882352941, -0.02461975789562163, 0.05751023521053706},
		{"all", 111, 0.3783783783783784, 0.35514018691588783, 0.4, 0.401783375642127, 0.37584506698531844},
	} {
		rl := rep.ResponseLevel[c.key]
		if rl == nil {
			t.Fatalf("%s: no response level (rows %v)", c.key, rep.rows)
		}
		if rl.Responses != c.n {
			t.Errorf("%s: %d responses, want %d", c.key, rl.Responses, c.n)
		}
		near(t, c.key+" accuracy", rl.Accuracy, c.acc, 1e-12)
		near(t, c.key+" Fact F1", rl.FactF1, c.fact, 1e-12)
		near(t, c.key+" NonFact F1", rl.NonFactF1, c.nonfact, 1e-12)
		near(t, c.key+" Pearson", rl.Pearson, c.pearson, 1e-12)
		near(t, c.key+" Spearman", rl.Spearman, c.rho, 1e-12)
	}
}

// TestResponseLevelExtractors checks the two cases where corr.py's response
// level differs from pooling every claim of every response: a response its
// extractor gave no claim counts as factual with rate 0, and --extractor
// keeps one extractor's claims when one checker ran on several extractors'.
// The values are what RefChecker's benchmark/evaluation/corr.py computes
// (its loop body verbatim, on these files, with --checker nli and the
// --extractor given; scikit-learn 1.2.1, scipy 1.10.1, while developing).
func TestResponseLevelExtractors(t *testing.T) {
	s := openStore(t)
	files := []string{"testdata/extractors/empty_extraction.json", "testdata/extractors/two_extractors.json"}
	if _, err := importer.Import(s, files, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	type want struct {
		key                              string
		n, empty                         int
		acc, fact, nonfact, pearson, rho float64
	}
	for _, c := range []struct {
		extractor string
		rows      []want
	}{
		// The gpt4 extractor gave no claim for empty_extraction's r3:
		// factual, rate 0 (before: left out, accuracy 2/2).
		{"gpt4", []want{
			{"empty_extraction", 3, 1, 0.6666666666666666, 0.6666666666666666, 0.6666666666666666, 0.0, 0.0},
			{"two_extractors", 4, 0, 0.5, 0.5, 0.5, -0.49236596391733095, -0.38888888888888895},
			{"all", 7, 1, 0.5714285714285714, 0.5714285714285715, 0.5714285714285715, -0.3568171730250014, -0.25021729686848976},
		}},
		{"claude2", []want{
			{"two_extractors", 4, 0, 0.75, 0.6666666666666666, 0.8, 0.8528028654224415, 0.8333333333333335},
		}},
		// Pooled: in empty_extraction only gpt4's claims carry nli labels,
		// so pooling is corr.py with gpt4 there.
		{"", []want{
			{"empty_extraction", 3, 1, 0.6666666666666666, 0.6666666666666666, 0.6666666666666666, 0.0, 0.0},
		}},
	} {
		rep, err := store.ReadWith(s, Metrics, MetricsOptions{Selection: Selection{Annotator: "refchecker-human"}, System: "nli", Extractor: c.extractor})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(rep.Extractors, ","); got != "claude2,gpt4" {
			t.Errorf("extractors %q", got)
		}
		for _, w := range c.rows {
			name := c.extractor + " " + w.key
			rl := rep.ResponseLevel[w.key]
			if rl == nil {
				t.Fatalf("%s: no response level", name)
			}
			if rl.Responses != w.n || rl.WithoutClaims != w.empty {
				t.Errorf("%s: %d responses (%d without claims), want %d (%d)", name, rl.Responses, rl.WithoutClaims, w.n, w.empty)
			}
			near(t, name+" accuracy", rl.Accuracy, w.acc, 1e-12)
			near(t, name+" Fact F1", rl.FactF1, w.fact, 1e-12)
			near(t, name+" NonFact F1", rl.NonFactF1, w.nonfact, 1e-12)
			near(t, name+" Pearson", rl.Pearson, w.pearson, 1e-12)
			near(t, name+" Spearman", rl.Spearman, w.rho, 1e-12)
		}
	}
	_, err := store.ReadWith(s, Metrics, MetricsOptions{Selection: Selection{Annotator: "refchecker-human"}, System: "nli", Extractor: "gpt3"})
	if err == nil || !strings.Contains(err.Error(), `--extractor gpt3: no response was checked with that extractor's claims; did you mean "gpt4"? (extractors: claude2, gpt4)`) {
		t.Errorf("unknown extractor: %v", err)
	}
}

// The extractor that found nothing: in found_nothing.json (README.md there)
// gpt4 gave no claim for any of the nine responses, so no checker judged
// any and corr.py takes whatever --checker it is given: every response is
// factual with rate 0. RefChecker's benchmark/evaluation/corr.py (at its
// repository's head, run by /usr/bin/python3 with scikit-learn 1.2.1 and
// scipy 1.10.1, the file in each setting's first slot, the others []):
//
//	corr.py --extractor gpt4 --checker chk --data_dir DIR
//	Acc: 22.22	Fact. F1: 36.36	NonFact. F1: 0.0	Pearson: nan	Spearman: nan
//
// and its loop body, unrounded, on found_nothing.json with
// two_extractors.json as one setting (--checker nli --extractor gpt4):
// 13 responses, accuracy 0.3076923076923077, Fact F1 0.39999999999999997,
// NonFact F1 0.1818181818181818, Pearson -0.3739271808790061, Spearman
// -0.3194444444444445. With --checker chk on both, corr.py fails (a gpt4
// claim of two_extractors.json has no chk_label), and so does annotate.
func TestResponseLevelExtractorFoundNothing(t *testing.T) {
	s := openStore(t)
	files := []string{"testdata/extractors/found_nothing.json", "testdata/extractors/two_extractors.json"}
	if _, err := importer.Import(s, files, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	sel := Selection{Annotator: "refchecker-human"}
	rep, err := store.ReadWith(s, Metrics, MetricsOptions{Selection: sel, System: "chk", Extractor: "gpt4"})
	if err == nil || !strings.Contains(err.Error(), `no system "chk" (systems: nli): extractor gpt4 gave claims, and that system judged none of them`) {
		t.Errorf("chk on both files: %v", err)
	}
	for _, c := range []struct {
		system, key                      string
		n, empty                         int
		acc, fact, nonfact, pearson, rho float64 // NaN: null
	}{
		{"nli", "found_nothing", 9, 9, 2.0 / 9, 4.0 / 11, 0, math.NaN(), math.NaN()},
		{"nli", "all", 13, 9, 0.3076923076923077, 0.39999999999999997, 0.1818181818181818, -0.3739271808790061, -0.3194444444444445},
	} {
		if rep, err = store.ReadWith(s, Metrics, MetricsOptions{Selection: sel, System: c.system, Extractor: "gpt4"}); err != nil {
			t.Fatal(err)
		}
		rl := rep.ResponseLevel[c.key]
		if rl == nil {
			t.Fatalf("%s: no response level", c.key)
		}
		if rl.Responses != c.n || rl.WithoutClaims != c.empty {
			t.Errorf("%s: %d responses (%d without claims), want %d (%d)", c.key, rl.Responses, rl.WithoutClaims, c.n, c.empty)
		}
		near(t, c.key+" accuracy", rl.Accuracy, c.acc, 1e-12)
		near(t, c.key+" Fact F1", rl.FactF1, c.fact, 1e-12)
		near(t, c.key+" NonFact F1", rl.NonFactF1, c.nonfact, 1e-12)
		if math.IsNaN(c.pearson) {
			if rl.Pearson != nil || rl.Spearman != nil {
				t.Errorf("%s: Pearson %v, Spearman %v: want null (scipy's nan)", c.key, show(rl.Pearson), show(rl.Spearman))
			}
			continue
		}
		near(t, c.key+" Pearson", rl.Pearson, c.pearson, 1e-12)
		near(t, c.key+" Spearman", rl.Spearman, c.rho, 1e-12)
	}
	// With only the extractor that found nothing, any checker is taken.
	one := openStore(t)
	if _, err := importer.Import(one, files[:1], importer.Options{}); err != nil {
		t.Fatal(err)
	}
	rep, err = store.ReadWith(one, Metrics, MetricsOptions{Selection: sel, System: "chk", Extractor: "gpt4"})
	if err != nil {
		t.Fatal(err)
	}
	rl := rep.ResponseLevel["all"]
	if rl == nil || rl.Responses != 9 || rl.WithoutClaims != 9 || rl.Pearson != nil {
		t.Fatalf("chk alone: %+v", rl)
	}
	near(t, "chk accuracy", rl.Accuracy, 2.0/9, 1e-12)
	near(t, "chk Fact F1", rl.FactF1, 4.0/11, 1e-12)
	near(t, "chk NonFact F1", rl.NonFactF1, 0, 1e-12)
}
