package report

import (
	"github.com/annotate-dev/annotate/schema"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
)

// seedThree: jo, sam and kim label the entailment of nine claims, with gaps.
// jo judged c8 incorrect (so jo's old entailment there is not asked) and gave
// c9 a value outside the schema. After both rules the ratings are
//
//	      c1 c2 c3 c4 c5 c6 c7 c8 c9
//	jo    E  E  N  C  N  E  C  -  -
//	sam   E  N  N  C  E  -  C  N  E
//	kim   E  E  -  N  N  -  C  N  E
func seedThree(t *testing.T) *store.Store {
	s := openStore(t)
	rows := map[string][3]string{
		"c1": {"entailment", "entailment", "entailment"},
		"c2": {"entailment", "neutral", "entailment"},
		"c3": {"neutral", "neutral", ""},
		"c4": {"contradiction", "contradiction", "neutral"},
		"c5": {"neutral", "entailment", "neutral"},
		"c6": {"entailment", "", ""},
		"c7": {"contradiction", "contradiction", "contradiction"},
		"c8": {"entailment", "neutral", "neutral"},
		"c9": {"Entailed?", "entailment", "entailment"},
	}
	seed(t, s, func(b *builder) {
		b.QA("q", "GDPR", "en", "factual_recall")
		for _, id := range []string{"c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"} {
			b.Claim("q", id, nil)
			for i, who := range []string{"jo", "sam", "kim"} {
				if v := rows[id][i]; v != "" {
					b.Labels(who, id, "claim_validity=correct", "entailment="+v)
				}
			}
		}
		b.Label("jo", "c8", "claim_validity", "incorrect")
	})
	return s
}

