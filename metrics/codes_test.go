package metrics

import (
	"slices"
	"testing"
)

func TestEncode(t *testing.T) {
	classes := []string{"entailment", "neutral", "contradiction"}
	got := Encode([]string{"neutral", "", "contradiction", "unknown", "entailment", "Neutral"}, classes)
	// Expected by the documented rule: index in classes, "" is Missing,
	// anything else (including a different case) is Other.
	want := []int{1, Missing, 2, Other, 0, Other}
	if !slices.Equal(got, want) {
		t.Fatalf("Encode = %v, want %v", got, want)
	}
	if got := Encode(nil, classes); len(got) != 0 {
		t.Fatalf("Encode(nil) = %v, want empty", got)
	}
}
