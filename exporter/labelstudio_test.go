package exporter

import (
	"encoding/json"
	"github.com/annotate-dev/annotate/store/storetest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/demo"
	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// everyKindStore is demoStore with every other kind of the demo (queries,
// documents, runs, the gold qrels, answer tasks, generated answers and
// claims), jo's labels of each (the docs' example files, and a query and a
// relevance judgment here), and what Label Studio cannot take as given: a
// system's "Abstain" and "Unsure" (RefChecker's words outside the
// entailment classes, kept verbatim) and a label value outside the schema.
func everyKindStore(t *testing.T) *store.Store {
	t.Helper()
	s := demoStore(t)
	for _, f := range demo.Files()[1:] { // demo.jsonl is demoStore's
		if _, err := importer.ImportReader(s, f.Name, f.Data, importer.Options{Format: f.Format}); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	odd := filepath.Join(dir, "odd.jsonl")
	os.WriteFile(odd, []byte(`{"id":"odd-1","source":"GDPR","question":"Q?","answer":"A.","contexts":[{"id":"odd-p1","text":"t"}],`+
		`"claims":[{"id":"odd-1-c1","triplet":["a","b","c"],"predictions":{"refchecker":"Abstain"}},{"id":"odd-1-c2","text":"d","predictions":{"refchecker":"Unsure","judge":"neutral"}}]}
`), 0o644)
	labels := filepath.Join(dir, "odd-labels.jsonl")
	os.WriteFile(labels, []byte(`{"annotator":"jo","item":"odd-1-c1","field":"claim_validity","value":"Maybe"}
{"annotator":"jo","item":"odd-1-c2","field":"claim_validity","value":"correct"}
{"annotator":"jo","item":"odd-1-c2","field":"entailment","value":"neutral"}
{"annotator":"jo","item":"ca-q01","field":"query_validity","value":"valid"}
{"annotator":"sam","item":"ca-q01","field":"query_validity","value":"invalid"}
{"annotator":"jo","item":"ca-q01/ca-d01","field":"relevance","value":"not_relevant"}
{"annotator":"jo","item":"ca-q01/ca-d01","field":"irrelevance_reason","value":"different_issue"}
`), 0o644)
	ex := filepath.Join("..", "docs", "example")
	if _, err := importer.Import(s, []string{odd, labels, filepath.Join(ex, "answers-jo.jsonl"), filepath.Join(ex, "gen-claims-jo.jsonl")}, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	return s
}

// lsExport reads an exported Label Studio folder: per config, the rules of
// its labeling config and its tasks.
func lsExport(t *testing.T, out string) (map[string]*lsRules, map[string][]map[string]any) {
	t.Helper()
	rules, tasks := map[string]*lsRules{}, map[string][]map[string]any{}
	files, _ := filepath.Glob(filepath.Join(out, "label-studio", "*.tasks.json"))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".tasks.json")
		cfg, err := os.ReadFile(filepath.Join(out, "label-studio", name+".config.xml"))
		if err != nil {
			t.Fatal(err)
		}
		if rules[name], err = parseLSRules(string(cfg)); err != nil {
			t.Fatalf("%s.config.xml: Label Studio refuses it: %v\n%s", name, err, cfg)
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var ts []map[string]any
		if err := json.Unmarshal(b, &ts); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		tasks[name] = ts
	}
	return rules, tasks
}

// Every kind with a closed field gets tasks and a labeling config, and
// every task is one Label Studio accepts with that config.
func TestLabelStudioEveryKind(t *testing.T) {
	s := everyKindStore(t)
	out := filepath.Join(t.TempDir(), "ls")
	res := export(t, s, Options{Format: "label-studio", Out: out})
	rules, tasks := lsExport(t, out)
	for _, k := range schema.Kinds() {
		closed := slices.ContainsFunc(schema.KindFields(k), func(f schema.Field) bool { return len(f.Values) > 0 })
		var n int
		if err := storetest.DB(t, s).QueryRow(`SELECT COUNT(*) FROM items WHERE kind = ?`, string(k)).Scan(&n); err != nil {
			t.Fatal(err)
		}
		var x Kind
		for _, y := range lsKinds() {
			if y.Kind() == k {
				x = y
			}
		}
		switch {
		case closed && x == nil:
			t.Errorf("kind %s has closed fields and no Label Studio tasks", k)
		case closed && len(tasks[lsName(x)]) != n:
			t.Errorf("kind %s: %d tasks in %s.tasks.json, want %d (one per item)", k, len(tasks[lsName(x)]), lsName(x), n)
		}
	}
	for _, name := range []string{"qa", "claims", "queries", "relevance", "answers", "gen_claims"} {
		if tasks[name] == nil {
			t.Errorf("no %s.tasks.json", name)
		}
	}
	checked, results := 0, 0
	for name, ts := range tasks {
		for _, task := range ts {
			for _, e := range rules[name].checkTask(task, nil) {
				t.Errorf("%s.tasks.json, %v: %s", name, task["data"].(map[string]any)["annotate_id"], e)
			}
			checked++
			for _, list := range []string{"annotations", "predictions"} {
				for _, a := range task[list].([]any) {
					results += len(a.(map[string]any)["result"].([]any))
					if gt, ok := a.(map[string]any)["ground_truth"]; list == "annotations" && !ok {
						t.Errorf("%s: an annotation without ground_truth (Label Studio takes it as true)", name)
					} else if _, cb := a.(map[string]any)["completed_by"]; cb {
						t.Errorf("%s: completed_by %v without --email-map (Label Studio refuses an unknown e-mail)", name, gt)
					}
				}
			}
		}
	}
	if checked < 180 || results < 400 {
		t.Errorf("validated %d tasks, %d results: fewer than the data has", checked, results)
	}
	// The values outside the schema are left out, and the export says so.
	c1 := taskOf(t, tasks["claims"], "odd-1-c1")
	if p := c1["predictions"].([]any); len(p) != 0 {
		t.Errorf("odd-1-c1's predictions %v: Abstain is no choice of the config", p)
	}
	if a := c1["annotations"].([]any); len(a) != 0 {
		t.Errorf("odd-1-c1's annotations %v: Maybe is no choice of the config", a)
	}
	if p := taskOf(t, tasks["claims"], "odd-1-c2")["predictions"].([]any); len(p) != 1 || p[0].(map[string]any)["model_version"] != "judge" {
		t.Errorf("odd-1-c2's predictions %v: want judge's neutral only", p)
	}
	notes := strings.Join(res.Notes, "\n")
	for _, want := range []string{`1 of claim_validity "Maybe"`, `1 of entailment "Abstain"`, `1 of entailment "Unsure"`} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q lack %q", notes, want)
		}
	}
	// A gold answer and its citations are text areas; error categories
	// several choices; the names of the annotators are in the task's meta.
	ans := taskOf(t, tasks["answers"], "gen-q-1/answer")
	var kinds []string
	for _, r := range ans["annotations"].([]any)[0].(map[string]any)["result"].([]any) {
		m := r.(map[string]any)
		kinds = append(kinds, m["from_name"].(string)+":"+m["type"].(string))
		if m["from_name"] == schema.Citations && len(m["value"].(map[string]any)["text"].([]any)) != 2 {
			t.Errorf("citations %v: want the two documents", m["value"])
		}
	}
	if !slices.Contains(kinds, "gold_answer:textarea") || !slices.Contains(kinds, "citations:textarea") {
		t.Errorf("answer results %v", kinds)
	}
	q := taskOf(t, tasks["queries"], "ca-q01")
	meta := q["meta"].(map[string]any)["annotate_annotators"].(map[string]any)
	var who []string
	for _, a := range q["annotations"].([]any) {
		id, _ := json.Marshal(a.(map[string]any)["id"])
		who = append(who, meta[string(id)].(string))
	}
	if strings.Join(who, ",") != "jo,sam" {
		t.Errorf("ca-q01's annotations by %v (meta %v), want jo, sam", who, meta)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "label-studio", "claims.tasks.json")); strings.Contains(string(b), "annotate.local") {
		t.Error("an invented e-mail address is in the tasks")
	}
}

