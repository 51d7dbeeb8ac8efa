package report

import (
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
)

// seedProtocol is a small campaign that uses every branch of the
// ClaimRAG-LAW protocol (§A.3): invalid questions, answers judged incorrect
// or partially correct, claims under them (labelled before the answer was
// judged, and not), a pair judged valid without claims, and claims of a pair
// nobody judged (files that bring claims only). Annotator jo.
func seedProtocol(t *testing.T) *store.Store {
	s := openStore(t)
	seed(t, s, func(b *builder) {
		b.QA("q1", "S", "en", "factual_recall")
		b.Labels("jo", "q1", "question_validity=valid", "category=general_legal_research", "persona=citizen", "answer_correctness=correct")
		for _, c := range []string{"c1a", "c1b", "c1c", "c1d"} {
			b.Claim("q1", c, map[string]string{"refchecker": "entailment"})
		}
		b.Labels("jo", "c1a", "claim_validity=correct", "entailment=entailment")
		b.Labels("jo", "c1b", "claim_validity=correct", "entailment=neutral")
		b.Labels("jo", "c1c", "claim_validity=incorrect")
		// c1d: not judged yet.

		// A multi-hop pair whose answer jo judged incorrect, after labelling
		// one of its claims.
		q2 := store.QAPair{ID: "q2", Source: "S", Language: "en", Hop: "multi", Question: "Q?", Answer: "A.", Category: "factual_recall",
			Contexts: []store.Context{{ID: "x1", Text: "one"}, {ID: "x2", Text: "two"}}}
		id, _, err := b.Tx.PutQA(q2, "h-q2", "test", false)
		b.Fail(err, "q2")
		b.IDs["q2"] = id
		b.Claim("q2", "c2a", nil)
		b.Claim("q2", "c2b", nil)
		b.Labels("jo", "c2a", "claim_validity=correct", "entailment=entailment")
		b.Labels("jo", "q2", "question_validity=valid", "category=factual_recall", "persona=legal_expert", "answer_correctness=incorrect")

		// An invalid question, with a persona left from before.
		b.QA("q3", "S", "en", "factual_recall")
		b.Claim("q3", "c3a", nil)
		b.Labels("jo", "c3a", "claim_validity=correct", "entailment=contradiction")
		b.Labels("jo", "q3", "persona=citizen", "question_validity=invalid", "invalid_reason=domain")

		b.QA("q4", "S", "en", "factual_recall")
		b.Labels("jo", "q4", "question_validity=valid", "category=factual_recall", "persona=civil_officer", "answer_correctness=partially_correct")
		b.QA("q5", "S", "en", "false_premise")
		b.Labels("jo", "q5", "question_validity=valid", "category=false_premise", "persona=citizen", "answer_correctness=correct")

		// Claims of a pair nobody judged: asked.
		b.QA("q6", "S", "en", "factual_recall")
		b.Claim("q6", "c6a", nil)
		b.Labels("jo", "c6a", "claim_validity=correct", "entailment=neutral")
	})
	return s
}

