package adjudication

import (
	"slices"
	"strings"
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
		{Item: 1, Field: "question_validity", Value: "valid"}, {Item: 1, Field: "category", Value: "factual_recall"}, {Item: 1, Field: "persona", Value: "citizen"},
		{Item: 1, Field: "missed_claims_checked", Value: "added"}, {Item: 4, Field: "claim_added", Value: "yes"},
	}
	if len(acc) != len(want) {
		t.Fatalf("accepted %v, want %v", acc, want)
	}
	for i := range want {
		if acc[i] != want[i] {
			t.Errorf("acceptance %d: %v, want %v", i, acc[i], want[i])
		}
	}
	// The answer's disagreement; jo's two claim labels, single-label units
	// (sam judged the answer incorrect: its claim asked him nothing), in
	// the workload from the start; the added claim (one label) a follow-up.
	if got, want := unitsOf(plan), "q1/answer_correctness:pending q1-c1/claim_validity:pending,single q1-c1/entailment:pending,single q1-jo-a1/claim_added:pending,follow-up"; got != want {
		t.Errorf("units\n  %s\nwant\n  %s", got, want)
	}
	if plan.Singles("") != 2 || plan.Singles("entailment") != 1 {
		t.Errorf("singles %d, %d", plan.Singles(""), plan.Singles("entailment"))
	}
	if p, _, _ := plan.Counts(""); p != 4 {
		t.Errorf("pending %d, want 4", p)
	}
	// With single-label units the bulk accept takes the same five: the
	// claim's lone labels wait for the answer's correctness.
	if _, _, accS := MakeAll(family(nil, nil), names, ""); !slices.Equal(accS, want) || plan.ReadySingle != 5 {
		t.Errorf("accepted with singles %v (ready %d), want %v", accS, plan.ReadySingle, want)
	}

	// The lead decides the answer is correct: jo's claim labels, the only
	// ones (sam's answer was incorrect, so none asked of him), wait for the
	// lead as follow-ups.
	final := map[string]string{"question_validity": "valid", "answer_correctness": "correct"}
	plan, acc, accS := MakeAll(family(nil, final), names, "")
	// claim_validity is a follow-up (asked given the decision); entailment
	// waits for it, single-label all along.
	if got, want := unitsOf(plan), "q1/answer_correctness:done q1-c1/claim_validity:pending,single,follow-up q1-c1/entailment:pending,single q1-jo-a1/claim_added:pending,follow-up"; got != want {
		t.Errorf("units\n  %s\nwant\n  %s", got, want)
	}
	// The bulk accept with singles takes jo's claim labels too, validity
	// first, then the entailment it makes asked.
	wantS := []Acceptance{
		{Item: 1, Field: "category", Value: "factual_recall"}, {Item: 1, Field: "persona", Value: "citizen"}, {Item: 1, Field: "missed_claims_checked", Value: "added"},
		{Item: 3, Field: "claim_validity", Value: "correct"}, {Item: 3, Field: "entailment", Value: "neutral"}, {Item: 4, Field: "claim_added", Value: "yes"},
	}
	if !slices.Equal(accS, wantS) || plan.ReadySingle != len(wantS) {
		t.Errorf("accepted with singles %v, want %v", accS, wantS)
	}
	if len(acc) != 4 || plan.Ready != 4 { // the same without jo's two claim labels
		t.Errorf("accepted %v", acc)
	}

	// The lead decides the answer is incorrect: nothing of its claims is
	// asked, and no unit remains for them.
	final = map[string]string{"question_validity": "valid", "answer_correctness": "incorrect"}
	plan, acc, accS = MakeAll(family(nil, final), names, "")
	acc = append(acc, accS...)
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

// unitsOf lists a plan's units as "ext/field:state[,single][,follow-up]".
func unitsOf(p Plan) string {
	var out []string
	for _, u := range p.Units {
		s := u.Ext + "/" + u.Field + ":" + u.State.String()
		if u.Single {
			s += ",single"
		}
		if u.FollowUp {
			s += ",follow-up"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

// TestSingleLabelUnitsAreInTheWorkload: jo judged the question valid and
// answered its fields, sam judged it invalid and gave a reason. Every field
// but the disagreement has one label, the other annotator not asked it: all
// wait for the lead from the start, and deciding the question leaves those
// it makes asked (now follow-ups too) and drops the other.
func TestSingleLabelUnitsAreInTheWorkload(t *testing.T) {
	names := []string{"jo", "sam"}
	items := func(final map[string]string) []Item {
		return []Item{{Ref: Ref{ID: 1, Ext: "q1", Kind: schema.KindQA}, Final: final,
			Labels: []map[string]string{
				{"question_validity": "valid", "category": "factual_recall", "persona": "citizen", "answer_correctness": "incorrect"},
				{"question_validity": "invalid", "invalid_reason": "domain"},
			}}}
	}
	plan, acc, accS := MakeAll(items(nil), names, "")
	if got, want := unitsOf(plan), "q1/question_validity:pending q1/invalid_reason:pending,single q1/category:pending,single q1/persona:pending,single q1/answer_correctness:pending,single"; got != want {
		t.Errorf("units\n  %s\nwant\n  %s", got, want)
	}
	if p, _, _ := plan.Counts(""); p != 5 || plan.Singles("") != 4 {
		t.Errorf("pending %d, singles %d; want 5, 4", p, plan.Singles(""))
	}
	// Nothing is accepted before the question is decided: each lone label
	// is asked only given a validity.
	if len(acc) != 0 || len(accS) != 0 {
		t.Errorf("accepted %v / %v", acc, accS)
	}
	plan, _, accS = MakeAll(items(map[string]string{"question_validity": "valid"}), names, "")
	if got, want := unitsOf(plan), "q1/question_validity:done q1/category:pending,single,follow-up q1/persona:pending,single,follow-up q1/answer_correctness:pending,single,follow-up"; got != want {
		t.Errorf("units\n  %s\nwant\n  %s", got, want)
	}
	wantS := []Acceptance{{Item: 1, Field: "category", Value: "factual_recall"}, {Item: 1, Field: "persona", Value: "citizen"}, {Item: 1, Field: "answer_correctness", Value: "incorrect"}}
	if !slices.Equal(accS, wantS) {
		t.Errorf("accepted with singles %v, want %v", accS, wantS)
	}
	// A field only one annotator has answered because the other has not
	// got to it yet is no single-label unit: no unit at all.
	plan, _ = Make([]Item{{Ref: Ref{ID: 1, Ext: "q1", Kind: schema.KindQA},
		Labels: []map[string]string{{"question_validity": "valid", "category": "factual_recall"}, {"question_validity": "valid"}}}}, names, "")
	if got := unitsOf(plan); got != "" {
		t.Errorf("units %s, want none", got)
	}
}
