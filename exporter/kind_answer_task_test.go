package exporter

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/store"
)

const canlegalGen = `{"kind":"gen_answer","id":"ga-1","query":"q-1","system":"gemma","condition":"oracle","answer":"Notice is required.","documents":["doc-1"],"claims":[{"id":"ga-1-c1","text":"Notice is required.","predictions":{"judge":{"accuracy_support":"supported","grounded":"not_grounded"}},"labels":{"jo":{"accuracy_support":"supported","grounded":"not_grounded","error_category":["valid_contextual_statement"]}}},{"id":"ga-1-c2","text":"Always."}]}
{"kind":"answer_task","id":"q-1/answer","query":"q-1"}
`

// Answer tasks, generated answers and their claims publish as the configs
// answers, gen_answers and gen_claims; the gold answer is the accepted one;
// multi-valued labels are lists; native lines and labels import back.
func TestAnswersAndGeneratedClaimsPublish(t *testing.T) {
	s := openStore(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "canlegal.jsonl")
	os.WriteFile(p, []byte(canlegal+canlegalGen), 0o644)
	if _, err := importer.Import(s, []string{p}, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	ref, _ := s.Resolve("q-1/answer")
	if err := s.SubmitAnswer("jo", ref.ItemID, "Yes, with 24 hours' notice.", []string{"doc-1", "RTA s 27"}, 0, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.ReviewAnswer("lead", ref.ItemID, "jo", true, "", store.AnswerReviewOptions{}); err != nil {
		t.Fatal(err)
	}
	hf := filepath.Join(t.TempDir(), "hf")
	res := export(t, s, Options{Format: "hf", Out: hf, Annotator: "jo"})
	if res.Items["answers"] != 1 || res.Items["gen_answers"] != 1 || res.Items["gen_claims"] != 2 {
		t.Errorf("rows %v", res.Items)
	}
	ans := readJSONL(t, filepath.Join(hf, "data", "answers", "test.jsonl"))
	want := map[string]any{"id": "q-1/answer", "query_id": "q-1", "review": "accept", "review_reason": nil, "reviewed_by": "lead",
		"gold_answer_accepted": "Yes, with 24 hours' notice.", "gold_citations": []any{"doc-1", "RTA s 27"},
		"annotator": "jo", "gold_answer": "Yes, with 24 hours' notice.", "citations": []any{"doc-1", "RTA s 27"},
		"answer_review": nil, "reject_reason": nil}
	for k, v := range want {
		if !reflect.DeepEqual(ans[0][k], v) {
			t.Errorf("answers %s = %#v, want %#v", k, ans[0][k], v)
		}
	}
	claims := readJSONL(t, filepath.Join(hf, "data", "gen_claims", "test.jsonl"))
	c1, c2 := claims[0], claims[1]
	if !reflect.DeepEqual(c1["verdicts"], []any{"judge/accuracy_support=supported", "judge/grounded=not_grounded"}) ||
		!reflect.DeepEqual(c1["error_category"], []any{"valid_contextual_statement"}) || c1["system"] != "gemma" || c1["position"] != 1.0 {
		t.Errorf("claim row %v", c1)
	}
	if !reflect.DeepEqual(c2["verdicts"], []any{}) || c2["error_category"] != nil || c2["accuracy_support"] != nil {
		t.Errorf("unlabelled claim row %v", c2)
	}
	card, _ := os.ReadFile(filepath.Join(hf, "README.md"))
	for _, w := range []string{"config_name: answers", "config_name: gen_claims", "config_name: gen_answers",
		// annotate gen's numbers for jo: one claim judged, supported and not grounded.
		"| gemma | oracle | 1 | 2 | 1 | 100.0 | [20.7, 100.0] | 0.0 | [0.0, 79.3] | 100.0 | 0.0 | 19 |",
		"1 claims categorised, 1 assignments", "| `valid_contextual_statement` | judge\\_error | 1 | 100.0 | 1 | 100.0 |",
		"## Cost of the annotation", "**gen_claims.error_category**: `valid_contextual_statement` 1"} {
		if !strings.Contains(string(card), w) {
			t.Errorf("card lacks %q", w)
		}
	}
	native := filepath.Join(t.TempDir(), "native")
	export(t, s, Options{Format: "jsonl", LabelsOnly: true, Out: native})
	labels, _ := os.ReadFile(filepath.Join(native, "labels.jsonl"))
	for _, w := range []string{`"field":"citations","value":["doc-1","RTA s 27"]`, `"field":"error_category","value":["valid_contextual_statement"]`,
		`{"annotator":"lead","item":"q-1/answer","field":"answer_review","value":"accept","role":"adjudicate"}`} {
		if !strings.Contains(string(labels), w) {
			t.Errorf("labels.jsonl lacks %s:\n%s", w, labels)
		}
	}
	if sum, err := importer.Import(s, []string{native}, importer.Options{}); err != nil || !sum.NoOp() {
		t.Errorf("re-import into the same database: %v %v", sum, err)
	}
	fresh := openStore(t)
	if _, err := importer.Import(fresh, []string{native}, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	if gold, err := fresh.GoldAnswerOf("q-1"); err != nil || gold == nil || gold.Text != "Yes, with 24 hours' notice." {
		t.Errorf("the copy's gold answer %+v %v", gold, err)
	}
	hf2 := filepath.Join(t.TempDir(), "hf2")
	export(t, fresh, Options{Format: "hf", Out: hf2, Annotator: "jo"})
	for _, cfg := range []string{"answers", "gen_answers", "gen_claims"} {
		a, _ := os.ReadFile(filepath.Join(hf, "data", cfg, "test.jsonl"))
		b, _ := os.ReadFile(filepath.Join(hf2, "data", cfg, "test.jsonl"))
		if string(a) != string(b) {
			t.Errorf("%s differs after a round trip:\n%s\n%s", cfg, a, b)
		}
	}
	csvDir := filepath.Join(t.TempDir(), "csv")
	export(t, s, Options{Format: "csv", Out: csvDir, Annotator: "jo"})
	c, _ := os.ReadFile(filepath.Join(csvDir, "gen_claims.csv"))
	if !strings.Contains(string(c), `,"judge/accuracy_support=supported`) || !strings.Contains(string(c), `judge/grounded=not_grounded",jo,supported,not_grounded,valid_contextual_statement`) {
		t.Errorf("gen_claims.csv:\n%s", c)
	}
}
