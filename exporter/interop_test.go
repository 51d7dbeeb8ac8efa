package exporter

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
			`ls.json: record 2: field "data.annotate_id": unknown item "nope"`},
		{"no id", `[{"data":{"text":"hello"},"annotations":[]}]`, `ls.json: record 1: field "data.annotate_id": missing: the task names no annotate item; give data.annotate_id (an item annotate has) or data.id (a new one)`},
		{"no fields", `[{"id":4,"data":{"question":"Q?"},"annotations":[]}]`, `ls.json: record 1: field "data": the task names no annotate item (no data.annotate_id), and the QA pair made from its data lacks source, answer, contexts`},
		{"a claim alone", `[{"id":4,"data":{"claim":"x"},"annotations":[{"completed_by":1,"result":[{"from_name":"entailment","value":{"choices":["neutral"]}}]}]}]`, `ls.json: record 1: field "data.annotate_id": missing: a claim is made inside its parent`},
		{"bad contexts", `[{"id":4,"data":{"source":"GDPR","question":"Q?","answer":"A.","contexts":[{"text":"t"}]},"annotations":[]}]`, `ls.json: record 1: field "data.contexts[0].id": missing (required)`},
		{"wrong kind", `[{"data":{"annotate_id":"gdpr-001"},"annotations":[{"completed_by":1,"result":[{"from_name":"entailment","value":{"choices":["neutral"]}}]}]}]`,
			`ls.json: record 1: field "annotations[0].result[0].from_name": entailment is a field of a claim, but "gdpr-001" is a QA pair`},
		{"two choices", `[{"data":{"annotate_id":"gdpr-001"},"annotations":[{"completed_by":1,"result":[{"from_name":"persona","value":{"choices":["citizen","legal_expert"]}}]}]}]`,
			`ls.json: record 1: field "annotations[0].result[0].value.choices": 2 choices for persona`},
		{"no model", `[{"data":{"annotate_id":"gdpr-001-c1"},"predictions":[{"result":[]}]}]`, `ls.json: record 1: field "predictions[0].model_version": missing`},
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
{"text":"q","answer":"reject","_annotator_id":"pat","meta":{"annotate_id":"gdpr-001"}}
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
	if got != "ana valid; pat invalid" {
		t.Errorf("labels %q, want ana valid; pat invalid (accept the first value, reject the second, ignore skipped)", got)
	}
	for _, c := range []struct{ body, field, want string }{
		{`{"answer":"maybe","_annotator_id":"ana","meta":{"annotate_id":"gdpr-001"}}`, "question_validity", `bad.jsonl:1: field "answer": want accept, reject or ignore, got "maybe"`},
		{`{"answer":"accept","_annotator_id":"ana","meta":{"annotate_id":"gdpr-001"}}` + "\n" + `{"answer":"accept","_annotator_id":"ana","meta":{"annotate_id":"gdpr-999"}}`, "question_validity", `bad.jsonl:2: field "meta.annotate_id": unknown item "gdpr-999"`},
		{`{"answer":"accept","_annotator_id":"ana","meta":{"annotate_id":"gdpr-001"}}`, "persona", `bad.jsonl:1: field "label": "persona" is not a two-way field, and the line has no "options"`},
		{`{"answer":"accept","_annotator_id":"ana","meta":{"annotate_id":"gdpr-001"}}`, "gold_answer", `bad.jsonl:1: field "label": "gold_answer" is not a field with a closed list of values`},
		{`{"answer":"accept","accept":["citizen","legal_expert"],"options":[],"_annotator_id":"ana","meta":{"annotate_id":"gdpr-001"}}`, "persona", `bad.jsonl:1: field "accept": 2 options chosen for persona, which takes one`},
		{`{"answer":"accept","accept":"citizen","options":[],"_annotator_id":"ana","meta":{"annotate_id":"gdpr-001"}}`, "persona", `bad.jsonl:1: field "accept": want the list of the option ids chosen, got a string`},
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
	if _, err := Export(t.Context(), s, Options{Format: "prodigy", Field: schema.GoldAnswer, Out: filepath.Join(dir, "x")}); err == nil || !strings.Contains(err.Error(), "closed list of values") {
		t.Errorf("export of gold_answer: %v, want refused (free text)", err)
	}
}

