package report

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// The paper's sample (Appendix E.3, Table 14): 25 claims of gemma (oracle)
// the judge found ungrounded, categorised by the expert; one claim is in
// two categories, so 26 assignments: 11 judge errors (valid contextual
// statements) and 15 hallucinations, the paper's 42% / 58%. As shares of
// claims: 11/25 judge errors, 14/25 claims with a hallucination.
//
// Claims 1–25 are those. Claims 26–27 the judge found ungrounded, the
// expert grounded; 28–30 both grounded; 31–135 only the judge saw
// (grounded). The judge's not-grounded rate is 27/135 = 20%, the paper's
// "at least 20%". The expert judged 30 claims: supported 1–10 and 26–30
// (15), grounded 26–30 (5).
var paperCategories = map[int][]string{}

func init() {
	for i := 1; i <= 11; i++ {
		paperCategories[i] = []string{"valid_contextual_statement"}
	}
	hall := map[string][]int{
		"general_vs_case_specific_law":  {12, 13, 14},
		"misapplied_legal_test":         {12, 15, 16, 17},
		"document_misattribution":       {18, 19, 20},
		"modal_or_detail_error":         {21, 22},
		"statutory_misattribution":      {23},
		"unsupported_by_cited_document": {24, 25},
	}
	for cat, claims := range hall {
		for _, c := range claims {
			paperCategories[c] = append(paperCategories[c], cat)
		}
	}
}