func taskOf(t *testing.T, tasks []map[string]any, id string) map[string]any {
	t.Helper()
	for _, tk := range tasks {
		if tk["data"].(map[string]any)["annotate_id"] == id {
			return tk
		}
	}
	t.Fatalf("no task of %s", id)
	return nil
}

// validLabels are the current labels Label Studio can carry (every value a
// choice of its field).
func validLabels(t *testing.T, s *store.Store) []string {
	var out []string
	for _, l := range currentLabels(t, s) {
		f := strings.Fields(l)
		if fd, ok := schema.Lookup(f[3]); ok && len(fd.Values) > 0 && !fd.Multi && !slices.Contains(fd.Values, strings.Join(f[4:], " ")) {
			continue
		}
		out = append(out, l)
	}
	return out
}

// Every current label of every annotator and every kind, adjudications
// included, goes to Label Studio and back: read as exported, and read as
// Label Studio exports the project again (its own annotation ids, the
// exported ones as import_id, completed_by the user who imported).
func TestRoundTripLabelStudio(t *testing.T) {
	s := everyKindStore(t)
	out := filepath.Join(t.TempDir(), "ls")
	export(t, s, Options{Format: "label-studio", Out: out})
	files, _ := filepath.Glob(filepath.Join(out, "label-studio", "*.tasks.json"))
	want := validLabels(t, s)

	back := itemsOnly(t, s)
	sum, err := importer.Import(back, files, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Files[0].Format != importer.FormatLabelStudio {
		t.Errorf("detected %s, want label-studio", sum.Files[0].Format)
	}
	sameLines(t, "current labels", want, currentLabels(t, back))
	// Again: nothing new.
	before := events(t, back)
	if _, err := importer.Import(back, files, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	if after := events(t, back); after != before {
		t.Errorf("re-import added %d rows", after-before)
	}

	// The same tasks as Label Studio exports them after importing them.
	var relabelled []string
	for _, f := range files {
		b, _ := os.ReadFile(f)
		var ts []map[string]any
		json.Unmarshal(b, &ts)
		next := 1000
		for i, tk := range ts {
			tk["id"] = i + 1
			for _, a := range tk["annotations"].([]any) {
				m := a.(map[string]any)
				m["import_id"], m["id"], m["completed_by"] = m["id"], next, 1
				next++
			}
		}
		b, _ = json.Marshal(ts)
		g := filepath.Join(t.TempDir(), "project-"+filepath.Base(f))
		os.WriteFile(g, b, 0o644)
		relabelled = append(relabelled, g)
	}
	again := itemsOnly(t, s)
	if _, err := importer.Import(again, relabelled, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	sameLines(t, "current labels after Label Studio", want, currentLabels(t, again))
}

// --email-map gives completed_by the annotators' e-mails, which Label
// Studio resolves to its members; an annotator the map lacks, or a map it
// cannot read, stops the export before anything is written.
func TestLabelStudioEmailMap(t *testing.T) {
	s := everyKindStore(t)
	dir := t.TempDir()
	emails := filepath.Join(dir, "emails.txt")
	os.WriteFile(emails, []byte("# Label Studio accounts\njo jo.tremblay@firm.example\nsam s.roy@firm.example\nlead lead@firm.example\n"), 0o644)
	out := filepath.Join(dir, "ls")
	res := export(t, s, Options{Format: "label-studio", Out: out, EmailMap: emails})
	// gold (the qrels) is no person with an account.
	if n := strings.Join(res.Notes, "\n"); !strings.Contains(n, "has no e-mail for gold: their annotations have no completed_by") {
		t.Errorf("notes %q: want gold named", n)
	}
	members := map[string]bool{"jo.tremblay@firm.example": true, "s.roy@firm.example": true, "lead@firm.example": true}
	rules, tasks := lsExport(t, out)
	by := map[string]bool{}
	for name, ts := range tasks {
		for _, task := range ts {
			for _, e := range rules[name].checkTask(task, members) {
				t.Errorf("%s: %s", name, e)
			}
			for _, a := range task["annotations"].([]any) {
				if cb, ok := a.(map[string]any)["completed_by"].(map[string]any); ok {
					by[cb["email"].(string)] = true
				}
			}
		}
	}
	if len(by) != 3 {
		t.Errorf("completed_by e-mails %v, want the map's three", by)
	}
	// Read back with the same map; a made-up task by s.roy in Label Studio
	// (no annotate name in its meta) is sam's.
	back := itemsOnly(t, s)
	made := filepath.Join(dir, "made.json")
	os.WriteFile(made, []byte(`[{"id":9,"data":{"annotate_id":"gdpr-003"},"annotations":[{"id":70,"completed_by":{"id":2,"email":"S.Roy@firm.example"},"result":[{"from_name":"persona","to_name":"question","type":"choices","value":{"choices":["legal_expert"]}}]}]}]`), 0o644)
	files, _ := filepath.Glob(filepath.Join(out, "label-studio", "*.tasks.json"))
	if _, err := importer.Import(back, append(files, made), importer.Options{EmailMap: emails}); err != nil {
		t.Fatal(err)
	}
	if got := lines(t, back, `SELECT a.name||' '||l.value FROM current_labels l JOIN annotators a ON a.id=l.annotator_id JOIN items i ON i.id=l.item_id WHERE i.ext_id='gdpr-003' AND l.field='persona' AND a.name='sam'`); len(got) != 1 || got[0] != "sam legal_expert" {
		t.Errorf("sam's persona of gdpr-003 %v, want legal_expert (by the map's e-mail)", got)
	}

	for body, want := range map[string]string{
		"jo jo@firm.example\nsam\n":                     "bad.txt:2: want an annotator's name, then the e-mail",
		"jo jo@firm.example\nsam jo@firm.example\n":     "bad.txt:2: jo@firm.example is given twice",
		"jo jo@firm.example\nsam <script>@x\n":          `bad.txt:2: "<script>@x" is not an e-mail address`,
		"jo jo@firm.example\nsam\x1b]0;pwned\x07 s@x\n": "bad.txt:2: character 4 (U+001B) is a control character",
	} {
		bad := filepath.Join(dir, "bad.txt")
		os.WriteFile(bad, []byte(body), 0o644)
		dest := filepath.Join(dir, "refused")
		_, err := Export(t.Context(), s, Options{Format: "label-studio", Out: dest, EmailMap: bad})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", body, err, want)
		}
		if _, err := os.Stat(dest); !os.IsNotExist(err) {
			t.Errorf("%q: the refused export left %s", body, dest)
		}
	}
	if _, err := Export(t.Context(), s, Options{Format: "csv", Out: filepath.Join(dir, "csv"), EmailMap: emails, Annotator: "jo"}); err == nil || !strings.Contains(err.Error(), "--email-map applies to --format label-studio") {
		t.Errorf("csv with --email-map: %v", err)
	}
}

// A database of CanLegalRAGBench's kinds alone has tasks: its queries,
// relevance judgments and answer tasks.
func TestLabelStudioCanLegalRAGBenchOnly(t *testing.T) {
	s := canLegalStore(t)
	out := filepath.Join(t.TempDir(), "ls")
	res := export(t, s, Options{Format: "label-studio", Out: out})
	rules, tasks := lsExport(t, out)
	if res.Items["queries"] != 2 || res.Items["relevance"] == 0 || res.Items["answers"] != 2 || res.QA+res.Claims != 0 {
		t.Errorf("exported %+v", res)
	}
	for name, ts := range tasks {
		for _, task := range ts {
			for _, e := range rules[name].checkTask(task, nil) {
				t.Errorf("%s: %s", name, e)
			}
		}
	}
	r := taskOf(t, tasks["relevance"], "q1/2020 BCSC 45")
	if d := r["data"].(map[string]any); !strings.Contains(d["document"].(string), "Brown v. Green") || d["query"] != "Can my landlord enter my apartment without notice?" {
		t.Errorf("relevance task data %v", d)
	}
}

// A tasks file made in Label Studio, whose tasks name no annotate item,
// creates the items from their data, with their labels.
func TestImportLabelStudioMadeTasks(t *testing.T) {
	s := openStore(t)
	file := filepath.Join(t.TempDir(), "project-1-at-2026.json")
	os.WriteFile(file, []byte(`[
 {"id":1,"data":{"source":"GDPR","question":"Who is a controller?","answer":"Whoever decides why and how data is processed.","context":"Article 4(7): 'controller' means …"},
  "annotations":[{"id":11,"completed_by":{"id":1,"email":"ana@firm.example"},"result":[
    {"from_name":"question_validity","to_name":"question","type":"choices","value":{"choices":["Valid"]}},
    {"from_name":"persona","to_name":"question","type":"choices","value":{"choices":["Citizen"]}}]}]},
 {"id":2,"data":{"id":"gdpr-x2","source":"GDPR","question":"Q2?","answer":"A2.","contexts":[{"id":"art-5","text":"Article 5 …"},{"id":"art-6","text":"Article 6 …"}]},
  "annotations":[]},
 {"id":3,"data":{"kind":"query","id":"lq-1","text":"Can my landlord enter?","jurisdiction":"ON"},
  "annotations":[{"completed_by":{"email":"ana@firm.example"},"result":[{"from_name":"query_validity","to_name":"text","type":"choices","value":{"choices":["valid"]}}]}]}
]`), 0o644)
	if _, err := importer.Import(s, []string{file}, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	got := lines(t, s, `SELECT i.kind||' '||i.ext_id FROM items i WHERE i.kind IN ('qa','query')`)
	if strings.Join(got, "; ") != "qa gdpr-x2; qa label-studio-task-1; query lq-1" {
		t.Errorf("items %v", got)
	}
	labels := lines(t, s, `SELECT a.name||' '||i.ext_id||' '||l.field||' '||l.value FROM current_labels l JOIN annotators a ON a.id=l.annotator_id JOIN items i ON i.id=l.item_id`)
	if strings.Join(labels, "; ") != "ana label-studio-task-1 persona citizen; ana label-studio-task-1 question_validity valid; ana lq-1 query_validity valid" {
		t.Errorf("labels %v", labels)
	}
	ctx := lines(t, s, `SELECT cu.ext_id||'='||cu.text FROM qa_contexts x JOIN context_units cu ON cu.id=x.context_id JOIN items i ON i.id=x.qa_item_id WHERE i.ext_id='label-studio-task-1'`)
	if len(ctx) != 1 || ctx[0] != "label-studio-task-1-context=Article 4(7): 'controller' means …" {
		t.Errorf("contexts %v", ctx)
	}
}