func TestAgreementThreeAnnotators(t *testing.T) {
	s := seedThree(t)
	rep, err := store.ReadWith(s, Agreement, AgreementOptions{Field: "entailment", Disagreements: true})
	if err != nil {
		t.Fatal(err)
	}
	e := rep.Fields["entailment"]
	if e.Units != 9 || e.Items != 8 || e.Complete != 5 {
		t.Fatalf("units %d items %d complete %d; want 9, 8, 5", e.Units, e.Items, e.Complete)
	}
	// References (the table above; /tmp script, not part of the tests):
	//   Fleiss: statsmodels fleiss_kappa over the 5 complete units;
	//     per class: numpy, Fleiss (1971) kappa_j on the same table.
	//   alpha: nltk AnnotationTask(data=[(rater, item, label)]).alpha()
	//     over the 8 items with at least two labels.
	//   AC1: numpy transcription of irrCAC gwet.ac1.raw (q = 3).
	//   percent agreement: 12 agreeing of 18 rater pairs (itertools).
	//   Cohen: scikit-learn cohen_kappa_score over the items both labelled.
	near(t, "Fleiss", e.FleissKappa, 0.3918918918918918, 1e-12)
	near(t, "Fleiss entailment", e.PerClass["entailment"].FleissKappa, 0.4444444444444444, 1e-12)
	near(t, "Fleiss neutral", e.PerClass["neutral"].FleissKappa, -0.022727272727272707, 1e-12)
	near(t, "Fleiss contradiction", e.PerClass["contradiction"].FleissKappa, 0.7000000000000001, 1e-12)
	near(t, "alpha", e.KrippendorffAlpha, 0.5833333333333334, 1e-12)
	near(t, "AC1", e.GwetAC1, 0.6347695390781564, 1e-12)
	near(t, "percent agreement", e.PercentAgreement, 12.0/18, 1e-12)
	for i, w := range []struct {
		a, b  string
		n     int
		kappa float64
		agree int
	}{
		// Annotators by name (a database and its exported and re-imported
		// copy list them alike).
		{"jo", "kim", 5, 0.7058823529411764, 4},
		{"jo", "sam", 6, 0.5, 4},
		{"kim", "sam", 7, 0.34375, 4},
	} {
		p := e.Pairs[i]
		if p.A != w.a || p.B != w.b || p.N != w.n {
			t.Errorf("pair %d: %s/%s n %d, want %s/%s n %d", i, p.A, p.B, p.N, w.a, w.b, w.n)
		}
		near(t, w.a+"/"+w.b+" kappa", p.CohenKappa, w.kappa, 1e-12)
		near(t, w.a+"/"+w.b+" agreement", p.PercentAgreement, float64(w.agree)/float64(w.n), 1e-12)
	}
	// jo (rows) against sam (columns) over c1 c2 c3 c4 c5 c7.
	c := e.Pairs[1].Confusion
	if c["entailment"]["entailment"] != 1 || c["entailment"]["neutral"] != 1 || c["neutral"]["neutral"] != 1 ||
		c["neutral"]["entailment"] != 1 || c["contradiction"]["contradiction"] != 2 || c["contradiction"]["neutral"] != 0 {
		t.Errorf("jo/sam confusion %v", c)
	}
	if e.Labels["jo"] != 7 || e.NotAsked["jo"] != 1 || e.UnknownValues["jo"]["Entailed?"] != 1 || len(e.UnknownValues) != 1 {
		t.Errorf("labels %v not asked %v unknown %v", e.Labels, e.NotAsked, e.UnknownValues)
	}
	// Disagreements: c2, c4, c5 (c8 and c9 agree once jo's labels are out;
	// c6 has one label).
	var items []string
	for _, d := range e.Disagreements {
		items = append(items, d.Item)
	}
	if strings.Join(items, " ") != "c2 c4 c5" || e.Disagreements[1].Labels["kim"] != "neutral" || len(e.Disagreements[0].Labels) != 3 {
		t.Errorf("disagreements %+v", e.Disagreements)
	}
	out := render(t, rep.WriteText)
	t.Log("\n" + out)
	for _, want := range []string{
		"entailment (jo, kim, sam): 8 items labelled by at least two, 5 by all 3",
		"per class Fleiss' kappa: entailment 0.444, neutral -0.023, contradiction 0.700",
		`left out for jo: "Entailed?" 1, 1 not asked given jo's other labels`,
		"3 disagreements:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	if f := lineFields(t, out, "jo / kim"); strings.Join(f, " ") != "5 80.0 0.706" {
		t.Errorf("jo / kim row %v", f)
	}
	if f := lineFields(t, out, "c4"); strings.Join(f, " ") != "contradiction neutral contradiction" {
		t.Errorf("c4 disagreement row %v", f)
	}

	// Two of the three, and every field: claim_validity is always asked;
	// QA fields have no labels.
	rep, err = store.ReadWith(s, Agreement, AgreementOptions{Annotators: []string{"kim", " sam", "kim"}})
	if err != nil {
		t.Fatal(err)
	}
	// In the order given, once each.
	if p := rep.Fields["entailment"].Pairs; len(rep.Annotators) != 2 || len(p) != 1 || p[0].A != "kim" || p[0].B != "sam" {
		t.Errorf("annotators %v", rep.Annotators)
	}
	if len(rep.Fields) != len(schema.AgreementFieldNames()) || rep.Fields["persona"].Items != 0 || rep.Fields["claim_validity"].Items != 7 || rep.Fields["entailment"].Items != 7 {
		t.Errorf("fields %d, persona items %d, claim_validity items %d", len(rep.Fields), rep.Fields["persona"].Items, rep.Fields["claim_validity"].Items)
	}
	if rep.Fields["entailment"].Disagreements != nil {
		t.Errorf("disagreements listed without --disagreements")
	}
	out = render(t, rep.WriteText)
	if !strings.Contains(out, "persona (kim, sam): no item labelled by two of them") {
		t.Errorf("text for an unlabelled field:\n%s", out)
	}
}

