package tui

import (
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store/storetest"
)

// A declared field is asked on its kind's screen at its declared place,
// with its question, its values' words and its keys; ? shows its
// guidelines; undo takes it back; an answer it is not asked after skips it.
func TestDeclaredFieldOnTheQAScreen(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0)
	storetest.DeclareExample(t, s)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.keys("y", "enter", "2", "1") // valid, the generated category, civil_officer, correct
	h.at("q1", "citation_accuracy")
	v := h.view()
	for _, want := range []string{"Are the provisions the answer cites the right ones?", "[3] exact: exactly the provisions"} {
		if !strings.Contains(v, want) {
			t.Fatalf("the field card misses %q:\n%s", want, v)
		}
	}
	h.keys("?")
	if v := h.view(); !strings.Contains(v, "Guidelines · citation_accuracy · version 1") || !strings.Contains(v, "Judge the citations only") {
		t.Fatalf("? does not show the declared field's guidelines:\n%s", v)
	}
	h.keys("esc")
	h.keys("u") // back to answer_correctness
	h.at("q1", schema.AnswerCorrectness)
	h.keys("2") // partially_correct: still asked
	h.at("q1", "citation_accuracy")
	h.keys("3")
	h.at("q2", schema.QuestionValidity)
	h.wantLabels("q1", map[string]string{"question_validity": "valid", "category": "factual_recall",
		"persona": "civil_officer", "answer_correctness": "partially_correct", "citation_accuracy": "exact"})
	h.keys("y", "enter", "1", "3") // incorrect: citation_accuracy is not asked
	h.wantLabels("q2", map[string]string{"question_validity": "valid", "category": "factual_recall",
		"persona": "citizen", "answer_correctness": "incorrect"})
}
