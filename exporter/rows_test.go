package exporter

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/demo"
	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/schema"
)

// The documented row schema (README "Fields"): key -> JSON type, and which
// keys may be null. Every other key is never null and never missing.
var wantSchema = map[string][]struct {
	key, typ string
	nullable bool
}{
	"qa": {
		{"id", "string", false}, {"source", "string", false}, {"language", "string", false}, {"jurisdiction", "string", false},
		{"hop", "string", false}, {"question", "string", false}, {"answer", "string", false}, {"rationale", "string", false},
		{"generated_category", "string", false}, {"contexts", "array", false}, {"claim_ids", "array", false},
		{"as_given", "bool", false}, {"extra", "string", true}, {"ragchecker", "string", true}, {"annotator", "string", false}, {"question_validity", "string", true}, {"invalid_reason", "string", true},
		{"category", "string", true}, {"persona", "string", true}, {"answer_correctness", "string", true},
		{"missed_claims_checked", "string", true}, {"notes", "string", true},
	},
	"claims": {
		{"id", "string", false}, {"qa_id", "string", false}, {"source", "string", false}, {"language", "string", false},
		{"position", "number", false}, {"triplet", "array", true}, {"text", "string", true}, {"origin", "string", false},
		{"added_by", "string", true}, {"extractor", "string", true}, {"question", "string", false}, {"answer", "string", false}, {"contexts", "array", false},
		{"predictions", "object", true}, {"annotator", "string", false}, {"claim_validity", "string", true},
		{"entailment", "string", true}, {"notes", "string", true},
	},
}

func jsonType(raw json.RawMessage) string {
	switch b := bytes.TrimSpace(raw); b[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 'n':
		return "null"
	case 't', 'f':
		return "bool"
	}
	return "number"
}

// orderedKeys returns the keys of a JSON object in file order.
func orderedKeys(line []byte) ([]string, map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		return nil, nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.Token()
	var keys []string
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		dec.Decode(&skip)
	}
	return keys, m, nil
}

