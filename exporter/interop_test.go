package exporter

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// itemsOnly writes the native items of s (no labels) and imports them into a
// fresh store: the items Label Studio's and Prodigy's labels are about.
func itemsOnly(t *testing.T, s *store.Store) *store.Store {
	t.Helper()
	out := filepath.Join(t.TempDir(), "native")
	export(t, s, Options{Format: "jsonl", LabelsOnly: true, Out: out})
	return importInto(t, filepath.Join(out, "items.jsonl"))
}

func events(t *testing.T, s *store.Store) int {
	t.Helper()
	var n int
	if err := s.DB().QueryRow("SELECT (SELECT COUNT(*) FROM label_events) + (SELECT COUNT(*) FROM predictions) + (SELECT COUNT(*) FROM items)").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Every current label of every annotator, adjudications included, goes to
// Label Studio and back.
func TestRoundTripLabelStudio(t *testing.T) {
	s := demoStore(t)
	out := filepath.Join(t.TempDir(), "ls")
	res := export(t, s, Options{Format: "label-studio", Out: out})
	if res.QA != 31 || res.Claims != 106 {
		t.Errorf("exported %d pairs, %d claims; want 31, 106 (the demo, as the jsonl export)", res.QA, res.Claims)
	}
	for _, f := range []string{"label-studio/qa.tasks.json", "label-studio/qa.config.xml", "label-studio/claims.tasks.json", "label-studio/claims.config.xml"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	// The shape Label Studio reads: a list of tasks; gdpr-001-c1 was labelled
	// by jo and sam and adjudicated by the lead (demoStore).
	var tasks []struct {
		Data        map[string]string `json:"data"`
		Annotations []struct {
			CompletedBy struct {
				ID    int    `json:"id"`
				Email string `json:"email"`
			} `json:"completed_by"`
			GroundTruth bool `json:"ground_truth"`
			Result      []struct {
				FromName string `json:"from_name"`
				ToName   string `json:"to_name"`
				Type     string `json:"type"`
				Value    struct {
					Choices []string `json:"choices"`
				} `json:"value"`
			} `json:"result"`
		} `json:"annotations"`
		Predictions []struct {
			ModelVersion string `json:"model_version"`
		} `json:"predictions"`
	}
	b, err := os.ReadFile(filepath.Join(out, "label-studio/claims.tasks.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &tasks); err != nil {
		t.Fatal(err)
	}
	var c1 = -1
	for i, tk := range tasks {
		if tk.Data["annotate_id"] == "gdpr-001-c1" {
			c1 = i
		}
	}
	if c1 < 0 {
		t.Fatal("no task of gdpr-001-c1")
	}
	tk := tasks[c1]
	var who []string
	for _, a := range tk.Annotations {
		w := a.CompletedBy.Email
		if a.GroundTruth {
			w += " (ground truth)"
		}
		who = append(who, w)
		for _, r := range a.Result {
			if r.ToName != "claim" || r.Type != "choices" || len(r.Value.Choices) != 1 {
				t.Errorf("result %+v: want to_name claim, type choices, one choice", r)
			}
		}
	}
	if got := strings.Join(who, ", "); got != "jo@annotate.local, sam@annotate.local, lead@annotate.local (ground truth)" {
		t.Errorf("annotations of gdpr-001-c1 by %s", got)
	}
	if tk.Data["claim"] == "" || tk.Data["kind"] != "claim" || tk.Data["qa_id"] != "gdpr-001" {
		t.Errorf("data %v: want the claim's text, kind and pair", tk.Data)
	}

	back := itemsOnly(t, s)
	sum, err := importer.Import(back, []string{filepath.Join(out, "label-studio/qa.tasks.json"), filepath.Join(out, "label-studio/claims.tasks.json")}, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Files[0].Format != importer.FormatLabelStudio {
		t.Errorf("detected %s, want label-studio", sum.Files[0].Format)
	}
	sameLines(t, "current labels", currentLabels(t, s), currentLabels(t, back))
	sameLines(t, "items and predictions", items(t, s), items(t, back))
	// Again: nothing new.
	before := events(t, back)
	if _, err := importer.Import(back, []string{filepath.Join(out, "label-studio/claims.tasks.json")}, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	if after := events(t, back); after != before {
		t.Errorf("re-import added %d rows", after-before)
	}
}

// Tasks made in Label Studio: users as e-mail, number or object; a system's
// prediction; a result of a from_name annotate does not know.
func TestImportLabelStudioTasks(t *testing.T) {
	s := itemsOnly(t, demoStore(t))
	file := filepath.Join(t.TempDir(), "project-3.json")
	os.WriteFile(file, []byte(`[
 {"id":7,"data":{"annotate_id":"gdpr-001-c1","claim":"…"},
  "annotations":[
   {"id":1,"completed_by":"ana@firm.example","result":[
     {"from_name":"claim_validity","to_name":"claim","type":"choices","value":{"choices":["Correct"]}},
     {"from_name":"entailment","to_name":"claim","type":"choices","value":{"choices":["Contradicted"]}},
     {"from_name":"sentiment","to_name":"claim","type":"choices","value":{"choices":["Positive"]}}]},
   {"id":2,"completed_by":12,"result":[{"from_name":"claim_validity","to_name":"claim","type":"choices","value":{"choices":["incorrect"]}}]},
   {"id":3,"completed_by":{"id":5,"email":"bo@firm.example"},"was_cancelled":true,"result":[{"from_name":"claim_validity","to_name":"claim","type":"choices","value":{"choices":["correct"]}}]}],
  "predictions":[{"model_version":"judge-v2","result":[{"from_name":"entailment","to_name":"claim","type":"choices","value":{"choices":["neutral"]}}]}]}
]`), 0o644)
	sum, err := importer.Import(s, []string{file}, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(lines(t, s, `SELECT a.name||' '||l.field||' '||l.value FROM current_labels l JOIN annotators a ON a.id=l.annotator_id
		JOIN items i ON i.id=l.item_id WHERE i.ext_id='gdpr-001-c1'`), "; ")
	// "Contradicted" is one of the tools' words for contradiction.
	if want := "ana claim_validity correct; ana entailment contradiction; label-studio-12 claim_validity incorrect"; got != want {
		t.Errorf("labels %q\nwant    %q", got, want)
	}
	preds := strings.Join(lines(t, s, `SELECT system||'='||value FROM predictions p JOIN items i ON i.id=p.item_id WHERE i.ext_id='gdpr-001-c1'`), ",")
	if !strings.Contains(preds, "judge-v2=neutral") {
		t.Errorf("predictions %s: want judge-v2=neutral beside the others", preds)
	}
	w := strings.Join(sum.Warnings(), "\n")
	if !strings.Contains(w, `from_name "sentiment"`) {
		t.Errorf("warnings %q: want the unknown from_name", w)
	}
}

// Bad tasks name the file, the record and the field, and change nothing.
func TestImportLabelStudioErrors(t *testing.T) {
	s := itemsOnly(t, demoStore(t))
	dir := t.TempDir()
	for _, c := range []struct{ name, body, want string }{
		{"unknown item", `[{"data":{"annotate_id":"gdpr-001"},"annotations":[]},{"data":{"annotate_id":"nope"},"annotations":[{"completed_by":1,"result":[{"from_name":"question_validity","value":{"choices":["valid"]}}]}]}]`,
			`ls.json: record 1: field "data.annotate_id": unknown item "nope"`},
		{"no id", `[{"data":{"text":"hello"},"annotations":[]}]`, `ls.json: record 0: field "data.annotate_id": missing`},
		{"wrong kind", `[{"data":{"annotate_id":"gdpr-001"},"annotations":[{"completed_by":1,"result":[{"from_name":"entailment","value":{"choices":["neutral"]}}]}]}]`,
			`ls.json: record 0: field "annotations[0].result[0].from_name": entailment is a field of a claim, but "gdpr-001" is a QA pair`},
		{"two choices", `[{"data":{"annotate_id":"gdpr-001"},"annotations":[{"completed_by":1,"result":[{"from_name":"persona","value":{"choices":["citizen","legal_expert"]}}]}]}]`,
			`ls.json: record 0: field "annotations[0].result[0].value.choices": 2 choices for persona`},
		{"no model", `[{"data":{"annotate_id":"gdpr-001-c1"},"predictions":[{"result":[]}]}]`, `ls.json: record 0: field "predictions[0].model_version": missing`},
	} {
		file := filepath.Join(dir, "ls.json")
		os.WriteFile(file, []byte(c.body), 0o644)
		before := events(t, s)
		_, err := importer.Import(s, []string{file}, importer.Options{Format: importer.FormatLabelStudio})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
		var ie *importer.InputError
		if err != nil && !errors.As(err, &ie) {
			t.Errorf("%s: %v is not an InputError", c.name, err)
		}
		if after := events(t, s); after != before {
			t.Errorf("%s: the database changed (%d rows)", c.name, after-before)
		}
	}
}

// A two-way field goes to Prodigy as accept/reject lines and comes back.
func TestRoundTripProdigy(t *testing.T) {
	s := demoStore(t)
	out := filepath.Join(t.TempDir(), "prodigy")
	res := export(t, s, Options{Format: "prodigy", Field: schema.ClaimValidity, Out: out})
	want := lines(t, s, `SELECT l.role||' '||a.name||' '||i.ext_id||' '||l.field||' '||l.value
		FROM current_labels l JOIN label_events e ON e.id=l.event_id JOIN annotators a ON a.id=e.annotator_id JOIN items i ON i.id=l.item_id
		WHERE l.field='claim_validity'`)
	if res.Labels != len(want) || len(want) == 0 {
		t.Errorf("exported %d lines, want %d (every claim_validity label)", res.Labels, len(want))
	}
	b, err := os.ReadFile(filepath.Join(out, "prodigy/claim_validity.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	first := strings.SplitN(string(b), "\n", 2)[0]
	var line map[string]any
	if err := json.Unmarshal([]byte(first), &line); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"text", "answer", "_annotator_id", "_timestamp", "_input_hash", "_task_hash", "meta"} {
		if _, ok := line[k]; !ok {
			t.Errorf("line %s: no %q", first, k)
		}
	}
	if a := line["answer"]; a != "accept" && a != "reject" {
		t.Errorf("answer %v", a)
	}
	back := itemsOnly(t, s)
	sum, err := importer.Import(back, []string{filepath.Join(out, "prodigy/claim_validity.jsonl")}, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Files[0].Format != importer.FormatProdigy {
		t.Errorf("detected %s, want prodigy", sum.Files[0].Format)
	}
	sameLines(t, "claim_validity labels", want, currentLabels(t, back))
}

func TestProdigyImportAndErrors(t *testing.T) {
	s := itemsOnly(t, demoStore(t))
	dir := t.TempDir()
	file := filepath.Join(dir, "db.jsonl")
	os.WriteFile(file, []byte(`{"text":"q","answer":"accept","_annotator_id":"ana","meta":{"annotate_id":"gdpr-001"}}
{"text":"q","answer":"reject","_annotator_id":"bo","meta":{"annotate_id":"gdpr-001"}}
{"text":"q","answer":"ignore","_annotator_id":"cy","meta":{"annotate_id":"gdpr-001"}}
`), 0o644)
	if _, err := importer.Import(s, []string{file}, importer.Options{}); err == nil || !strings.Contains(err.Error(), `db.jsonl:1: field "label": missing: give --field`) {
		t.Errorf("without --field nor label: %v", err)
	}
	if _, err := importer.Import(s, []string{file}, importer.Options{Field: schema.QuestionValidity}); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(lines(t, s, `SELECT a.name||' '||l.value FROM current_labels l JOIN annotators a ON a.id=l.annotator_id
		JOIN items i ON i.id=l.item_id WHERE i.ext_id='gdpr-001' AND l.field='question_validity'`), "; ")
	if got != "ana valid; bo invalid" {
		t.Errorf("labels %q, want ana valid; bo invalid (accept the first value, reject the second, ignore skipped)", got)
	}
	for _, c := range []struct{ body, field, want string }{
		{`{"answer":"maybe","_annotator_id":"ana","meta":{"annotate_id":"gdpr-001"}}`, "question_validity", `bad.jsonl:1: field "answer": want accept, reject or ignore, got "maybe"`},
		{`{"answer":"accept","_annotator_id":"ana","meta":{"annotate_id":"gdpr-001"}}` + "\n" + `{"answer":"accept","_annotator_id":"ana","meta":{"annotate_id":"gdpr-999"}}`, "question_validity", `bad.jsonl:2: field "meta.annotate_id": unknown item "gdpr-999"`},
		{`{"answer":"accept","_annotator_id":"ana","meta":{"annotate_id":"gdpr-001"}}`, "persona", `bad.jsonl:1: field "label": "persona" is not a two-way field`},
	} {
		bad := filepath.Join(dir, "bad.jsonl")
		os.WriteFile(bad, []byte(c.body), 0o644)
		before := events(t, s)
		_, err := importer.Import(s, []string{bad}, importer.Options{Format: importer.FormatProdigy, Field: c.field})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
		if after := events(t, s); after != before {
			t.Errorf("%s: the database changed", c.want)
		}
	}
	if _, err := Export(t.Context(), s, Options{Format: "prodigy", Field: schema.Persona, Out: filepath.Join(dir, "x")}); err == nil || !strings.Contains(err.Error(), "two-way") {
		t.Errorf("export of persona: %v, want refused (not two-way)", err)
	}
}

// The runs and both qrels go out as TREC files and come back through
// annotate's own TREC import with the same ir scores, before and after.
func TestRoundTripTREC(t *testing.T) {
	s := relevanceFixture(t)
	out := filepath.Join(t.TempDir(), "trec")
	export(t, s, Options{Format: "trec", Out: out, Annotator: "jo"})
	alpha, err := os.ReadFile(filepath.Join(out, "trec/runs/alpha.run"))
	if err != nil {
		t.Fatal(err)
	}
	// testdata/ir/runs.run scores qA's chunks d02 0.90, d01#b 0.80, d03
	// 0.80, d01#a 0.75 for alpha: d01 keeps its best score, and trec_eval's
	// order puts d03 before it (ties by document id, descending).
	if !strings.HasPrefix(string(alpha), "qA Q0 d02 1 ") || !strings.Contains(string(alpha), "qA Q0 d03 2 ") || !strings.Contains(string(alpha), "qA Q0 d01 3 ") {
		t.Errorf("alpha.run:\n%s", alpha)
	}
	after, _ := os.ReadFile(filepath.Join(out, "trec/qrels_after.txt"))
	before, _ := os.ReadFile(filepath.Join(out, "trec/qrels_before.txt"))
	if !strings.Contains(string(after), "qA 0 d07 1\n") || strings.Contains(string(before), "qA 0 d07") || !strings.HasPrefix(string(before), "qA 0 d01 2\n") {
		t.Errorf("qrels before:\n%s\nafter:\n%s", before, after)
	}
	back := openStore(t)
	runs, _ := filepath.Glob(filepath.Join(out, "trec/runs/*.run"))
	steps := []struct {
		files []string
		opt   importer.Options
	}{
		{[]string{filepath.Join("testdata", "ir", "items.jsonl")}, importer.Options{}},
		{runs, importer.Options{Format: importer.FormatTRECRun}},
		{[]string{filepath.Join(out, "trec/qrels_before.txt")}, importer.Options{Format: importer.FormatQrels}},
		{[]string{filepath.Join(out, "trec/qrels_after.txt")}, importer.Options{Format: importer.FormatQrels, Annotator: "jo"}},
	}
	for _, st := range steps {
		if _, err := importer.Import(back, st.files, st.opt); err != nil {
			t.Fatal(err)
		}
	}
	want := irJSON(t, s, "jo")
	if got := irJSON(t, back, "jo"); got != want {
		t.Errorf("ir after the round trip:\n%s\nwant\n%s", got, want)
	}
	// beta: nDCG@10 90.1% before, 93.6% after (the trec_eval values of
	// report/ir_test.go with qA/d07 added, as TestRelevancePublishes).
	rep, err := report.IR(back, report.IROptions{K: 10, Selection: report.Selection{Annotator: "jo"}})
	if err != nil {
		t.Fatal(err)
	}
	if b := rep.Runs["beta"]; b == nil || b.Before.NDCG == nil || b.After.NDCG == nil || fmt.Sprintf("%.1f %.1f", 100**b.Before.NDCG, 100**b.After.NDCG) != "90.1 93.6" {
		t.Errorf("beta after the round trip: %+v, want nDCG@10 90.1 before, 93.6 after", b)
	}
}

func irJSON(t *testing.T, s *store.Store, who string) string {
	t.Helper()
	rep, err := report.IR(s, report.IROptions{K: 10, Selection: report.Selection{Annotator: who}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(struct {
		Runs    any
		Ranking any
	}{rep.Runs, rep.Ranking})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