func paperFixture(t *testing.T) *store.Store {
	s := openStore(t)
	seed(t, s, func(b *builder) {
		b.Query(store.Query{ID: "q-lay", Text: "lay", Persona: "lay", Jurisdiction: "ON"})
		b.Query(store.Query{ID: "q-pro", Text: "pro", Persona: "professional", Jurisdiction: "BC"})
		b.Query(store.Query{ID: "q-x", Text: "x", Persona: "professional", Jurisdiction: "BC"})
		// Five gemma answers of 100…500 characters: claims 1–27 in the
		// lay query's answer, 28–135 in the others.
		claim := 1
		for a := 1; a <= 5; a++ {
			q, upTo := "q-pro", claim+26
			if a == 1 {
				q, upTo = "q-lay", 27
			}
			if a == 5 {
				upTo = 135
			}
			ga := store.GenAnswer{ID: fmt.Sprintf("g%d", a), Query: q, System: "gemma", Condition: "oracle", Answer: strings.Repeat("x", 100*a)}
			for ; claim <= upTo; claim++ {
				verdict := "grounded"
				if claim <= 27 {
					verdict = "not_grounded"
				}
				ga.Claims = append(ga.Claims, store.GenClaim{ID: fmt.Sprintf("c%d", claim), Position: claim, Text: "claim",
					Predictions: map[string]map[string]string{"judge": {"grounded": verdict}}})
			}
			b.GenAnswer(ga)
		}
		// Another system, pipeline, without verdicts: one claim judged fine.
		b.GenAnswer(store.GenAnswer{ID: "p1", Query: "q-pro", System: "gemini", Condition: "pipeline", Answer: "short",
			Claims: []store.GenClaim{{ID: "p1-c1", Position: 1, Text: "fine"}}})
		b.Labels("jo", "p1-c1", "accuracy_support=supported", "grounded=grounded")
		for c := 1; c <= 30; c++ {
			id := fmt.Sprintf("c%d", c)
			acc, grd := "supported", "grounded"
			if c >= 11 && c <= 25 {
				acc = "not_supported"
			}
			if c <= 25 {
				grd = "not_grounded"
			}
			b.Labels("jo", id, "accuracy_support="+acc, "grounded="+grd)
			if cats := paperCategories[c]; cats != nil {
				b.Label("jo", id, schema.ErrorCategory, schema.EncodeMulti(cats))
			}
		}
		b.AnswerTask("q-lay")
		b.AnswerTask("q-pro")
	})
	// Two gold answers written, the first accepted, the second rejected.
	for q, text := range map[string]string{"q-lay": "Gold answer, 24 letters.", "q-pro": "Rejected one."} {
		ref, _ := s.Resolve(store.AnswerTaskID(q))
		if err := s.SubmitAnswer("sam", ref.ItemID, text, nil, 0, 0); err != nil {
			t.Fatal(err)
		}
		if err := s.ReviewAnswer("lead", ref.ItemID, "sam", q == "q-lay", map[bool]string{true: "", false: "off_target"}[q == "q-lay"], store.AnswerReviewOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func TestGenReproducesThePapersSplit(t *testing.T) {
	s := paperFixture(t)
	// sam wrote gold answers, jo judged claims: jo is the only judge of claims.
	rep, err := Gen(s, GenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Annotator != "jo" {
		t.Errorf("annotator %q", rep.Annotator)
	}
	d := rep.Errors
	if d.Claims != 25 || d.Assignments != 26 {
		t.Fatalf("%d claims, %d assignments, want 25, 26", d.Claims, d.Assignments)
	}
	judge, hall := d.Groups[schema.GroupJudgeError], d.Groups[schema.GroupHallucination]
	// Shares of assignments: 11/26 and 15/26, the paper's 42% and 58%.
	if judge.Assignments != 11 || hall.Assignments != 15 {
		t.Errorf("assignments: judge errors %d, hallucinations %d", judge.Assignments, hall.Assignments)
	}
	near(t, "judge errors / assignments", judge.ShareOfAssignments, 11.0/26, 1e-12)
	near(t, "hallucinations / assignments", hall.ShareOfAssignments, 15.0/26, 1e-12)
	if fmt.Sprintf("%.0f%% %.0f%%", 100**judge.ShareOfAssignments, 100**hall.ShareOfAssignments) != "42% 58%" {
		t.Errorf("not the paper's 42%% / 58%%")
	}
	// Shares of claims: 11/25 and 14/25 (the claim in two hallucination
	// categories counts once in its group).
	if judge.Claims != 11 || hall.Claims != 14 {
		t.Errorf("claims: judge errors %d, hallucinations %d", judge.Claims, hall.Claims)
	}
	near(t, "judge errors / claims", judge.ShareOfClaims, 0.44, 1e-12)
	near(t, "hallucinations / claims", hall.ShareOfClaims, 0.56, 1e-12)
	near(t, "quality / claims", d.Groups[schema.GroupQuality].ShareOfClaims, 0, 0)
	mlt := d.Categories["misapplied_legal_test"]
	if mlt.Claims != 4 || mlt.Group != schema.GroupHallucination {
		t.Errorf("misapplied_legal_test %+v", mlt)
	}
	near(t, "misapplied / claims", mlt.ShareOfClaims, 4.0/25, 1e-12)
	near(t, "misapplied / assignments", mlt.ShareOfAssignments, 4.0/26, 1e-12)
	// The lower bound is the hallucination share of claims times the
	// judge's not-grounded rate (27/135): 0.56 × 0.2 = 0.112; the upper
	// bound is that rate.
	h := rep.HallucinationRate
	if h.RateFrom != "judge" || h.RateClaims != 135 {
		t.Errorf("rate from %s over %d claims", h.RateFrom, h.RateClaims)
	}
	near(t, "not-grounded rate", h.NotGroundedRate, 0.2, 1e-12)
	near(t, "hallucination share", h.HallucinationShare, 0.56, 1e-12)
	near(t, "lower", h.Lower, 0.56*0.2, 1e-12)
	near(t, "upper", h.Upper, 0.2, 1e-12)
	// The same per system: gemini has no categorised claim and no verdict.
	g := rep.Systems["gemma"]["oracle"]
	near(t, "gemma lower", g.HallucinationRate.Lower, 0.112, 1e-12)
	if p := rep.Systems["gemini"]["pipeline"]; p.HallucinationRate.Lower != nil || p.HallucinationRate.RateFrom != "expert" || p.Errors.Claims != 0 {
		t.Errorf("gemini: %+v %+v", p.HallucinationRate, p.Errors)
	}
	// With the expert's rate (25 of the 30 claims they judged): 0.56 × 25/30.
	rep2, err := Gen(s, GenOptions{RateFrom: "expert", System: "gemma"})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "lower, expert's rate", rep2.HallucinationRate.Lower, 0.56*25/30, 1e-12)
}

func TestGenScoresAndTheJudge(t *testing.T) {
	s := paperFixture(t)
	rep, err := Gen(s, GenOptions{By: "persona"})
	if err != nil {
		t.Fatal(err)
	}
	g := rep.Systems["gemma"]["oracle"]
	if g.Answers != 5 || g.Claims != 135 || g.Judged != 30 || g.Supported != 15 || g.GroundedJudged != 30 || g.Grounded != 5 {
		t.Fatalf("gemma %+v", g)
	}
	// Wilson intervals from statsmodels: proportion_confint(15, 30,
	// method='wilson') = (0.3315412564053376, 0.6684587435946624);
	// proportion_confint(5, 30, method='wilson') = (0.07336542371848548, 0.33564350506416035).
	near(t, "accuracy", g.Accuracy, 0.5, 1e-12)
	near(t, "accuracy ci lo", g.AccuracyCI[0], 0.3315412564053376, 1e-12)
	near(t, "accuracy ci hi", g.AccuracyCI[1], 0.6684587435946624, 1e-12)
	near(t, "groundedness", g.Groundedness, 5.0/30, 1e-12)
	near(t, "groundedness ci lo", g.GroundednessCI[0], 0.07336542371848548, 1e-12)
	near(t, "groundedness ci hi", g.GroundednessCI[1], 0.33564350506416035, 1e-12)
	// The judge over every claim: grounded 108 of 135; no accuracy verdicts.
	near(t, "judge groundedness", g.Judge.Groundedness, 108.0/135, 1e-12)
	if g.Judge.Accuracy != nil || g.Judge.AccuracyJudged != 0 {
		t.Errorf("judge accuracy without verdicts: %v", g.Judge.Accuracy)
	}
	near(t, "mean answer chars", g.MeanChars, 300, 0)
	// The judge against jo on groundedness, over the 30 claims with both
	// (scikit-learn: cohen_kappa_score = 0.7142857142857143;
	// precision_recall_fscore_support(labels=[grounded, not_grounded]) =
	// P [1, 0.92592593], R [0.6, 1], F1 [0.75, 0.96153846]; accuracy 28/30).
	ja := rep.JudgeVsExpert[schema.Grounded]
	if ja.N != 30 || ja.Confusion["grounded"]["grounded"] != 3 || ja.Confusion["grounded"]["not_grounded"] != 2 || ja.Confusion["not_grounded"]["not_grounded"] != 25 {
		t.Errorf("confusion %v (n %d)", ja.Confusion, ja.N)
	}
	near(t, "kappa", ja.Kappa, 0.7142857142857143, 1e-12)
	near(t, "accuracy", ja.Accuracy, 28.0/30, 1e-12)
	near(t, "P grounded", ja.Classes["grounded"].Precision, 1, 1e-12)
	near(t, "R grounded", ja.Classes["grounded"].Recall, 0.6, 1e-12)
	near(t, "F1 not_grounded", ja.Classes["not_grounded"].F1, 0.9615384615384616, 1e-12)
	if acc := rep.JudgeVsExpert[schema.AccuracySupport]; acc.N != 0 || acc.Kappa != nil || acc.Accuracy != nil {
		t.Errorf("no verdicts on accuracy: %+v", acc)
	}
	// Gold answers: the accepted one only (24 characters), and both written.
	if l := rep.AnswerLengths.Gold; l.Answers != 1 || *l.MeanChars != 24 {
		t.Errorf("gold %+v", l)
	}
	if l := rep.AnswerLengths.Written; l.Answers != 2 || *l.MeanChars != (24+13)/2.0 {
		t.Errorf("written %+v", l)
	}
	// By persona: the lay query's answer holds claims 1–27, of which jo
	// judged all 27, 12 supported (1–10, 26, 27); statsmodels
	// proportion_confint(12, 27, method='wilson') = (0.27585858177023004, 0.6268697548677552).
	lay := rep.By["persona"]["lay"]["gemma"]["oracle"]
	if lay.Claims != 27 || lay.Judged != 27 || lay.Supported != 12 || lay.Answers != 1 {
		t.Fatalf("lay %+v", lay)
	}
	near(t, "lay ci lo", lay.AccuracyCI[0], 0.27585858177023004, 1e-12)
	if pro := rep.By["persona"]["professional"]["gemma"]["oracle"]; pro.Judged != 3 || pro.Supported != 3 || pro.Errors.Claims != 0 {
		t.Errorf("professional %+v", pro)
	}
}

func TestGenJSONKeysAndNulls(t *testing.T) {
	s := paperFixture(t)
	rep, err := Gen(s, GenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(rep)
	var doc map[string]any
	json.Unmarshal(b, &doc)
	// docs/json.md's keys.
	for _, path := range []string{"systems.gemma.oracle.judged", "systems.gemma.oracle.accuracy", "systems.gemma.oracle.groundedness",
		"errors.claims", "errors.assignments", "errors.categories.misapplied_legal_test.group",
		"errors.categories.misapplied_legal_test.claims", "errors.categories.misapplied_legal_test.share_of_claims",
		"errors.categories.misapplied_legal_test.share_of_assignments", "errors.groups.hallucination.share_of_claims",
		"hallucination_rate.lower", "hallucination_rate.upper"} {
		var cur any = doc
		for _, k := range strings.Split(path, ".") {
			m, ok := cur.(map[string]any)
			if !ok {
				t.Fatalf("%s: not an object at %s", path, k)
			}
			if cur, ok = m[k]; !ok {
				t.Errorf("no key %s", path)
				break
			}
		}
	}
	// Nothing to count is null, never a number.
	if !strings.Contains(string(b), `"judge":{"accuracy_judged":0,"accuracy":null`) {
		t.Errorf("judge accuracy without verdicts is not null: %s", b)
	}
	out := render(t, rep.WriteText)
	if f := lineFields(t, out, "gemma"); f[0] != "oracle" || f[1] != "5" {
		t.Errorf("text row %v\n%s", f, out)
	}
	if !strings.Contains(out, "between 11.2% and 20.0%") {
		t.Errorf("text has no bounds:\n%s", out)
	}
}

// annotate stats counts gold answers as given (free text has no value to
// count by, and none outside the schema) and error categories by element.
func TestStatsOfAnswersAndGeneratedClaims(t *testing.T) {
	s := paperFixture(t)
	sam, err := Stats(s, Selection{Annotator: "sam"})
	if err != nil {
		t.Fatal(err)
	}
	if n := sam.Kinds["answer_task"].Fields["gold_answer"]["given"]; n != 2 || len(sam.UnknownValues) != 0 {
		t.Errorf("gold answers given %d, unknown values %v", n, sam.UnknownValues)
	}
	jo, _ := Stats(s, Selection{Annotator: "jo"})
	// Claim 12 is in two categories: 3 + 4 elements, one of them shared.
	if c := jo.Kinds["gen_claim"].Fields["error_category"]; c["general_vs_case_specific_law"] != 3 || c["misapplied_legal_test"] != 4 || c["valid_contextual_statement"] != 11 {
		t.Errorf("categories %v", c)
	}
}
