package adjudication

import (
	"reflect"
	"testing"

	"github.com/annotate-dev/annotate/tally"
)

// TestConfuseCountsAndOrdersCells checks the matrix and the cells against
// counts made by hand over seven pairs.
func TestConfuseCountsAndOrdersCells(t *testing.T) {
	classes := []string{"entailment", "neutral", "contradiction"}
	pairs := []SystemPair{
		{1, "entailment", "entailment"},       // agree
		{2, "entailment", "neutral"},          // cell entailment/neutral
		{3, "neutral", "contradiction"},       // cell neutral/contradiction
		{4, "entailment", "maybe"},            // outside the classes: other
		{5, "entailment", "neutral"},          // cell entailment/neutral, second
		{6, "contradiction", "neutral"},       // cell contradiction/neutral
		{7, "contradiction", "contradiction"}, // agree
	}
	c := Confuse(classes, pairs)
	if c.N != 7 || c.Agree != 2 {
		t.Fatalf("N, Agree = %d, %d; want 7, 2", c.N, c.Agree)
	}
	want := map[string]map[string]int{
		"entailment":    {"entailment": 1, "neutral": 2, "contradiction": 0, tally.OtherClass: 1},
		"neutral":       {"entailment": 0, "neutral": 0, "contradiction": 1, tally.OtherClass: 0},
		"contradiction": {"entailment": 0, "neutral": 1, "contradiction": 1, tally.OtherClass: 0},
	}
	if !reflect.DeepEqual(c.Matrix, want) {
		t.Errorf("matrix = %v\nwant %v", c.Matrix, want)
	}
	// Largest first; among the cells of one claim, expert class order, then
	// system class order with other last.
	wantCells := []Cell{
		{"entailment", "neutral", []int64{2, 5}},
		{"entailment", tally.OtherClass, []int64{4}},
		{"neutral", "contradiction", []int64{3}},
		{"contradiction", "neutral", []int64{6}},
	}
	if !reflect.DeepEqual(c.Cells, wantCells) {
		t.Errorf("cells = %v\nwant %v", c.Cells, wantCells)
	}
}

// TestConfuseOfNothing: every cell of the matrix is there, at zero.
func TestConfuseOfNothing(t *testing.T) {
	c := Confuse([]string{"a", "b"}, nil)
	want := map[string]map[string]int{"a": {"a": 0, "b": 0, tally.OtherClass: 0}, "b": {"a": 0, "b": 0, tally.OtherClass: 0}}
	if c.N != 0 || c.Cells != nil || !reflect.DeepEqual(c.Matrix, want) {
		t.Errorf("Confuse(nil) = %+v", c)
	}
}