func TestAgreementCI(t *testing.T) {
	s, _ := seedSNLI(t)
	o := AgreementOptions{Field: "entailment", CI: true, Annotators: []string{"a1", "a2", "a3"}}
	a, err := store.ReadWith(s, Agreement, o)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := store.ReadWith(s, Agreement, o)
	e := a.Fields["entailment"]
	for name, c := range map[string]struct {
		ci  *[2]float64
		est *float64
	}{
		"Fleiss":      {e.FleissKappaCI95, e.FleissKappa},
		"alpha":       {e.KrippendorffAlphaCI95, e.KrippendorffAlpha},
		"AC1":         {e.GwetAC1CI95, e.GwetAC1},
		"Cohen a1/a2": {e.Pairs[0].CohenKappaCI95, e.Pairs[0].CohenKappa},
	} {
		if c.ci == nil {
			t.Fatalf("%s: no interval", name)
		}
		// 1,289 items: the interval is narrow and holds the estimate.
		if c.est == nil || !(c.ci[0] < *c.est && *c.est < c.ci[1]) || c.ci[1]-c.ci[0] > 0.1 {
			t.Errorf("%s interval %v around %v", name, *c.ci, c.est)
		}
	}
	if *e.FleissKappaCI95 != *b.Fields["entailment"].FleissKappaCI95 {
		t.Errorf("seeded intervals differ between runs")
	}
}

// persona has three classes; two raters use only two of them on five
// pairs, agreeing on three. AC1 over the schema's classes (q = 3) and over
// the classes used (q = 2, irrCAC gwet.ac1.raw's default): 0.47368421052631576
// and 0.23076923076923075, by a Python transcription of gwet.ac1.raw's
// formula (pa 0.6; prevalences citizen 0.6, legal_expert 0.4). Every label
// the same class: α has no expected disagreement and is null (NLTK 3.8's
// AnnotationTask.alpha() returns 1 there).
func TestAgreementConventions(t *testing.T) {
	s := openStore(t)
	pairs := map[string][2]string{"q1": {"citizen", "citizen"}, "q2": {"citizen", "citizen"}, "q3": {"legal_expert", "legal_expert"},
		"q4": {"citizen", "legal_expert"}, "q5": {"legal_expert", "citizen"}}
	seed(t, s, func(b *builder) {
		for _, q := range []string{"q1", "q2", "q3", "q4", "q5"} {
			b.QA(q, "GDPR", "en", "factual_recall")
			for i, who := range []string{"jo", "sam"} {
				b.Labels(who, q, "question_validity=valid", "persona="+pairs[q][i], "category=factual_recall")
			}
		}
	})
	rep, err := store.ReadWith(s, Agreement, AgreementOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := rep.Fields[schema.Persona]
	near(t, "AC1, schema's classes", p.GwetAC1, 0.47368421052631576, 1e-12)
	near(t, "AC1, classes used", p.GwetAC1Observed, 0.23076923076923075, 1e-12)
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "over the classes used") {
		t.Errorf("text does not give the AC1 over the classes used:\n%s", text.String())
	}
	c := rep.Fields[schema.Category] // every label factual_recall
	if c.KrippendorffAlpha != nil || c.FleissKappa != nil || c.GwetAC1Observed != nil {
		t.Errorf("one class used: alpha %v, Fleiss %v, observed AC1 %v; want null", c.KrippendorffAlpha, c.FleissKappa, c.GwetAC1Observed)
	}
	if q := rep.Fields[schema.QuestionValidity]; q.GwetAC1 == nil || *q.GwetAC1 != 1 {
		t.Errorf("question_validity all valid: AC1 over the schema's two classes %v, want 1", q.GwetAC1)
	}
}

// A field nobody has labelled (declared after the labels were made) is
// reported as such, not as agreement between no one.
func TestAgreementOfAFieldNobodyLabelled(t *testing.T) {
	s := seedThree(t)
	rep, err := store.ReadWith(s, Agreement, AgreementOptions{Field: "claim_validity"})
	if err != nil {
		t.Fatal(err)
	}
	if out := render(t, rep.WriteText); !strings.Contains(out, "Agreement between jo, kim, sam\n") {
		t.Fatalf("labelled field:\n%s", out)
	}
	rep, err = store.ReadWith(s, Agreement, AgreementOptions{Field: "answer_correctness"})
	if err != nil {
		t.Fatal(err)
	}
	out := render(t, rep.WriteText)
	if want := "answer_correctness: no annotator has labelled it yet (none of jo, kim, sam)\n"; out != want {
		t.Fatalf("got %q, want %q", out, want)
	}
}