// The hashes are MurmurHash3 x86 32-bit, seed 0, signed, the function of
// Prodigy's hashes; the values are scikit-learn's
// sklearn.utils.murmurhash3_32(s.encode("utf-8"), seed=0) (1.2.1).
func TestProdigyMurmur3(t *testing.T) {
	for s, want := range map[string]int32{"": 0, "hello": 613153351, "Hello, world!": -1070186941,
		"The quick brown fox jumps over the lazy dog": 776992547, "é€😀 triplet": 276958156,
		`{"annotate_id":"gdpr-001-c1"}`: -1926869867, "abc": -1277324294, "abcd": 1139631978} {
		if got := murmur3([]byte(s)); got != want {
			t.Errorf("murmur3(%q) = %d, want %d", s, got, want)
		}
	}
}

// prodigyLines reads an exported Prodigy file.
func prodigyLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

// Two claims with one text are two inputs to Prodigy, which would
// otherwise show and keep only one of them; one claim labelled by two
// annotators is one input and one task, in two sessions.
func TestProdigyHashesKeepItemsApart(t *testing.T) {
	s := openStore(t)
	file := filepath.Join(t.TempDir(), "two.jsonl")
	os.WriteFile(file, []byte(`{"id":"a","source":"GDPR","question":"Q1?","answer":"A.","contexts":[{"id":"p1","text":"one"}],"claims":[{"id":"a-c1","triplet":["the controller","must","notify"]}]}
{"id":"b","source":"GDPR","question":"Q2?","answer":"A.","contexts":[{"id":"p2","text":"two"}],"claims":[{"id":"b-c1","triplet":["the controller","must","notify"]}]}
`), 0o644)
	labels := filepath.Join(filepath.Dir(file), "labels.jsonl")
	os.WriteFile(labels, []byte(`{"annotator":"jo","item":"a-c1","field":"claim_validity","value":"correct"}
{"annotator":"sam","item":"a-c1","field":"claim_validity","value":"correct"}
{"annotator":"jo","item":"b-c1","field":"claim_validity","value":"incorrect"}
`), 0o644)
	if _, err := importer.Import(s, []string{file, labels}, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "p")
	export(t, s, Options{Format: "prodigy", Field: schema.ClaimValidity, Out: out})
	input, task := map[string]map[float64]bool{}, map[string]map[float64]bool{}
	for _, l := range prodigyLines(t, filepath.Join(out, "prodigy/claim_validity.jsonl")) {
		id := l["meta"].(map[string]any)["annotate_id"].(string)
		if l["text"] != "the controller | must | notify" {
			t.Errorf("%s: text %v", id, l["text"])
		}
		if who := l["meta"].(map[string]any)["annotator"].(string); l["_session_id"] != "claim_validity-"+who || l["_annotator_id"] != l["_session_id"] {
			t.Errorf("%s by %s: _session_id %v, _annotator_id %v; want claim_validity-%s (Prodigy's dataset-session)", id, who, l["_session_id"], l["_annotator_id"], who)
		}
		for m, k := range map[*map[string]map[float64]bool]string{&input: "_input_hash", &task: "_task_hash"} {
			if (*m)[id] == nil {
				(*m)[id] = map[float64]bool{}
			}
			(*m)[id][l[k].(float64)] = true
		}
	}
	if len(input["a-c1"]) != 1 || len(input["b-c1"]) != 1 || len(task["a-c1"]) != 1 {
		t.Fatalf("input hashes %v, task hashes %v: want one per claim", input, task)
	}
	for h := range input["a-c1"] {
		if input["b-c1"][h] {
			t.Errorf("the two claims share the input hash %v", h)
		}
		if task["a-c1"][h] {
			t.Errorf("input and task hash are the same, %v", h)
		}
	}
	for h := range task["a-c1"] {
		if task["b-c1"][h] {
			t.Errorf("the two claims share the task hash %v", h)
		}
	}
}

