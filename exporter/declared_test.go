package exporter

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

const helpfulnessDecl = `kind: qa
field: helpfulness
question: How helpful is the answer?
scale: interval
min: 1
max: 5
required: false
guidelines: 1 is no help, 5 answers the question fully.
`

// A declared field reaches the Hugging Face folder with no other step: an
// ordinal one is a class_label in its declared order, an interval one a
// number; the card's field table gives its question, scale, values' words,
// version and guidelines version; Parquet holds what JSON Lines holds.
func TestDeclaredFieldsInTheHFExport(t *testing.T) {
	s := openStore(t)
	storetest.DeclareExample(t, s)
	d, err := schema.ParseDeclaration("helpfulness.yaml", []byte(helpfulnessDecl))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.DeclareField("lead", "helpfulness.yaml", helpfulnessDecl, d); err != nil {
		t.Fatal(err)
	}
	citations := []string{"exact", "wrong", "partial"}
	storetest.Seed(t, s, func(b *storetest.Builder) {
		for i, c := range citations {
			id := fmt.Sprintf("q%d", i+1)
			b.QA(id, "GDPR", "en", "factual_recall")
			b.Labels("jo", id, "question_validity=valid", "category=factual_recall", "persona=citizen",
				"answer_correctness=correct", "citation_accuracy="+c, fmt.Sprintf("helpfulness=%d", i+3))
		}
	})
	configs := parquetMatchesJSONL(t, s, Options{Annotator: "jo"})
	if !strings.Contains(strings.Join(configs, " "), "qa") {
		t.Fatalf("configs: %v", configs)
	}
	out := filepath.Join(t.TempDir(), "hf")
	export(t, s, Options{Format: "hf", Out: out, Annotator: "jo"})
	rows := readJSONL(t, filepath.Join(out, "data", "qa", "test.jsonl"))
	for i, r := range rows {
		if r["citation_accuracy"] != citations[i] || r["helpfulness"] != float64(i+3) {
			t.Fatalf("row %d: citation_accuracy %v helpfulness %#v", i, r["citation_accuracy"], r["helpfulness"])
		}
	}
	_, card := readCard(t, out)
	for _, want := range []string{
		"- name: \"citation_accuracy\"\n    dtype:\n      class_label:\n        names:\n          '0': \"wrong\"\n          '1': \"partial\"\n          '2': \"exact\"\n  - name: \"helpfulness\"\n    dtype: int64",
		"| `citation_accuracy` | class id (0 `wrong`, 1 `partial`, 2 `exact`) or null | Are the provisions the answer cites the right ones? Declared field (version 1, ordinal scale, guidelines version 1 when declared): `wrong` cites the wrong provisions < `partial` some right, some wrong or missing < `exact` exactly the provisions that answer the question; null when not labelled or not asked |",
		"| `helpfulness` | int or null | How helpful is the answer? Declared field (version 1, interval scale, guidelines version 1 when declared); null when not labelled or not asked |",
		"| `citation_accuracy` | 1 | lead |",
		"**qa.helpfulness**: `3` 1 (33.3%), `4` 1 (33.3%), `5` 1 (33.3%)",
	} {
		if !strings.Contains(card, want) {
			t.Errorf("the card misses\n%s\n\n%s", want, card)
			break
		}
	}
}

// seedDeclared declares the README tour's citation_accuracy and the
// interval helpfulness, and jo labels three QA pairs.
func seedDeclared(t *testing.T) *store.Store {
	t.Helper()
	s := openStore(t)
	storetest.DeclareExample(t, s)
	d, err := schema.ParseDeclaration("helpfulness.yaml", []byte(helpfulnessDecl))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.DeclareField("lead", "helpfulness.yaml", helpfulnessDecl, d); err != nil {
		t.Fatal(err)
	}
	storetest.Seed(t, s, func(b *storetest.Builder) {
		for i, c := range []string{"exact", "wrong", "partial"} {
			id := fmt.Sprintf("q%d", i+1)
			b.QA(id, "GDPR", "en", "factual_recall")
			b.Labels("jo", id, "question_validity=valid", "category=factual_recall", "persona=citizen",
				"answer_correctness=correct", "citation_accuracy="+c, fmt.Sprintf("helpfulness=%d", i+3))
		}
	})
	return s
}

// Label Studio: the QA config has a control per declared field, its
// choices in the declared order (the interval field's whole numbers from
// min to max), and every task is one Label Studio accepts with it.
func TestDeclaredFieldsInTheLabelStudioExport(t *testing.T) {
	s := seedDeclared(t)
	out := filepath.Join(t.TempDir(), "ls")
	export(t, s, Options{Format: "label-studio", Out: out})
	rules, tasks := lsExport(t, out)
	cfg, err := os.ReadFile(filepath.Join(out, "label-studio", "qa.config.xml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<Choices name="citation_accuracy" toName="question" choice="single">
    <Choice value="wrong"/>
    <Choice value="partial"/>
    <Choice value="exact"/>
  </Choices>`,
		`<Choices name="helpfulness" toName="question" choice="single">
    <Choice value="1"/>
    <Choice value="2"/>
    <Choice value="3"/>
    <Choice value="4"/>
    <Choice value="5"/>
  </Choices>`,
	} {
		if !strings.Contains(string(cfg), want) {
			t.Fatalf("qa.config.xml misses\n%s\n%s", want, cfg)
		}
	}
	got := map[string]string{}
	for _, task := range tasks["qa"] {
		for _, e := range rules["qa"].checkTask(task, nil) {
			t.Errorf("qa task: %s", e)
		}
		id := task["data"].(map[string]any)["annotate_id"].(string)
		for _, a := range task["annotations"].([]any) {
			for _, r := range a.(map[string]any)["result"].([]any) {
				r := r.(map[string]any)
				if f := r["from_name"].(string); f == storetest.ExampleField || f == "helpfulness" {
					got[id+" "+f] = fmt.Sprint(r["value"].(map[string]any)["choices"])
				}
			}
		}
	}
	want := map[string]string{"q1 citation_accuracy": "[exact]", "q2 citation_accuracy": "[wrong]", "q3 citation_accuracy": "[partial]",
		"q1 helpfulness": "[3]", "q2 helpfulness": "[4]", "q3 helpfulness": "[5]"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("results %v, want %v", got, want)
	}
}

// Prodigy: a declared closed field is a choice task, its options in the
// declared order with the declaration's labels as their text.
func TestDeclaredFieldInTheProdigyExport(t *testing.T) {
	s := seedDeclared(t)
	out := filepath.Join(t.TempDir(), "prodigy")
	export(t, s, Options{Format: "prodigy", Out: out, Field: storetest.ExampleField})
	rows := readJSONL(t, filepath.Join(out, "prodigy", "citation_accuracy.jsonl"))
	if len(rows) != 3 {
		t.Fatalf("%d lines, want 3", len(rows))
	}
	opts, _ := json.Marshal(rows[0]["options"])
	if want := `[{"id":"wrong","text":"cites the wrong provisions"},{"id":"partial","text":"some right, some wrong or missing"},{"id":"exact","text":"exactly the provisions that answer the question"}]`; string(opts) != want {
		t.Errorf("options %s, want %s", opts, want)
	}
	var accepted []string
	for _, r := range rows {
		accepted = append(accepted, fmt.Sprint(r["accept"]))
	}
	if want := []string{"[exact]", "[wrong]", "[partial]"}; !reflect.DeepEqual(accepted, want) {
		t.Errorf("accept %v, want %v", accepted, want)
	}
}