func TestStatsFollowsTheProtocol(t *testing.T) {
	s := seedProtocol(t)
	rep, err := store.ReadWith(s, Stats, Selection{})
	if err != nil {
		t.Fatal(err)
	}
	out := render(t, rep.WriteText)
	t.Log("\n" + out)
	st := rep.Sources["S"]
	// By hand: 6 pairs, 5 judged, ΣQA 4 (q1 q2 q4 q5); of the valid ones
	// 3 single-hop and q2 multi; answers: q1 q5 correct, q4 partial, q2
	// incorrect; Σ_A = 1 (q1: q5 has no claims), Σ_C = q1's 4 claims.
	for name, c := range map[string][2]int{
		"qa": {st.QA, 6}, "qa_judged": {st.QAJudged, 5}, "qa_valid": {st.QAValid, 4},
		"single": {st.Hop["single"], 3}, "multi": {st.Hop["multi"], 1},
		"correct": {st.AnswerCorrectness["correct"], 2}, "partial": {st.AnswerCorrectness["partially_correct"], 1},
		"incorrect": {st.AnswerCorrectness["incorrect"], 1},
		"citizen":   {st.Persona["citizen"], 2}, "civil_officer": {st.Persona["civil_officer"], 1}, "legal_expert": {st.Persona["legal_expert"], 1},
		"factual_recall": {st.Category["factual_recall"], 2}, "general": {st.Category["general_legal_research"], 1},
		"Σ_A": {st.AnswersWithClaims, 1}, "Σ_C": {st.Claims, 4},
		// 8 extracted; not asked: q2's two (answer incorrect), q3's one
		// (question invalid); judged: c1a c1b c1c and c6a (pair not
		// judged: asked); valid c1a c1b c6a.
		"extracted": {st.ClaimsExtracted, 8}, "judged claims": {st.ClaimsJudged, 4}, "valid claims": {st.ValidClaims, 3},
		"entailed": {st.Entailment["entailment"], 1}, "neutral": {st.Entailment["neutral"], 2}, "contradiction": {st.Entailment["contradiction"], 0},
		"not asked: answer incorrect": {st.ClaimsNotAsked["answer_correctness=incorrect"], 2},
		"not asked: question invalid": {st.ClaimsNotAsked["question_validity=invalid"], 1},
		// The generated category of valid pairs, and q1's change.
		"generated factual_recall": {st.GeneratedCategory["factual_recall"], 3}, "changed": {st.CategoryChanged, 1},
	} {
		if c[0] != c[1] {
			t.Errorf("%s = %d, want %d", name, c[0], c[1])
		}
	}
	near(t, "citizen share", st.PersonaShare["citizen"], 0.5, 0)
	near(t, "factual_recall share", st.CategoryShare["factual_recall"], 0.5, 0)
	if x := st.CategoryShare["jurisdiction_time_specific"]; x == nil || *x != 0 {
		t.Errorf("a class no valid pair has is 0%%, not %v", x)
	}
	// The labels the rule leaves out: q3's persona, c2a's and c3a's labels.
	if rep.NotAsked["persona"] != 1 || rep.NotAsked["claim_validity"] != 2 || rep.NotAsked["entailment"] != 2 {
		t.Errorf("not asked %v", rep.NotAsked)
	}
	if got := strings.Join(lineFields(t, out, "S (EN)"), " "); got != "4 2 1 1 1 2 1 0 1 4 3 1 2 0" {
		t.Errorf("Table 1 row %s", got)
	}
	for _, want := range []string{"Claims not asked, by reason: answer_correctness=incorrect 2, question_validity=invalid 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q", want)
		}
	}

	// Claims not asked by reason, in JSON too.
	m := jsonMap(t, rep)
	if at(t, m, "sources.S.claims_not_asked.question_validity=invalid") != 1.0 {
		t.Error("claims_not_asked in JSON")
	}
}

func TestMetricsFollowsTheProtocol(t *testing.T) {
	s := seedProtocol(t)
	rep, err := store.ReadWith(s, Metrics, MetricsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e := rep.Extraction["S"]
	// 8 extracted, 3 not asked, 4 judged (3 correct), so 1 (c1d) not judged.
	if e.Claims != 8 || e.NotAsked != 3 || e.Judged != 4 || e.Valid != 3 || e.NotJudged != 1 {
		t.Errorf("extraction %+v", e)
	}
	near(t, "accuracy", e.Accuracy, 0.75, 1e-15)
	v := rep.Verification["S"]
	// Only c1a and c1b are ready and predicted (c6a has no prediction).
	if v.N != 2 || v.LeftOut.NotAsked != 3 || v.LeftOut.NotJudged != 1 || v.LeftOut.JudgedIncorrect != 1 || v.LeftOut.NoPrediction != 1 {
		t.Errorf("verification n %d left out %+v", v.N, v.LeftOut)
	}
}