// checkRows reads every row of a data file and checks it against the schema:
// same keys in the same order on every row, each of its documented type, null
// only where documented, nested objects with a fixed key set.
func checkRows(t *testing.T, path, config string, notes bool) []map[string]json.RawMessage {
	t.Helper()
	var want []string
	for _, c := range wantSchema[config] {
		if c.key != "notes" || notes {
			want = append(want, c.key)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	var rows []map[string]json.RawMessage
	nested := map[string][]string{} // key set of nested objects, per key
	for n := 1; sc.Scan(); n++ {
		keys, m, err := orderedKeys(sc.Bytes())
		if err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		if !slices.Equal(keys, want) {
			t.Fatalf("%s:%d: keys\n  %v\nwant\n  %v", path, n, keys, want)
		}
		for _, c := range wantSchema[config] {
			raw, ok := m[c.key]
			if !ok {
				continue
			}
			got := jsonType(raw)
			if got == "null" && c.nullable {
				continue
			}
			if got != c.typ {
				t.Errorf("%s:%d: %s is %s, want %s (nullable %v)", path, n, c.key, got, c.typ, c.nullable)
			}
			switch c.key {
			case "predictions":
				var p map[string]*string
				json.Unmarshal(raw, &p)
				checkKeySet(t, nested, fmt.Sprintf("%s:%d: predictions", path, n), "predictions", p)
			case "contexts":
				var cs []map[string]any
				json.Unmarshal(raw, &cs)
				if len(cs) == 0 {
					t.Errorf("%s:%d: no contexts", path, n)
				}
				for _, x := range cs {
					checkKeySet(t, nested, fmt.Sprintf("%s:%d: contexts", path, n), "contexts", x)
					if _, ok := x["text"].(string); !ok {
						t.Errorf("%s:%d: context text %v", path, n, x["text"])
					}
				}
			case "triplet":
				var tr []string
				if json.Unmarshal(raw, &tr) != nil || len(tr) != 3 {
					t.Errorf("%s:%d: triplet %s", path, n, raw)
				}
			}
		}
		rows = append(rows, m)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no rows", path)
	}
	return rows
}

func checkKeySet[V any](t *testing.T, seen map[string][]string, where, key string, m map[string]V) {
	t.Helper()
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	if prev, ok := seen[key]; ok && !slices.Equal(prev, ks) {
		t.Errorf("%s: keys %v, earlier rows %v", where, ks, prev)
	}
	seen[key] = ks
}

func str(raw json.RawMessage) string {
	var s string
	json.Unmarshal(raw, &s)
	return s
}

func byID(rows []map[string]json.RawMessage) map[string]map[string]json.RawMessage {
	out := map[string]map[string]json.RawMessage{}
	for _, r := range rows {
		out[str(r["id"])] = r
	}
	return out
}

// readCard parses the YAML header of a card.
func readCard(t *testing.T, dir string) (map[string]any, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	y, err := frontMatter(string(b))
	if err != nil {
		t.Fatal(err)
	}
	v, err := parseYAML(y)
	if err != nil {
		t.Fatalf("YAML header: %v\n%s", err, y)
	}
	return v.(map[string]any), string(b)
}

func TestRowsAndHeader(t *testing.T) {
	s := demoStore(t)
	for _, notes := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "ds")
		export(t, s, Options{Out: out, Annotator: "jo", WithNotes: notes, License: "cc-by-sa-4.0", Name: `Legal "RAG": test`})
		h, _ := readCard(t, out)
		if h["license"] != "cc-by-sa-4.0" || h["pretty_name"] != `Legal "RAG": test` {
			t.Errorf("license %v, pretty_name %v", h["license"], h["pretty_name"])
		}
		if fmt.Sprint(h["language"]) != "[en fr]" || fmt.Sprint(h["size_categories"]) != "[n<1K]" ||
			fmt.Sprint(h["task_categories"]) != "[question-answering text-classification]" {
			t.Errorf("language %v, size %v, tasks %v", h["language"], h["size_categories"], h["task_categories"])
		}
		features := map[string][]string{}
		for _, d := range h["dataset_info"].([]any) {
			d := d.(map[string]any)
			for _, f := range d["features"].([]any) {
				features[d["config_name"].(string)] = append(features[d["config_name"].(string)], f.(map[string]any)["name"].(string))
			}
		}
		var configs []string
		rows := map[string][]map[string]json.RawMessage{}
		for _, c := range h["configs"].([]any) {
			c := c.(map[string]any)
			name := c["config_name"].(string)
			configs = append(configs, name)
			df := c["data_files"].([]any)
			if len(df) != 1 || df[0].(map[string]any)["split"] != "test" {
				t.Fatalf("%s: data_files %v", name, df)
			}
			path := df[0].(map[string]any)["path"].(string)
			if path != "data/"+name+"/test.jsonl" {
				t.Errorf("%s: path %s", name, path)
			}
			rows[name] = checkRows(t, filepath.Join(out, filepath.FromSlash(path)), name, notes)
			keys, _, _ := orderedKeys(mustLine(t, filepath.Join(out, path)))
			if !slices.Equal(features[name], keys) {
				t.Errorf("%s: features %v, row keys %v", name, features[name], keys)
			}
		}
		if !slices.Equal(configs, []string{"qa", "claims"}) {
			t.Fatalf("configs %v", configs)
		}

		// The asked-when rule and the contents of a few rows.
		qa, cl := byID(rows["qa"]), byID(rows["claims"])
		g4 := qa["gdpr-004"]
		if str(g4["question_validity"]) != "invalid" || string(g4["persona"]) != "null" || string(g4["category"]) != "null" {
			t.Errorf("invalid question: validity %s persona %s category %s", g4["question_validity"], g4["persona"], g4["category"])
		}
		if str(qa["gdpr-003"]["category"]) != "false_premise" || str(qa["gdpr-003"]["generated_category"]) == "false_premise" {
			t.Errorf("corrected category: %s / generated %s", qa["gdpr-003"]["category"], qa["gdpr-003"]["generated_category"])
		}
		incorrect := 0
		for _, r := range cl {
			if str(r["claim_validity"]) == "incorrect" {
				incorrect++
				if string(r["entailment"]) != "null" {
					t.Errorf("%s: incorrect claim with entailment %s", r["id"], r["entailment"])
				}
			}
		}
		if incorrect == 0 {
			t.Error("no incorrect claim in the export")
		}
		added := cl["gdpr-005-jo-a4"]
		if added == nil || str(added["origin"]) != "annotator" || str(added["added_by"]) != "jo" || string(added["predictions"]) != `{"refchecker":null}` {
			t.Errorf("added claim: %v", added)
		}
		if str(qa["gdpr-005"]["missed_claims_checked"]) != "added" || !strings.Contains(string(qa["gdpr-005"]["claim_ids"]), "gdpr-005-jo-a4") {
			t.Errorf("gdpr-005: %s %s", qa["gdpr-005"]["missed_claims_checked"], qa["gdpr-005"]["claim_ids"])
		}
		if str(cl["gdpr-001-c1"]["entailment"]) != "entailment" || string(cl["gdpr-001-c1"]["predictions"]) != `{"refchecker":"entailment"}` {
			t.Errorf("gdpr-001-c1: %s %s", cl["gdpr-001-c1"]["entailment"], cl["gdpr-001-c1"]["predictions"])
		}
		if notes && str(qa["gdpr-002"]["notes"]) != "ambiguous: \"citizen\" or officer?\nsecond line" {
			t.Errorf("note %s", qa["gdpr-002"]["notes"])
		}
	}
}