// A field of more than two values goes to Prodigy as choice tasks
// (options, accept) and comes back: entailment, persona, and the
// multi-valued error categories.
func TestRoundTripProdigyChoice(t *testing.T) {
	s := demoStore(t)
	dir := t.TempDir()
	for _, field := range []string{schema.Entailment, schema.Persona} {
		out := filepath.Join(dir, field)
		res := export(t, s, Options{Format: "prodigy", Field: field, Out: out})
		want := lines(t, s, `SELECT l.role||' '||a.name||' '||i.ext_id||' '||l.field||' '||l.value
			FROM current_labels l JOIN label_events e ON e.id=l.event_id JOIN annotators a ON a.id=e.annotator_id JOIN items i ON i.id=l.item_id
			WHERE l.field='`+field+`'`)
		if res.Labels != len(want) || len(want) == 0 {
			t.Errorf("%s: exported %d lines, want %d", field, res.Labels, len(want))
		}
		ls := prodigyLines(t, filepath.Join(out, "prodigy", field+".jsonl"))
		first := ls[0]
		fd, _ := schema.Lookup(field)
		opts, _ := first["options"].([]any)
		if len(opts) != len(fd.Values) || first["answer"] != "accept" || first["label"] != nil {
			t.Errorf("%s: %v: want %d options, answer accept, no label", field, first, len(fd.Values))
		}
		for i, o := range opts {
			if o.(map[string]any)["id"] != fd.Values[i] {
				t.Errorf("%s: option %d is %v, want %s", field, i, o, fd.Values[i])
			}
		}
		if acc, _ := first["accept"].([]any); len(acc) != 1 || !slices.Contains(fd.Values, acc[0].(string)) {
			t.Errorf("%s: accept %v, want one of the values", field, first["accept"])
		}
		back := itemsOnly(t, s)
		sum, err := importer.Import(back, []string{filepath.Join(out, "prodigy", field+".jsonl")}, importer.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Files[0].Format != importer.FormatProdigy {
			t.Errorf("detected %s, want prodigy", sum.Files[0].Format)
		}
		sameLines(t, field+" labels", want, currentLabels(t, back))
	}

	// Error categories: several options at once.
	g := openStore(t)
	file := filepath.Join(dir, "gen.jsonl")
	os.WriteFile(file, []byte(`{"kind":"query","id":"q1","text":"Can my landlord enter?","jurisdiction":"ON"}
{"kind":"gen_answer","id":"g1","query":"q1","system":"s","condition":"oracle","answer":"Yes.","claims":[{"id":"g1-c1","text":"The landlord may enter."},{"id":"g1-c2","text":"The landlord may enter."}]}
`), 0o644)
	labels := filepath.Join(dir, "gen-labels.jsonl")
	os.WriteFile(labels, []byte(`{"annotator":"jo","item":"g1-c1","field":"accuracy_support","value":"not_supported"}
{"annotator":"jo","item":"g1-c1","field":"error_category","value":["irrelevant","too_detailed"]}
{"annotator":"jo","item":"g1-c2","field":"accuracy_support","value":"not_supported"}
{"annotator":"jo","item":"g1-c2","field":"error_category","value":["doctrinal_conflation"]}
`), 0o644)
	if _, err := importer.Import(g, []string{file, labels}, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "errors")
	export(t, g, Options{Format: "prodigy", Field: schema.ErrorCategory, Out: out})
	ls := prodigyLines(t, filepath.Join(out, "prodigy/error_category.jsonl"))
	if len(ls) != 2 || fmt.Sprint(ls[0]["accept"]) != "[irrelevant too_detailed]" || fmt.Sprint(ls[0]["config"]) != "map[choice_style:multiple]" ||
		ls[0]["text"] != "The landlord may enter." || ls[0]["_input_hash"] == ls[1]["_input_hash"] {
		t.Errorf("error categories: %v", ls)
	}
	want := currentLabels(t, g)
	back := openStore(t)
	if _, err := importer.Import(back, []string{file}, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := importer.Import(back, []string{filepath.Join(out, "prodigy/error_category.jsonl")}, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	var errorLabels []string
	for _, l := range want {
		if strings.Contains(l, "error_category") {
			errorLabels = append(errorLabels, l)
		}
	}
	sameLines(t, "error categories", errorLabels, currentLabels(t, back))
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
