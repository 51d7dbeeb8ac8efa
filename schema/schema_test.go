package schema

import (
	"reflect"
	"slices"
	"testing"
)

func TestNextFieldAsksOnlyWhatApplies(t *testing.T) {
	// Walk a valid question and an invalid one field by field: the order is
	// the table's, and an invalid question stops after its reason.
	for _, tc := range []struct {
		answers map[string]string
		want    []string
	}{
		{map[string]string{QuestionValidity: "valid", Category: "false_premise", Persona: "citizen", AnswerCorrectness: "correct"},
			[]string{QuestionValidity, Category, Persona, AnswerCorrectness}},
		{map[string]string{QuestionValidity: "invalid", InvalidReason: "both"},
			[]string{QuestionValidity, InvalidReason}},
	} {
		cur := map[string]string{}
		var asked []string
		for f := NextField(KindQA, cur); f != ""; f = NextField(KindQA, cur) {
			asked = append(asked, f)
			cur[f] = tc.answers[f]
			if len(asked) > 10 {
				t.Fatal("no end")
			}
		}
		if !reflect.DeepEqual(asked, tc.want) || !Complete(KindQA, cur) {
			t.Errorf("asked %v, want %v", asked, tc.want)
		}
	}
	if got := NextField(KindClaim, map[string]string{ClaimValidity: "incorrect"}); got != "" {
		t.Errorf("an incorrect claim asks nothing more, got %q", got)
	}
	if got := NextField(KindClaim, map[string]string{ClaimValidity: "correct"}); got != Entailment {
		t.Errorf("a correct claim asks entailment, got %q", got)
	}
}

func TestCountedDropsFieldsNoLongerAsked(t *testing.T) {
	// A persona left over from when the question was judged valid never counts.
	cur := map[string]string{QuestionValidity: "invalid", InvalidReason: "domain", Persona: "citizen", MissedClaimsChecked: "checked"}
	want := map[string]string{QuestionValidity: "invalid", InvalidReason: "domain", MissedClaimsChecked: "checked"}
	if got := Counted(KindQA, cur, nil); !reflect.DeepEqual(got, want) {
		t.Errorf("Counted = %v, want %v", got, want)
	}
	claim := map[string]string{ClaimValidity: "incorrect", Entailment: "neutral"}
	if got := Counted(KindClaim, claim, nil); !reflect.DeepEqual(got, map[string]string{ClaimValidity: "incorrect"}) {
		t.Errorf("Counted = %v", got)
	}
}

func TestNormalize(t *testing.T) {
	for _, tc := range []struct {
		field, in, want string
		known           bool
	}{
		{AnswerCorrectness, "Partially Correct", "partially_correct", true},
		{AnswerCorrectness, " partially-correct ", "partially_correct", true},
		{Entailment, "ENTAILMENT", "entailment", true},
		{Category, "Jurisdiction Time-Specific", "jurisdiction_time_specific", true},
		{Entailment, "Maybe So", "Maybe So", false},
		// The papers' and tools' own words (docs/formats.md).
		{Category, "Jurisdiction/time-specific", "jurisdiction_time_specific", true},
		{ClaimValidity, "Valid", "correct", true},
		{ClaimValidity, "invalid", "incorrect", true},
		{Entailment, "entailed", "entailment", true},
		{Entailment, "Contradictory", "contradiction", true},
		{Entailment, "contradicted", "contradiction", true},
		{Entailment, "supported", "entailment", true},
		{Entailment, "Neutral", "neutral", true},
		// A synonym of one field is not a value of another.
		{QuestionValidity, "correct", "correct", false},
		{AnswerCorrectness, "valid", "valid", false},
		{"no_such_field", "valid", "valid", false},
		// Free text has no values to be unknown among: it is kept as written.
		{GoldAnswer, " No, not in general. ", "No, not in general.", true},
	} {
		got, known := Normalize(tc.field, tc.in)
		if got != tc.want || known != tc.known {
			t.Errorf("Normalize(%q, %q) = %q, %v; want %q, %v", tc.field, tc.in, got, known, tc.want, tc.known)
		}
	}
	if err := CheckField("persona"); err != nil {
		t.Error(err)
	}
	if err := CheckField("personna"); err == nil {
		t.Error("a misspelt field must be refused")
	}
}

