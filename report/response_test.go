package report

import (
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
	rep, err := Metrics(s, MetricsOptions{Selection: Selection{Annotator: "refchecker-human"}, System: "nli"})
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
