package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/schema"
)

const exampleFile = "../docs/example/citation_accuracy.yaml"

// declareText declares the field a YAML text gives (its file named name).
func declareText(t *testing.T, s *Store, name, text string) (DeclaredField, bool, error) {
	t.Helper()
	d, err := schema.ParseDeclaration(name, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return s.DeclareField("lead", name, text, d)
}

func exampleText(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(exampleFile)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func doneOf(t *testing.T, s *Store, who string) int {
	t.Helper()
	ps, err := s.Progress(who)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.Batch == "" && p.Kind == string(schema.KindQA) {
			return p.Done
		}
	}
	t.Fatalf("no QA progress for %s: %+v", who, ps)
	return 0
}

// A declared field is the schema's while its database is open, after a
// reopen too, and the built-in schema's again once it is closed; the items
// it is asked of are unfinished until it is answered (the kept counts are
// recounted), those it is not asked of stay finished.
func TestDeclaredFieldInForceAndCounted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	seed(t, s, 2, 0)
	for _, ext := range []string{"q1", "q2"} {
		label(t, s, "jo", ext, schema.QuestionValidity, "valid")
		label(t, s, "jo", ext, schema.Category, "factual_recall")
		label(t, s, "jo", ext, schema.Persona, "citizen")
	}
	label(t, s, "jo", "q1", schema.AnswerCorrectness, "correct")
	label(t, s, "jo", "q2", schema.AnswerCorrectness, "incorrect")
	if n := doneOf(t, s, "jo"); n != 2 {
		t.Fatalf("done before the declaration: %d, want 2", n)
	}
	f, changed, err := declareText(t, s, "citation_accuracy.yaml", exampleText(t))
	if err != nil || !changed || f.Version != 1 || f.GuidelinesVersion != 1 {
		t.Fatalf("declare: %+v changed=%v err=%v", f, changed, err)
	}
	if got := strings.Join(fieldNames(schema.Fields(schema.KindQA)), " "); got != "question_validity invalid_reason category persona answer_correctness citation_accuracy" {
		t.Fatalf("QA fields: %s", got)
	}
	if n := doneOf(t, s, "jo"); n != 1 {
		t.Fatalf("done after the declaration: %d, want 1 (q1 waits for citation_accuracy, q2 is not asked it)", n)
	}
	label(t, s, "jo", "q1", "citation_accuracy", "partial")
	if n := doneOf(t, s, "jo"); n != 2 {
		t.Fatalf("done after citation_accuracy: %d, want 2", n)
	}
	// The label records the declared field's guidelines version.
	var gv string
	if err := s.DB().QueryRow("SELECT guidelines_version FROM label_events WHERE field='citation_accuracy'").Scan(&gv); err != nil || gv != "1" {
		t.Fatalf("guidelines version of the label: %q %v", gv, err)
	}
	s.Close()
	if _, ok := schema.Lookup("citation_accuracy"); ok {
		t.Fatal("the field is still in force with its database closed")
	}
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if f, ok := schema.Lookup("citation_accuracy"); !ok || f.Level() != schema.Ordinal || f.Declared != 1 {
		t.Fatalf("after a reopen: %+v %v", f, ok)
	}
	if n := doneOf(t, s, "jo"); n != 2 {
		t.Fatalf("done after a reopen: %d", n)
	}
}

func fieldNames(fs []schema.Field) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Name)
	}
	return out
}

// A new version that changes the guidelines records the field's next
// version and the guidelines' next; the same file again records nothing;
// one that would orphan labels (a value removed, the ordinal order of the
// labelled values changed, another kind) is refused, names its line, and
// changes nothing.
func TestDeclaredFieldVersionsAndOrphans(t *testing.T) {
	s := openTemp(t)
	seed(t, s, 1, 0)
	text := exampleText(t)
	if _, _, err := declareText(t, s, "c.yaml", text); err != nil {
		t.Fatal(err)
	}
	if f, changed, err := declareText(t, s, "c.yaml", text); err != nil || changed || f.Version != 1 {
		t.Fatalf("the same file again: %+v %v %v", f, changed, err)
	}
	v2 := strings.Replace(text, "Judge the citations only", "Judge the citations alone", 1)
	f, changed, err := declareText(t, s, "c.yaml", v2)
	if err != nil || !changed || f.Version != 2 || f.GuidelinesVersion != 2 || strings.Join(f.Changes, ",") != "guidelines changed" {
		t.Fatalf("version 2: %+v %v %v", f, changed, err)
	}
	for _, l := range []struct{ field, value string }{{schema.QuestionValidity, "valid"}, {schema.Category, "factual_recall"},
		{schema.Persona, "citizen"}, {schema.AnswerCorrectness, "correct"}, {"citation_accuracy", "partial"}} {
		label(t, s, "jo", "q1", l.field, l.value)
	}
	label(t, s, "sam", "q1", schema.QuestionValidity, "valid")
	label(t, s, "sam", "q1", schema.AnswerCorrectness, "correct")
	label(t, s, "sam", "q1", "citation_accuracy", "exact")

	// A value with labels removed: refused at the values' line.
	noPartial := strings.Replace(v2, "  - {value: partial, key: \"2\", label: \"some right, some wrong or missing\"}\n", "", 1)
	noPartial = strings.Replace(noPartial, `key: "3"`, `key: "2"`, 1)
	noPartial = strings.Replace(noPartial, "    - {value: partial, label: \"certaines justes, d'autres fausses ou manquantes\"}\n", "", 1)
	_, _, err = declareText(t, s, "c.yaml", noPartial)
	var fe *schema.FileError
	if !errors.As(err, &fe) || fe.Line != 7 || fe.Field != "values" || !strings.Contains(err.Error(), "the value partial (version 2) has 1 label") {
		t.Fatalf("removing a labelled value: %v", err)
	}
	// The labelled values reordered on an ordinal scale: refused.
	swapped := strings.Replace(v2, "value: partial", "value: tmp", 1)
	swapped = strings.Replace(swapped, "value: exact", "value: partial", 1)
	swapped = strings.Replace(swapped, "value: tmp", "value: exact", 1)
	swapped = strings.Replace(swapped, "{value: partial, label: \"certaines", "{value: exact, label: \"certaines", 1)
	swapped = strings.Replace(swapped, "{value: exact, label: \"exactement", "{value: partial, label: \"exactement", 1)
	_, _, err = declareText(t, s, "c.yaml", swapped)
	if err == nil || !strings.Contains(err.Error(), "were in the order partial < exact (version 2), now exact < partial") {
		t.Fatalf("reordering labelled values: %v", err)
	}
	h, err := s.FieldHistory("citation_accuracy")
	if err != nil || len(h) != 2 || h[1].Version != 2 {
		t.Fatalf("history after the refusals: %+v %v", h, err)
	}
	// A value added keeps every label: version 3.
	more := strings.Replace(v2, "  - {value: exact,", "  - {value: mostly, key: \"4\", label: \"right but one missing\"}\n  - {value: exact,", 1)
	more = strings.Replace(more, `{value: exact, key: "3"`, `{value: exact, key: "5"`, 1)
	if f, _, err := declareText(t, s, "c.yaml", more); err != nil || f.Version != 3 || !strings.Contains(strings.Join(f.Changes, ","), "value mostly added") {
		t.Fatalf("a value added: %+v %v", f, err)
	}
	if f, _ := schema.Lookup("citation_accuracy"); strings.Join(f.Values, " ") != "wrong partial mostly exact" || f.KeyOf(3) != "5" {
		t.Fatalf("version 3 in force: %v keys %v", f.Values, f.Keys)
	}
}