func TestClaimsAskedOnlyForAnswersJudgedCorrect(t *testing.T) {
	// ClaimRAG-LAW §A.3: a claim asks nothing when the same rater judged its
	// question invalid or its answer partially correct or incorrect; a claim
	// of an unjudged pair (files that bring claims only) is asked.
	claim := map[string]string{ClaimValidity: "correct", Entailment: "neutral", ClaimAdded: "yes"}
	for _, tc := range []struct {
		parent map[string]string
		want   map[string]string
		reason string
	}{
		{nil, claim, ""},
		{map[string]string{}, claim, ""},
		{map[string]string{QuestionValidity: "valid"}, claim, ""},
		{map[string]string{QuestionValidity: "valid", AnswerCorrectness: "correct"}, claim, ""},
		{map[string]string{QuestionValidity: "invalid"}, map[string]string{ClaimAdded: "yes"}, "question_validity=invalid"},
		{map[string]string{QuestionValidity: "valid", AnswerCorrectness: "incorrect"}, map[string]string{ClaimAdded: "yes"}, "answer_correctness=incorrect"},
		{map[string]string{QuestionValidity: "valid", AnswerCorrectness: "partially_correct"}, map[string]string{ClaimAdded: "yes"}, "answer_correctness=partially_correct"},
		// An answer label left over from when the question was valid does
		// not count, so it does not gate the claims either.
		{map[string]string{AnswerCorrectness: "incorrect"}, claim, ""},
	} {
		if got := Counted(KindClaim, claim, tc.parent); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parent %v: Counted = %v, want %v", tc.parent, got, tc.want)
		}
		if got := NotAskedReason(KindClaim, ClaimValidity, claim, tc.parent); got != tc.reason {
			t.Errorf("parent %v: reason %q, want %q", tc.parent, got, tc.reason)
		}
		wantNext := ClaimValidity
		if tc.reason != "" {
			wantNext = ""
		}
		if got := NextFieldOf(KindClaim, map[string]string{}, tc.parent, ""); got != wantNext {
			t.Errorf("parent %v: next field %q, want %q", tc.parent, got, wantNext)
		}
	}
	if got := NotAskedReason(KindClaim, Entailment, map[string]string{ClaimValidity: "incorrect", Entailment: "neutral"}, nil); got != "claim_validity=incorrect" {
		t.Errorf("entailment of an incorrect claim: reason %q", got)
	}
	if got := NotAskedReason(KindClaim, Entailment, map[string]string{Entailment: "neutral"}, nil); got != "claim_validity unlabelled" {
		t.Errorf("entailment without validity: reason %q", got)
	}
}

func TestRegistry(t *testing.T) {
	// Kinds lists the annotated kinds of AllKinds, in queue order, each
	// after its parent.
	kinds, all := Kinds(), AllKinds()
	for i, k := range all {
		if i > 0 && SpecOf(all[i-1]).Order >= SpecOf(k).Order {
			t.Errorf("AllKinds() not in queue order: %v", all)
		}
		if p := SpecOf(k).Parent; p != "" && slices.Index(all, p) > i {
			t.Errorf("%s comes before its parent %s: %v", k, p, all)
		}
		if SpecOf(k).Annotated != slices.Contains(kinds, k) {
			t.Errorf("Kinds() = %v: %s annotated %v", kinds, k, SpecOf(k).Annotated)
		}
	}
	if len(kinds) == 0 || kinds[0] != KindQA {
		t.Errorf("the QA queue comes first: %v", kinds)
	}
	if SpecOf(KindClaim).Parent != KindQA || !reflect.DeepEqual(Children(KindQA), []Kind{KindClaim}) {
		t.Error("a claim's parent is its QA pair")
	}
	for _, f := range AllFields() {
		if f.Marker {
			t.Errorf("AllFields lists marker %s", f.Name)
		}
		if f.Kind == "" {
			t.Errorf("field %s has no kind", f.Name)
		}
	}
}

func TestDocumentsAreShownNotAnnotated(t *testing.T) {
	if SpecOf(KindDocument) == nil || SpecOf(KindDocument).Annotated || len(Fields(KindDocument)) != 0 {
		t.Error("documents are a kind without fields or queues")
	}
	if !slices.Contains(AllKinds(), KindDocument) || slices.Contains(Kinds(), KindDocument) {
		t.Errorf("documents are a kind (AllKinds %v) without a queue (Kinds %v)", AllKinds(), Kinds())
	}
}

// A claim is offered to a rater only once their labels on its pair judge the
// answer correct (the question valid), or at once when the pair is not under
// review; the parent gate wins over "at once" (an answer the rater judged
// incorrect asks them nothing). Reasons as the screens and reports read them.
func TestClaimsOfferedOnceTheAnswerIsJudgedCorrect(t *testing.T) {
	for _, tc := range []struct {
		parent map[string]string
		atOnce bool
		ok     bool
		reason string
	}{
		{nil, false, false, "answer_correctness unlabelled"},
		{map[string]string{QuestionValidity: "valid"}, false, false, "answer_correctness unlabelled"},
		{map[string]string{QuestionValidity: "valid", AnswerCorrectness: "correct"}, false, true, ""},
		{map[string]string{QuestionValidity: "valid", AnswerCorrectness: "incorrect"}, false, false, "answer_correctness=incorrect"},
		{map[string]string{QuestionValidity: "invalid"}, false, false, "question_validity=invalid"},
		// An answer label without a valid question does not count.
		{map[string]string{AnswerCorrectness: "correct"}, false, false, "answer_correctness not asked"},
		{nil, true, true, ""},
		{map[string]string{QuestionValidity: "valid", AnswerCorrectness: "partially_correct"}, true, false, "answer_correctness=partially_correct"},
	} {
		ok, why := Offered(KindClaim, tc.parent, tc.atOnce)
		if ok != tc.ok || why != tc.reason {
			t.Errorf("parent %v, at once %v: Offered = %v %q, want %v %q", tc.parent, tc.atOnce, ok, why, tc.ok, tc.reason)
		}
	}
	if !WaitsForParent(KindClaim) || WaitsForParent(KindQA) {
		t.Error("only claims wait for their parent's labels")
	}
	if ok, why := Offered(KindQA, nil, false); !ok || why != "" {
		t.Errorf("a QA pair: Offered = %v %q", ok, why)
	}
}
