package tui

import (
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"
	"github.com/annotate-dev/annotate/internal/lang"

	"strings"
	"testing"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
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

// declareOptionalExample declares the demo's field with required: false.
func declareOptionalExample(t *testing.T, s *store.Store) {
	t.Helper()
	data, err := os.ReadFile(storetest.ExampleFieldFile())
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), "required: true", "required: false", 1)
	d, err := schema.ParseDeclaration("citation_accuracy.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if d.Required {
		t.Fatal("the example no longer says required: true")
	}
	if _, _, err := s.DeclareField("lead", "citation_accuracy.yaml", text, d); err != nil {
		t.Fatal(err)
	}
}

// An optional declared field is asked at its place; the card and the help
// bar say enter passes it; passing records nothing and the item is done
// (the queue's count moves); u takes the pass back and the field is asked
// again; a digit then answers it.
func TestOptionalDeclaredFieldIsAskedAndPassed(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0, 0)
	declareOptionalExample(t, s)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.keys("y", "enter", "2", "1")
	h.at("q1", "citation_accuracy")
	v := h.view()
	for _, want := range []string{"[enter] pass (optional)", "enter pass"} {
		if !strings.Contains(v, want) {
			t.Fatalf("the screen misses %q:\n%s", want, v)
		}
	}
	h.keys("9")
	if v := h.view(); !strings.Contains(v, "citation_accuracy has 3 options: press 1-3, or enter to pass.") {
		t.Fatalf("a key of no option does not say enter passes:\n%s", v)
	}
	h.keys("enter")
	h.at("q2", "question_validity")
	if v := h.view(); !strings.Contains(v, "citation_accuracy passed: nothing recorded (u takes it back).") {
		t.Fatalf("no word of the pass:\n%s", v)
	}
	if got := h.history("q1"); got != "question_validity=valid category=factual_recall persona=civil_officer answer_correctness=correct" {
		t.Fatalf("the pass recorded something: %q", got)
	}
	if done := h.m.e.work.done; done != 1 {
		t.Fatalf("%d items done after the pass, want 1", done)
	}
	h.keys("u")
	h.at("q1", "citation_accuracy")
	if v := h.view(); !strings.Contains(v, "Pass undone: citation_accuracy is asked again.") {
		t.Fatalf("no word of the undone pass:\n%s", v)
	}
	h.keys("1")
	h.at("q2", "question_validity")
	if done := h.m.e.work.done; done != 1 {
		t.Fatalf("%d items done after answering the field passed before, want 1 (counted once)", done)
	}
	h.wantLabels("q1", map[string]string{"question_validity": "valid", "category": "factual_recall",
		"persona": "civil_officer", "answer_correctness": "correct", "citation_accuracy": "wrong"})
	// A pass on the item on screen, taken back there: the field again.
	h.keys("y", "enter", "1", "2", "enter")
	h.keys("u")
	h.at("q2", "citation_accuracy")
	// A decision after a pass: u undoes the decision, then the decisions
	// before the pass (which recorded nothing to undo).
	h.keys("enter")
	h.at("q3", "question_validity")
	h.keys("y", "u")
	h.at("q3", "question_validity")
	h.keys("u")
	h.at("q2", "answer_correctness")
}

// Keys typed while the decisions before them are being written are bound
// to the declared field on screen, a pass included: the digit answers
// citation_accuracy of q1, enter passes it on q2, y is q3's validity.
func TestTypeAheadOnTheDeclaredField(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0, 0)
	declareOptionalExample(t, s)
	h := newHarness(t, s, Options{Kind: "qa"})
	x := &held{h: h}
	x.keys("y", "enter", "2", "1", "3", "y", "enter", "1", "2", "enter", "y")
	x.flush()
	h.wantLabels("q1", map[string]string{"question_validity": "valid", "category": "factual_recall",
		"persona": "civil_officer", "answer_correctness": "correct", "citation_accuracy": "exact"})
	h.wantLabels("q2", map[string]string{"question_validity": "valid", "category": "factual_recall",
		"persona": "citizen", "answer_correctness": "partially_correct"})
	h.wantLabels("q3", map[string]string{"question_validity": "valid"})
	h.at("q3", "category")
}

// In French the card asks the declaration's French question and says its
// values in the declaration's French words; ? gives its French guidelines;
// an optional field's pass is said in French.
func TestDeclaredFieldOnTheFrenchScreen(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0)
	declareOptionalExample(t, s)
	h := newHarness(t, s, Options{Kind: "qa", Lang: lang.French})
	h.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	h.keys("y", "enter", "2", "1")
	h.at("q1", "citation_accuracy")
	v := h.view()
	for _, want := range []string{"Les dispositions citées par la réponse sont-elles les bonnes ?",
		"[1] wrong: cite de mauvaises dispositions", "[3] exact: exactement les dispositions qui répondent à la question",
		"[enter] sans réponse (facultatif)", "enter sans réponse"} {
		if !strings.Contains(v, want) {
			t.Fatalf("the French card misses %q:\n%s", want, v)
		}
	}
	h.keys("?")
	if v := strings.Join(strings.Fields(h.view()), " "); !strings.Contains(v, "Comparez les dispositions citées par la réponse") {
		t.Fatalf("? does not give the French guidelines:\n%s", v)
	}
	h.keys("esc", "enter")
	h.at("q2", "question_validity")
	if v := h.view(); !strings.Contains(v, "citation_accuracy") || !strings.Contains(v, "laissé sans réponse") {
		t.Fatalf("the pass is not said in French:\n%s", v)
	}
}

// The dashboard's agreement panel has the declared ordinal field's row and
// its ordinal line. jo's and sam's citation accuracy on ten pairs (wrong
// 0, partial 1, exact 2) are report's agreement_declared_test.go lists;
// there, from the coincidence matrix (Krippendorff 2011) in numpy: nominal
// α 0.25196850393700787, ordinal 0.540777972027972; 5 of 10 agree, all
// within one step.
func TestDeclaredFieldInTheDashboardAgreementPanel(t *testing.T) {
	s := openStore(t)
	storetest.DeclareExample(t, s)
	jo := []int{2, 2, 1, 0, 2, 1, 1, 0, 2, 1}
	sam := []int{2, 1, 1, 0, 1, 0, 1, 1, 2, 2}
	values := []string{"wrong", "partial", "exact"}
	storetest.Seed(t, s, func(b *storetest.Builder) {
		for i := range jo {
			id := fmt.Sprintf("q%d", i+1)
			b.QA(id, "GDPR", "en", "factual_recall")
			for who, v := range map[string]int{"jo": jo[i], "sam": sam[i]} {
				b.Labels(who, id, "question_validity=valid", "category=factual_recall", "persona=citizen",
					"answer_correctness=correct", "citation_accuracy="+values[v])
			}
		}
	})
	h := dashboardHarness(t, s)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 60})
	lines := strings.Split(h.view(), "\n")
	var row, scaled string
	for i, l := range lines {
		if strings.Contains(l, storetest.ExampleField) && i+1 < len(lines) {
			row, scaled = l, lines[i+1]
			break
		}
	}
	if f := strings.Fields(row); !strings.Contains(strings.Join(f, " "), "citation_accuracy 0.252 F") || !strings.Contains(row, "50.0%") {
		t.Errorf("citation_accuracy row: %q", row)
	}
	if f := strings.Fields(scaled); !strings.Contains(strings.Join(f, " "), "ordinal 0.541 M 100.0% ±1") {
		t.Errorf("no ordinal line under citation_accuracy: %q", scaled)
	}
}