func mustLine(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	return line
}

// Without predictions the predictions key is null on every row and declared
// as a string; a text claim has a null triplet.
func TestRowsWithoutPredictions(t *testing.T) {
	s := openStore(t)
	data := `{"id":"q1","source":"GDPR","question":"Q?","answer":"A.","contexts":[{"id":"p1","text":"P"}],"claims":[{"text":"A sub-sentence claim."},{"triplet":["s","p","o"]}],"labels":{"jo":{"question_validity":"valid","persona":"Odd \"one\" \\ é\n"}}}` + "\n"
	if _, err := importer.ImportReader(s, "x.jsonl", []byte(data), importer.Options{}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "ds")
	export(t, s, Options{Out: out})
	_, card := readCard(t, out)
	// Declared a string (always null): one type in Parquet and JSON alike.
	if !strings.Contains(card, "  - name: \"predictions\"\n    dtype: string\n") {
		t.Error("predictions not declared string")
	}
	// The persona outside the schema makes that column a plain string;
	// the in-schema question_validity stays a class_label.
	if !strings.Contains(card, "  - name: \"persona\"\n    dtype: string\n") ||
		!strings.Contains(card, "  - name: \"question_validity\"\n    dtype:\n      class_label:\n        names:\n          '0': \"valid\"\n          '1': \"invalid\"\n") {
		t.Errorf("label features:\n%s", card)
	}
	// A value outside the schema is kept verbatim, escapes and all.
	if qa := byID(checkRows(t, filepath.Join(out, "data/qa/test.jsonl"), "qa", false)); str(qa["q1"]["persona"]) != "Odd \"one\" \\ é" { // the trailing newline was trimmed on import
		t.Errorf("persona %s", qa["q1"]["persona"])
	}
	cl := byID(checkRows(t, filepath.Join(out, "data/claims/test.jsonl"), "claims", false))
	if c := cl["q1-c1"]; string(c["triplet"]) != "null" || str(c["text"]) != "A sub-sentence claim." || string(c["predictions"]) != "null" {
		t.Errorf("text claim: %v", c)
	}
	if c := cl["q1-c2"]; string(c["text"]) != "null" || string(c["triplet"]) != `["s","p","o"]` {
		t.Errorf("triplet claim: %v", c)
	}
	back := importInto(t, out)
	sameLines(t, "items", items(t, s), items(t, back))
}

