package review

import (
	"testing"

	"github.com/annotate-dev/annotate/schema"
)

// An answer with one extracted claim and one claim jo added. jo judged the
// answer correct, sam incorrect; both marked the answer checked, jo as
// "added" (he added a claim), sam as "checked".
func family(final, finalParent map[string]string) []Item {
	qaJo := map[string]string{"question_validity": "valid", "category": "factual_recall", "persona": "citizen", "answer_correctness": "correct", "missed_claims_checked": "added"}
	qaSam := map[string]string{"question_validity": "valid", "category": "factual_recall", "persona": "citizen", "answer_correctness": "incorrect", "missed_claims_checked": "added"}
	return []Item{
		{Ref: Ref{ID: 3, Ext: "q1-c1", Kind: schema.KindClaim}, Parent: 1,
			Labels:       []map[string]string{{"claim_validity": "correct", "entailment": "neutral"}, nil},
			ParentLabels: []map[string]string{qaJo, qaSam}, Final: final, FinalParent: finalParent},
		{Ref: Ref{ID: 1, Ext: "q1", Kind: schema.KindQA},
			Labels: []map[string]string{qaJo, qaSam}, ParentLabels: []map[string]string{nil, nil}, Final: finalParent},
		{Ref: Ref{ID: 4, Ext: "q1-jo-a1", Kind: schema.KindClaim, Added: true}, Parent: 1,
			Labels:       []map[string]string{{"claim_added": "yes"}, nil},
			ParentLabels: []map[string]string{qaJo, qaSam}, FinalParent: finalParent},
	}
}

func TestPlanAcceptsMarkersAndAddedClaims(t *testing.T) {
	names := []string{"jo", "sam"}
	plan, acc := Make(family(nil, nil), names, "")
	// Bulk accept, parents first: the four agreeing QA fields, the marker
	// ("added", so the claim jo added is kept too). The answer disagrees:
	// a unit, and until it is decided the claim's own fields wait.
	want := []Acceptance{
		{1, "question_validity", "valid"}, {1, "category", "factual_recall"}, {1, "persona", "citizen"},
		{1, "missed_claims_checked", "added"}, {4, "claim_added", "yes"},
	}
	if len(acc) != len(want) {
		t.Fatalf("accepted %v, want %v", acc, want)
	}
	for i := range want {
		if acc[i] != want[i] {
			t.Errorf("acceptance %d: %v, want %v", i, acc[i], want[i])
		}
	}
	var fields []string
	for _, u := range plan.Units {
		fields = append(fields, u.Ext+"/"+u.Field)
	}
	// The answer's disagreement; the added claim (one label) is a follow-up.
	if len(plan.Units) != 2 || plan.Units[0].Field != "answer_correctness" || plan.Units[1].Field != "claim_added" || !plan.Units[1].FollowUp {
		t.Errorf("units %v", fields)
	}

	// The lead decides the answer is correct: jo's claim labels, the only
	// ones (sam's answer was incorrect, so none asked of him), wait for the
	// lead as follow-ups.
	final := map[string]string{"question_validity": "valid", "answer_correctness": "correct"}
	plan, _ = Make(family(nil, final), names, "")
	follow := 0
	for _, u := range plan.Units {
		if u.ID == 3 && u.FollowUp && u.State == Pending {
			follow++
		}
	}
	if follow != 1 { // claim_validity; entailment waits for it
		t.Errorf("follow-ups on the claim: %d, units %+v", follow, plan.Units)
	}

	// The lead decides the answer is incorrect: nothing of its claims is
	// asked, and no unit remains for them.
	final = map[string]string{"question_validity": "valid", "answer_correctness": "incorrect"}
	plan, acc = Make(family(nil, final), names, "")
	for _, u := range plan.Units {
		if u.ID == 3 {
			t.Errorf("unit on a claim of an incorrect answer: %+v", u)
		}
	}
	for _, a := range acc {
		if a.Item == 3 {
			t.Errorf("accepted %v on a claim of an incorrect answer", a)
		}
	}
}
