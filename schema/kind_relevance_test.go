package schema

import "testing"

// The relevance kind asks relevance, then the reason only when the document
// is not relevant; the grade is a marker the flow never asks.
func TestRelevanceFields(t *testing.T) {
	if got := NextField(KindRelevance, nil); got != Relevance {
		t.Fatalf("first field %q, want relevance", got)
	}
	if !Complete(KindRelevance, map[string]string{Relevance: Relevant}) {
		t.Error("a relevant document asks for more than relevance")
	}
	if got := NextField(KindRelevance, map[string]string{Relevance: NotRelevant}); got != IrrelevanceReason {
		t.Errorf("after not_relevant: %q, want irrelevance_reason", got)
	}
	// A reason left over from before an undo to relevant is not counted.
	c := Counted(KindRelevance, map[string]string{Relevance: Relevant, IrrelevanceReason: "reversed_roles", RelevanceGrade: "2"}, nil)
	if _, ok := c[IrrelevanceReason]; ok || c[RelevanceGrade] != "2" {
		t.Errorf("counted %v: the reason of a relevant document counts, or the grade does not", c)
	}
	for in, want := range map[string]string{"Not relevant": NotRelevant, "irrelevant": NotRelevant, "Relevant": Relevant} {
		if got, ok := Normalize(Relevance, in); !ok || got != want {
			t.Errorf("Normalize(%q) = %q, %v", in, got, ok)
		}
	}
	f, _ := Lookup(Relevance)
	if !f.TwoWay || f.Values[0] != Relevant {
		t.Error("relevance is y/n: y relevant")
	}
}
