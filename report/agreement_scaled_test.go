package report

import (
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/metrics"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// Grades jo and sam give the 14 pairs of a graded pool (in item order).
var (
	joGrades  = []int{0, 0, 1, 2, 0, 1, 1, 2, 0, 0, 1, 2, 0, 1}
	samGrades = []int{0, 1, 1, 2, 0, 0, 2, 2, 0, 2, 1, 1, 0, 2}
)

// gradedPool: a pool cut with --graded for jo and sam, every pair graded
// by both on the relevance screen (the grade and relevance in one write).
func gradedPool(t *testing.T) *store.Store {
	s := irFixture(t)
	seed := int64(3)
	if _, err := s.CreatePool(store.PoolSpec{Name: "pool", Runs: []string{"alpha", "beta"}, Depth: 10, Seed: &seed,
		Assign: []string{"jo", "sam"}, Overlap: 2, Graded: true}); err != nil {
		t.Fatal(err)
	}
	items, err := storetest.Read(t, s).BatchItems("pool", "jo")
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != len(joGrades) {
		t.Fatalf("%d pairs in the pool, want %d", len(items), len(joGrades))
	}
	for i, id := range items {
		ref, err := storetest.Read(t, s).Resolve(id)
		if err != nil {
			t.Fatal(err)
		}
		for who, g := range map[string]int{"jo": joGrades[i], "sam": samGrades[i]} {
			if _, err := s.RecordGradedRelevance(store.Label{Annotator: who, ItemID: ref.ItemID}, g); err != nil {
				t.Fatal(err)
			}
		}
	}
	return s
}

// TestGradedRelevanceAgreement: the grades of a graded pool are ordinal,
// so their agreement has the ordinal statistics beside the nominal ones.
// References, on the two grade lists above (/usr/bin/python3):
//
//	sklearn cohen_kappa_score(jo, sam, labels=[0,1,2,3,4], weights=None /
//	  "linear" / "quadratic"): 0.3587786259541985, 0.44318181818181823,
//	  0.5263157894736843
//	fast-krippendorff alpha(reliability_data=[jo, sam],
//	  value_domain=[0,1,2,3,4], level_of_measurement="nominal" /
//	  "ordinal"): 0.37451737451737444, 0.5468155683325961
//	agreeing 8 of 14, within one grade 13 of 14 (counted by hand: only
//	  the tenth pair, 0 against 2, is two grades apart)
func TestGradedRelevanceAgreement(t *testing.T) {
	s := gradedPool(t)
	rep, err := store.ReadWith(s, Agreement, AgreementOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g := rep.Fields[schema.RelevanceGrade]
	if g == nil || g.Scale != "ordinal" || g.Scaled == nil || g.Scaled.Metric != "ordinal" || g.Items != 14 || len(g.Pairs) != 1 {
		t.Fatalf("relevance_grade: %+v", g)
	}
	near(t, "percent agreement", g.PercentAgreement, 8.0/14, 1e-12)
	near(t, "nominal alpha", g.KrippendorffAlpha, 0.37451737451737444, 1e-12)
	near(t, "ordinal alpha", g.Scaled.KrippendorffAlpha, 0.5468155683325961, 1e-12)
	near(t, "within one", g.Scaled.PercentWithinOne, 13.0/14, 1e-12)
	p := g.Pairs[0]
	near(t, "kappa", p.CohenKappa, 0.3587786259541985, 1e-12)
	near(t, "linear kappa", p.Scaled.CohenKappaLinear, 0.44318181818181823, 1e-12)
	near(t, "quadratic kappa", p.Scaled.CohenKappaQuadratic, 0.5263157894736843, 1e-12)
	near(t, "pair within one", p.Scaled.PercentWithinOne, 13.0/14, 1e-12)
	// relevance, recorded with each grade (relevant above 0), stays
	// nominal: sklearn cohen_kappa_score of the grades > 0 is
	// 0.5531914893617021.
	r := rep.Fields[schema.Relevance]
	if r.Scale != "nominal" || r.Scaled != nil || r.Pairs[0].Scaled != nil {
		t.Errorf("relevance: scale %q, scaled %+v", r.Scale, r.Scaled)
	}
	near(t, "relevance kappa", r.Pairs[0].CohenKappa, 0.5531914893617021, 1e-12)

	all := render(t, rep.WriteText)
	_, out, _ := strings.Cut(all, "\nrelevance_grade (")
	for _, want := range []string{
		"jo, sam): 14 items labelled by at least two, 14 by all 2",
		"  ordinal scale: 0 < 1 < 2 < 3 < 4",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	for prefix, want := range map[string]string{
		"within one step":               "92.9%",
		"Krippendorff's alpha, ordinal": "0.547",
		"pair, ordinal scale":           "within one % kappa linear kappa quadratic",
		"jo / sam  14":                  "57.1 0.359",
		"Krippendorff's alpha  ":        "0.375",
	} {
		if f := strings.Join(lineFields(t, out, prefix), " "); f != want {
			t.Errorf("%q row: %q, want %q", prefix, f, want)
		}
	}
	if f := strings.Join(scaledPairRow(t, out), " "); f != "92.9 0.443 0.526" {
		t.Errorf("scaled pair row %q", f)
	}

	// JSON: the new keys beside the old ones; a nominal field has none.
	m := jsonMap(t, rep)
	fields := m["fields"].(map[string]any)
	grade := fields["relevance_grade"].(map[string]any)
	for _, k := range []string{"krippendorff_alpha", "fleiss_kappa", "gwet_ac1", "percent_agreement", "scale", "scaled"} {
		if _, ok := grade[k]; !ok {
			t.Errorf("relevance_grade lacks %q", k)
		}
	}
	scaled := grade["scaled"].(map[string]any)
	pair := grade["pairs"].([]any)[0].(map[string]any)["scaled"].(map[string]any)
	for _, k := range []string{"metric", "krippendorff_alpha", "percent_within_one"} {
		if _, ok := scaled[k]; !ok {
			t.Errorf("scaled lacks %q", k)
		}
	}
	for _, k := range []string{"cohen_kappa_linear", "cohen_kappa_quadratic", "percent_within_one"} {
		if _, ok := pair[k]; !ok {
			t.Errorf("a pair's scaled lacks %q", k)
		}
	}
	if _, ok := fields["irrelevance_reason"].(map[string]any)["scaled"]; ok {
		t.Error("a nominal field has scaled statistics")
	}
}

// scaledPairRow is the row of jo / sam in the table of the scale.
func scaledPairRow(t *testing.T, out string) []string {
	t.Helper()
	_, rest, ok := strings.Cut(out, "pair, ordinal scale")
	if !ok {
		t.Fatalf("no scale table in\n%s", out)
	}
	return lineFields(t, rest, "jo / sam")
}

// TestGradedRelevanceIntervals: with --ci, the ordinal alpha and the
// weighted kappas have intervals that hold the estimate, and the text
// prints them beside the kappas.
func TestGradedRelevanceIntervals(t *testing.T) {
	s := gradedPool(t)
	rep, err := store.ReadWith(s, Agreement, AgreementOptions{Field: schema.RelevanceGrade, CI: true})
	if err != nil {
		t.Fatal(err)
	}
	g := rep.Fields[schema.RelevanceGrade]
	p := g.Pairs[0].Scaled
	for name, c := range map[string]struct {
		ci *[2]float64
		x  *float64
	}{
		"ordinal alpha": {g.Scaled.KrippendorffAlphaCI95, g.Scaled.KrippendorffAlpha},
		"linear kappa":  {p.CohenKappaLinearCI95, p.CohenKappaLinear},
		"quadratic":     {p.CohenKappaQuadraticCI95, p.CohenKappaQuadratic},
	} {
		if c.ci == nil || c.ci[0] > *c.x || c.ci[1] < *c.x || c.ci[0] >= c.ci[1] {
			t.Errorf("%s: interval %v around %v", name, c.ci, *c.x)
		}
	}
	out := render(t, rep.WriteText)
	if f := lineFields(t, out, "pair, ordinal scale"); strings.Join(f, " ") != "within one % kappa linear 95% interval kappa quadratic 95% interval" {
		t.Errorf("head %v", f)
	}
	if f := scaledPairRow(t, out); len(f) != 7 {
		t.Errorf("row %v: want within, linear, its interval (2 words), quadratic, its interval", f)
	}
}

// TestGradedRelevanceByVersion: split by guidelines version, each version
// has the scaled statistics too; with one version they are the field's.
func TestGradedRelevanceByVersion(t *testing.T) {
	s := gradedPool(t)
	rep, err := store.ReadWith(s, Agreement, AgreementOptions{Field: schema.RelevanceGrade, ByGuidelinesVersion: true})
	if err != nil {
		t.Fatal(err)
	}
	g := rep.Fields[schema.RelevanceGrade]
	if len(g.ByGuidelinesVersion) != 1 {
		t.Fatalf("versions %+v", g.ByGuidelinesVersion)
	}
	v := g.ByGuidelinesVersion[0]
	if v.Scaled == nil || *v.Scaled.KrippendorffAlpha != *g.Scaled.KrippendorffAlpha || *v.Pairs[0].Scaled.CohenKappaLinear != *g.Pairs[0].Scaled.CohenKappaLinear {
		t.Errorf("version %+v, field %+v", v.Scaled, g.Scaled)
	}
	out := render(t, rep.WriteText)
	if f := lineFields(t, out, "guidelines version "); !strings.Contains(strings.Join(f, " "), "alpha, ordinal") {
		t.Errorf("version table head %v", f)
	}
}

// TestIntervalFieldScale: an interval field's codes stand for its values
// read as numbers, so a pair's weighted kappa weighs by their differences:
// on the values 1, 2, 5, rows a = 1 1 2 1, columns b = 1 2 5 5,
// statsmodels cohens_kappa(table, weights=[1,2,5], wt="linear") is
// 0.05882352941176472 and wt="quadratic" 0.11864406779661019; scikit-learn,
// which weighs by position, would give the ordinal 1/9 and 0.2.
func TestIntervalFieldScale(t *testing.T) {
	f := schema.Field{Name: "rating", Values: []string{"1", "2", "5"}, Scale: schema.Scale{Level: schema.Interval, Min: 1, Max: 5}}
	if err := f.CheckScale(); err != nil {
		t.Fatal(err)
	}
	sc := scaleOfField(f)
	if sc.level != schema.Interval || !sc.ordered {
		t.Fatalf("scale %+v", sc)
	}
	cm := metrics.NewConfusion([]int{0, 0, 1, 0}, []int{0, 1, 2, 2}, 3)
	p := scaledPair(cm, sc)
	near(t, "linear", p.CohenKappaLinear, 0.05882352941176472, 1e-12)
	near(t, "quadratic", p.CohenKappaQuadratic, 0.11864406779661019, 1e-12)
	if scaledPair(cm, scaleOfField(schema.Field{Name: "colour", Values: []string{"red", "blue", "green"}})) != nil {
		t.Error("a nominal field has weighted kappas")
	}
}
