package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// seedMetrics: source A has ten verified claims (one RefChecker value
// "unknown", one "Entailment" in another case) and six claims each left out
// for one reason; source B four verified claims. Answers qa-A1 and qa-B1 are
// checked for missed claims, with claims the expert added; sam added a claim
// too, and the expert added one and took it back (undo).
func seedMetrics(t *testing.T) *store.Store {
	s := openStore(t)
	E, N, C := "entailment", "neutral", "contradiction"
	verified := map[string][][2]string{
		"A": {{E, E}, {E, N}, {E, "Entailment"}, {N, N}, {N, C}, {C, C}, {C, "unknown"}, {N, E}, {E, E}, {N, N}},
		"B": {{E, C}, {C, N}, {N, N}, {E, E}},
	}
	seed(t, s, func(b *builder) {
		for _, src := range []string{"A", "B"} {
			b.QA("qa-"+src+"1", src, "", "factual_recall")
			b.QA("qa-"+src+"2", src, "", "factual_recall")
			for i, p := range verified[src] {
				id := fmt.Sprintf("%s-v%d", src, i+1)
				qa := "qa-" + src + "1"
				if i >= 5 {
					qa = "qa-" + src + "2"
				}
				b.Claim(qa, id, map[string]string{"refchecker": p[1]})
				b.Labels("expert", id, "claim_validity=correct", "entailment="+p[0])
			}
		}
		pred := map[string]string{"refchecker": "neutral"}
		b.Claim("qa-A2", "n1", pred) // not judged
		b.Claim("qa-A2", "n2", pred)
		b.Labels("expert", "n2", "claim_validity=incorrect")
		b.Claim("qa-A2", "n3", pred)
		b.Labels("expert", "n3", "claim_validity=correct") // no entailment yet
		b.Claim("qa-A2", "n4", pred)
		b.Labels("expert", "n4", "claim_validity=correct", "entailment=Entailed?") // kept verbatim
		b.Claim("qa-A2", "n5", nil)
		b.Labels("expert", "n5", "claim_validity=correct", "entailment=neutral") // no prediction
		b.Claim("qa-A2", "n6", pred)
		b.Labels("expert", "n6", "claim_validity=yes") // kept verbatim
		b.Label("expert", "qa-A1", "missed_claims_checked", "added")
		b.Added("qa-A1", "qa-A1-added", "expert")
		b.Added("qa-A1", "qa-A1-sam", "sam")
		b.Label("expert", "qa-B1", "missed_claims_checked", "added")
		b.Added("qa-B1", "qa-B1-added", "expert")
		// Outside Σ_A: qa-B2 has no extracted claim (checked, one claim
		// added), qa-A3's answer is judged incorrect (its marker and its
		// added claim stand, its claims are not asked).
		b.Label("expert", "qa-B2", "missed_claims_checked", "added")
		b.Added("qa-B2", "qa-B2-added", "expert")
		b.QA("qa-A3", "A", "", "factual_recall")
		b.Claim("qa-A3", "x1", nil)
		b.Labels("expert", "qa-A3", "question_validity=valid", "answer_correctness=incorrect", "missed_claims_checked=added")
		b.Added("qa-A3", "qa-A3-added", "expert")
	})
	ref, err := storetest.Read(t, s).Resolve("qa-A1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddMissedClaim("expert", ref.ItemID, [3]string{"s", "p", "o"}, 0); err != nil {
		t.Fatal(err)
	}
	if ev, _, err := s.Undo("expert"); err != nil || ev.Field != "claim_added" {
		t.Fatalf("undo: %+v %v", ev, err)
	}
	return s
}

