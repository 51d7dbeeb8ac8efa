package schema

import (
	"reflect"
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
	if got := Counted(KindQA, cur); !reflect.DeepEqual(got, want) {
		t.Errorf("Counted = %v, want %v", got, want)
	}
	claim := map[string]string{ClaimValidity: "incorrect", Entailment: "neutral"}
	if got := Counted(KindClaim, claim); !reflect.DeepEqual(got, map[string]string{ClaimValidity: "incorrect"}) {
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
		{"no_such_field", "valid", "valid", false},
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
