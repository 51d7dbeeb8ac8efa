package exporter

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
	"github.com/parquet-go/parquet-go"
)

// readParquet reads a data file back as JSON-like rows, class_label codes
// replaced by their names from the file's "huggingface" metadata.
func readParquet(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	meta, _ := pf.Lookup("huggingface")
	var hf struct {
		Info struct {
			Features map[string]json.RawMessage `json:"features"`
		} `json:"info"`
	}
	if err := json.Unmarshal([]byte(meta), &hf); err != nil {
		t.Fatalf("%s: huggingface metadata: %v", path, err)
	}
	classes := map[string][]string{}
	for k, v := range hf.Info.Features {
		var c struct {
			Names []string `json:"names"`
			Type  string   `json:"_type"`
		}
		if json.Unmarshal(v, &c) == nil && c.Type == "ClassLabel" {
			classes[k] = c.Names
		}
	}
	r := parquet.NewReader(pf)
	defer r.Close()
	var out []map[string]any
	for {
		m := map[string]any{}
		if err := r.Read(&m); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		// Through JSON, so numbers and lists compare as readJSONL's do.
		b, _ := json.Marshal(m)
		m = map[string]any{}
		json.Unmarshal(b, &m)
		for k, names := range classes {
			if code, ok := m[k].(float64); ok {
				m[k] = names[int(code)]
			}
		}
		out = append(out, m)
	}
	return out
}

// parquetMatchesJSONL exports s both ways and checks every config's Parquet
// rows equal its JSON Lines rows (the JSON writer is checked value by value
// by the other tests), returning the configs seen.
func parquetMatchesJSONL(t *testing.T, s *store.Store, o Options) []string {
	t.Helper()
	o.Format = "hf"
	pq, js := o, o
	pq.Out, pq.DataFormat = filepath.Join(t.TempDir(), "pq"), DataParquet
	js.Out, js.DataFormat = filepath.Join(t.TempDir(), "js"), DataJSONL
	export(t, s, pq)
	export(t, s, js)
	files, _ := filepath.Glob(filepath.Join(js.Out, "data", "*", "test.jsonl"))
	var configs []string
	for _, f := range files {
		config := filepath.Base(filepath.Dir(f))
		configs = append(configs, config)
		want := readJSONL(t, f)
		got := readParquet(t, filepath.Join(pq.Out, "data", config, "test.parquet"))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("config %s: Parquet rows differ from JSON Lines\nparquet: %v\njsonl:   %v", config, got, want)
		}
	}
	sort.Strings(configs)
	// The card points at the Parquet files and declares what the JSON
	// Lines card declares.
	_, card := readCard(t, pq.Out)
	_, jcard := readCard(t, js.Out)
	if feat := func(c string) string { return c[strings.Index(c, "dataset_info:"):strings.Index(c, "\n---\n")] }; feat(card) != feat(jcard) {
		t.Errorf("features differ:\nparquet %s\njsonl %s", feat(card), feat(jcard))
	}
	for _, c := range configs {
		if !strings.Contains(card, `path: "data/`+c+`/test.parquet"`) {
			t.Errorf("card does not point at data/%s/test.parquet", c)
		}
	}
	return configs
}

func TestParquetRowsEqualJSONL(t *testing.T) {
	if got := parquetMatchesJSONL(t, demoStore(t), Options{Annotator: "jo", WithNotes: true}); !reflect.DeepEqual(got, []string{"claims", "qa"}) {
		t.Errorf("demo configs %v", got)
	}
	if got := parquetMatchesJSONL(t, relevanceFixture(t), Options{Annotator: "jo"}); len(got) < 4 {
		t.Errorf("relevance configs %v", got)
	}
	// A label value outside the schema: the Parquet file is written again
	// with that column a plain string, and both cards say string.
	odd := openStore(t)
	data := `{"id":"q1","source":"GDPR","question":"Q?","answer":"A.","contexts":[{"id":"p1","text":"P"}],"claims":[{"text":"C."}],"labels":{"jo":{"question_validity":"valid","persona":"Odd one"}}}` + "\n"
	if _, err := importer.ImportReader(odd, "x.jsonl", []byte(data), importer.Options{}); err != nil {
		t.Fatal(err)
	}
	parquetMatchesJSONL(t, odd, Options{Annotator: "jo"})
	s := openStore(t)
	p := filepath.Join(t.TempDir(), "canlegal.jsonl")
	os.WriteFile(p, []byte(canlegal+canlegalGen), 0o644)
	if _, err := importer.Import(s, []string{p}, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	ref, _ := storetest.Read(t, s).Resolve("q-1/answer")
	if err := s.SubmitAnswer("jo", ref.ItemID, "Yes.", []string{"doc-1"}, 0, 0); err != nil {
		t.Fatal(err)
	}
	if got := parquetMatchesJSONL(t, s, Options{Annotator: "jo"}); len(got) < 3 {
		t.Errorf("answer configs %v", got)
	}
}

// A column name has one feature in every config it appears in, so a reader
// joining configs (relevance and qrels, queries and answers) never meets
// two types under one name; label columns with closed values are
// class_labels with the schema's values in order.
func TestFeaturesOneTypePerColumn(t *testing.T) {
	systems := []string{"refchecker"}
	var configs []*hfConfig
	for _, x := range kinds {
		configs = append(configs, &hfConfig{name: x.Config(), layout: layoutOf(x, true)})
	}
	seen := map[string]string{}
	where := map[string]string{}
	for _, c := range configs {
		fs := c.features(systems)
		for i, col := range c.layout.cols {
			var b strings.Builder
			fs[i].yaml(&b, "")
			if prev, ok := seen[col.Key]; ok && prev != b.String() {
				t.Errorf("column %s: %s in %s, %s in %s", col.Key, prev, where[col.Key], b.String(), c.name)
			}
			seen[col.Key], where[col.Key] = b.String(), c.name
		}
	}
	// Hand-written from the label schema (schema/kind_relevance.go, schema/kind_qa.go).
	for key, want := range map[string]string{
		"relevance":       "dtype:\n  class_label:\n    names:\n      '0': \"relevant\"\n      '1': \"not_relevant\"\n",
		"relevance_grade": "dtype: int64\n",
		"persona":         "dtype:\n  class_label:\n    names:\n      '0': \"citizen\"\n      '1': \"civil_officer\"\n      '2': \"legal_expert\"\n",
		"review":          "dtype:\n  class_label:\n    names:\n      '0': \"accept\"\n      '1': \"reject\"\n",
		"error_category":  "list: string\n",
		"question":        "dtype: string\n",
	} {
		if seen[key] != want {
			t.Errorf("column %s:\n%s\nwant\n%s", key, seen[key], want)
		}
	}
}