func TestMetricsPaths(t *testing.T) {
	s := seedMetrics(t)
	rep, err := store.ReadWith(s, Metrics, MetricsOptions{Selection: Selection{Annotator: "expert"}})
	if err != nil {
		t.Fatal(err)
	}
	out := render(t, rep.WriteText)
	t.Log("\n" + out)

	// Verification. Reference: scikit-learn on the (expert, RefChecker)
	// pairs, "Entailment" read as entailment and "unknown" kept as a fourth
	// label: precision_recall_fscore_support(y, p, labels=[ε,η,ζ],
	// zero_division=0) per class and averaged, accuracy_score and
	// cohen_kappa_score(y, p) (over the union of labels, "unknown" included).
	type want struct {
		n                 int
		p, r, f           [3]float64
		support           [3]int
		macroF, weightedF float64
		macroP, weightedP float64
		accuracy, kappa   float64
	}
	for key, w := range map[string]want{
		"A": {10, [3]float64{0.75, 0.6666666666666666, 0.5}, [3]float64{0.75, 0.5, 0.5}, [3]float64{0.75, 0.5714285714285715, 0.5}, [3]int{4, 4, 2},
			0.6071428571428572, 0.6285714285714287, 0.6388888888888888, 0.6666666666666666, 0.6, 0.41176470588235303},
		"B": {4, [3]float64{1, 0.5, 0}, [3]float64{0.5, 1, 0}, [3]float64{0.6666666666666666, 0.6666666666666666, 0}, [3]int{2, 1, 1},
			0.4444444444444444, 0.5, 0.5, 0.625, 0.5, 0.2727272727272727},
		"all": {14, [3]float64{0.8, 0.6, 0.3333333333333333}, [3]float64{0.6666666666666666, 0.6, 0.3333333333333333}, [3]float64{0.7272727272727272, 0.6, 0.3333333333333333}, [3]int{6, 5, 3},
			0.5535353535353534, 0.5974025974025974, 0.5777777777777777, 0.6285714285714287, 0.5714285714285714, 0.36363636363636354},
	} {
		v := rep.Verification[key]
		if v.N != w.n {
			t.Errorf("%s: n %d, want %d", key, v.N, w.n)
		}
		for i, c := range nli {
			s := v.Classes[c]
			near(t, key+" P "+c, s.Precision, w.p[i], 1e-12)
			near(t, key+" R "+c, s.Recall, w.r[i], 1e-12)
			near(t, key+" F1 "+c, s.F1, w.f[i], 1e-12)
			if s.Support != w.support[i] {
				t.Errorf("%s support %s = %d, want %d", key, c, s.Support, w.support[i])
			}
		}
		near(t, key+" macro F1", v.MacroF1, w.macroF, 1e-12)
		near(t, key+" weighted F1", v.WeightedF1, w.weightedF, 1e-12)
		near(t, key+" macro P", v.Macro.Precision, w.macroP, 1e-12)
		near(t, key+" weighted P", v.Weighted.Precision, w.weightedP, 1e-12)
		near(t, key+" accuracy", v.Accuracy, w.accuracy, 1e-12)
		near(t, key+" kappa", v.Kappa, w.kappa, 1e-12)
	}
	a := rep.Verification["A"]
	if a.Confusion["contradiction"]["other"] != 1 || a.Confusion["entailment"]["entailment"] != 3 || a.Confusion["entailment"]["other"] != 0 {
		t.Errorf("A confusion %v", a.Confusion)
	}
	// Each left-out claim of A at its step (x1, of qa-A3, not asked); B
	// leaves none out.
	wantLeft := LeftOut{Claims: 17, NotAsked: 1, NotJudged: 1, UnknownValidity: 1, JudgedIncorrect: 1, NoEntailment: 1, UnknownEntailment: 1, NoPrediction: 1}
	if a.LeftOut != wantLeft {
		t.Errorf("A left out %+v, want %+v", a.LeftOut, wantLeft)
	}
	if got := rep.UnknownPredictions; len(got) != 1 || got["unknown"] != 1 {
		t.Errorf("unknown predictions %v", got)
	}
	if got := rep.UnknownValues; got["entailment"]["Entailed?"] != 1 || got["claim_validity"]["yes"] != 1 {
		t.Errorf("unknown label values %v", got)
	}
	if !strings.Contains(out, `refchecker values outside the classes (column other): "unknown" 1`) ||
		!strings.Contains(out, `claim_validity: "yes" 1`) ||
		!strings.Contains(out, "left out 7 of 17 extracted claims: 1 not asked, 1 not judged, 1 judged incorrect, 1 without an entailment label, 1 without a refchecker prediction, 2 with a label value outside the schema") {
		t.Errorf("text does not account for the left-out claims")
	}
	if f := lineFields(t, section(t, out, "A: 10 claims\n"), "contradiction"); strings.Join(f, " ") != "2 50.0 50.0 50.0" {
		t.Errorf("A contradiction row %v", f)
	}
	if f := lineFields(t, section(t, section(t, out, "A: 10 claims\n"), "columns: refchecker):\n"), "entailment"); f[len(f)-1] != "other" {
		t.Errorf("A confusion header %v, want an other column", f)
	}

	// Extraction accuracy: A judged 14 (n1 unlabelled and n6's "yes" left
	// out), 13 correct; B 4 of 4. Wilson intervals from statsmodels
	// proportion_confint(k, n, method="wilson").
	for _, c := range []struct {
		key           string
		k, n, unknown int
		lo, hi        float64
	}{
		{"A", 13, 14, 1, 0.6853129557584887, 0.987277784752109},
		{"B", 4, 4, 0, 0.5101091635454025, 1.0},
		{"all", 17, 18, 1, 0.7424269921812741, 0.990124809021697},
	} {
		e := rep.Extraction[c.key]
		if e.Valid != c.k || e.Judged != c.n || e.Unknown != c.unknown {
			t.Errorf("%s extraction %+v", c.key, e)
		}
		near(t, c.key+" wilson lo", e.CI95[0], c.lo, 1e-12)
		near(t, c.key+" wilson hi", e.CI95[1], c.hi, 1e-12)
	}

	// Recall over the checked answers of Σ_A: qa-A1 has 5 correct extracted
	// claims and 1 standing claim added by the expert (sam's is sam's, the
	// undone one does not stand): 5/6; qa-B1 4/5; all 9/11. qa-B2 (no
	// extracted claim) is counted apart with its added claim left out;
	// qa-A3 (judged incorrect) is not an answer of Σ_A. Wilson as above.
	for _, c := range []struct {
		key                     string
		answers, correct, added int
		notChecked, noClaims    int
		lo, hi                  float64
	}{
		{"A", 1, 5, 1, 1, 0, 0.43649717781352965, 0.9699466302516933},
		{"B", 1, 4, 1, 0, 1, 0.3755346297625252, 0.9637758913675698},
		{"all", 2, 9, 2, 1, 1, 0.5230194380391557, 0.9486323102539149},
	} {
		r := rep.Recall[c.key]
		// qa-A2 has claims but is not checked.
		if r.Answers != c.answers || r.CorrectExtracted != c.correct || r.Added != c.added || r.NotChecked != c.notChecked || r.NoClaims != c.noClaims {
			t.Errorf("%s recall %+v", c.key, r)
		}
		near(t, c.key+" recall", r.Recall, float64(c.correct)/float64(c.correct+c.added), 1e-15)
		near(t, c.key+" recall lo", r.CI95[0], c.lo, 1e-12)
		near(t, c.key+" recall hi", r.CI95[1], c.hi, 1e-12)
	}

	for _, want := range []string{
		"answers: answers judged correct (or not under review) that have extracted claims (Σ_A),",
		"left out, answers checked without an extracted claim (and the claims added to them): 1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the recall's text lacks %q", want)
		}
	}

	// A system without predictions: nothing verified, and the text says
	// which systems exist.
	rep, err = store.ReadWith(s, Metrics, MetricsOptions{Selection: Selection{Annotator: "expert"}, System: "alignscore"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verification["all"].N != 0 || rep.Verification["all"].LeftOut.NoPrediction != 15 {
		t.Errorf("alignscore: %+v", rep.Verification["all"].LeftOut)
	}
	if out := render(t, rep.WriteText); !strings.Contains(out, `no prediction of system "alignscore" (systems with predictions: refchecker)`) {
		t.Errorf("no hint about the systems:\n%s", out)
	}
}

// --ci: seeded bootstrap intervals, identical from one run to the next, and
// around the estimate.
func TestMetricsCI(t *testing.T) {
	s := openStore(t)
	seedPaper(t, s)
	o := MetricsOptions{Selection: Selection{Annotator: "expert"}, CI: true}
	a, err := store.ReadWith(s, Metrics, o)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := store.ReadWith(s, Metrics, o)
	v := a.Verification["CIVIL"]
	if v.KappaCI95 == nil || v.MacroF1CI == nil || v.Classes["neutral"].F1CI95 == nil {
		t.Fatal("no intervals with CI")
	}
	if *v.KappaCI95 != *b.Verification["CIVIL"].KappaCI95 {
		t.Errorf("intervals differ between runs: %v %v", *v.KappaCI95, *b.Verification["CIVIL"].KappaCI95)
	}
	for name, c := range map[string]struct {
		ci  *[2]float64
		est float64
	}{
		"kappa": {v.KappaCI95, *v.Kappa}, "macro F1": {v.MacroF1CI, *v.MacroF1},
		"ε F1": {v.Classes["entailment"].F1CI95, v.Classes["entailment"].F1},
		"ζ F1": {v.Classes["contradiction"].F1CI95, v.Classes["contradiction"].F1},
	} {
		if !(c.ci[0] < c.est && c.est < c.ci[1]) || c.ci[1]-c.ci[0] > 0.35 {
			t.Errorf("%s interval %v around %v", name, *c.ci, c.est)
		}
	}
	if a.Bootstrap == nil || a.Bootstrap.Replicates != BootstrapReplicates {
		t.Errorf("bootstrap info %+v", a.Bootstrap)
	}
	// GDPR verifies nothing: no interval rather than a meaningless one.
	if a.Verification["GDPR"].KappaCI95 != nil {
		t.Errorf("interval on an empty verification")
	}
	out := render(t, a.WriteText)
	if !strings.Contains(out, "F1 95% CI") || !strings.Contains(out, "Intervals: percentile bootstrap, 1000 replicates, seed 1.") {
		t.Errorf("CI text:\n%s", out)
	}
}