func TestCSV(t *testing.T) {
	s := demoStore(t)
	out := filepath.Join(t.TempDir(), "csv")
	res := export(t, s, Options{Format: "csv", Out: out, Annotator: "jo", WithNotes: true})
	if !slices.Equal(res.Files, []string{"qa.csv", "claims.csv"}) {
		t.Fatalf("files %v", res.Files)
	}
	read := func(name string) []map[string]string {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte("\r\n")) || bytes.HasPrefix(b, []byte("\xef\xbb\xbf")) {
			t.Errorf("%s: want CRLF line ends and no BOM", name)
		}
		recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		var out []map[string]string
		for _, r := range recs[1:] {
			m := map[string]string{}
			for i, h := range recs[0] {
				m[h] = r[i]
			}
			out = append(out, m)
		}
		return out
	}
	qa, claims := read("qa.csv"), read("claims.csv")
	if len(qa) != 31 || len(claims) != 106 {
		t.Fatalf("%d qa rows, %d claim rows", len(qa), len(claims))
	}
	for _, r := range qa {
		if r["id"] == "gdpr-002" && (r["notes"] != "ambiguous: \"citizen\" or officer?\nsecond line" || !strings.HasPrefix(r["claim_ids"], "gdpr-002-c1\ngdpr-002-c2")) {
			t.Errorf("gdpr-002: %q %q", r["notes"], r["claim_ids"])
		}
		if r["id"] == "gdpr-007" && (strings.Count(r["context_ids"], "\n") != 1 || !strings.Contains(r["contexts"], "\n\n")) {
			t.Errorf("multi-hop contexts: %q", r["context_ids"])
		}
	}
	for _, r := range claims {
		if r["id"] == "gdpr-001-c1" && (r["subject"] != "The controller" || r["prediction_refchecker"] != "entailment" || r["entailment"] != "entailment") {
			t.Errorf("gdpr-001-c1: %v", r)
		}
	}
}

// The published rows follow the protocol: the claims of an answer the
// annotator judged incorrect ask nothing, so their older labels are null.
func TestClaimsOfIncorrectAnswersPublishNoLabels(t *testing.T) {
	s := openStore(t)
	if _, err := importer.ImportReader(s, demo.FileName, demo.JSONL(), importer.Options{}); err != nil {
		t.Fatal(err)
	}
	l := &labeler{t: t, s: s, session: map[string]int64{}}
	l.set("jo", "gdpr-001-c1", schema.ClaimValidity, "correct", schema.Entailment, "neutral")
	l.set("jo", "gdpr-002-c1", schema.ClaimValidity, "correct", schema.Entailment, "entailment")
	l.set("jo", "gdpr-001", schema.QuestionValidity, "valid", schema.AnswerCorrectness, "incorrect")
	dir := filepath.Join(t.TempDir(), "out")
	export(t, s, Options{Format: "hf", Out: dir, Annotator: "jo"})
	rows := readJSONL(t, filepath.Join(dir, "data", "claims", "test.jsonl"))
	byID := map[string]map[string]any{}
	for _, r := range rows {
		byID[r["id"].(string)] = r
	}
	if r := byID["gdpr-001-c1"]; r == nil || r[schema.ClaimValidity] != nil || r[schema.Entailment] != nil {
		t.Errorf("a claim of an answer jo judged incorrect: %v", r)
	}
	if r := byID["gdpr-002-c1"]; r == nil || r[schema.ClaimValidity] != "correct" || r[schema.Entailment] != "entailment" {
		t.Errorf("a claim of a pair jo has not judged: %v", r)
	}
}

// readJSONL decodes a JSON Lines file into one map per row.
func readJSONL(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}
