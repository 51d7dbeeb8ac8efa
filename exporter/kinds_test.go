package exporter

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/schema"
)

const canlegal = `{"kind":"document","id":"doc-1","title":"Smith v. Jones","citation":"2019 ONCA 1","court":"ONCA","jurisdiction":"ON","year":2019,"text":"The landlord must give notice. The tenant may dispute.","url":"https://example.org/2019onca1","license":"CC BY 4.0","chunks":[{"id":"doc-1#0","start":0,"end":30}]}
{"kind":"query","id":"q-1","text":"Can my landlord evict me without notice?","persona":"lay","jurisdiction":"ON","issue":"tenancy","seed_doc":"doc-1","seed_group":"g1","labels":{"jo":{"query_validity":"valid"}}}
{"kind":"query","id":"q-2","text":"What notice period applies?","persona":"professional","jurisdiction":"BC","seed_group":"g1","note":"kept"}
`

// Queries and documents are published through the kind registry: a config
// and a CSV file each, and native lines that import back unchanged.
func TestQueriesAndDocumentsPublish(t *testing.T) {
	s := openStore(t)
	p := filepath.Join(t.TempDir(), "canlegal.jsonl")
	os.WriteFile(p, []byte(canlegal), 0o644)
	if _, err := importer.Import(s, []string{p}, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	hf := filepath.Join(t.TempDir(), "hf")
	res := export(t, s, Options{Format: "hf", Out: hf, Annotator: "jo"})
	if res.Items["queries"] != 2 || res.Items["documents"] != 1 {
		t.Errorf("rows %v", res.Items)
	}
	rows := readJSONL(t, filepath.Join(hf, "data", "queries", "test.jsonl"))
	if len(rows) != 2 || rows[0]["query_validity"] != "valid" || rows[1]["query_validity"] != nil || rows[0]["annotator"] != "jo" || rows[1]["jurisdiction"] != "BC" {
		t.Errorf("query rows %v", rows)
	}
	docs := readJSONL(t, filepath.Join(hf, "data", "documents", "test.jsonl"))
	if len(docs) != 1 || docs[0]["year"] != 2019.0 || docs[0]["annotator"] != nil || docs[0]["url"] != "https://example.org/2019onca1" || docs[0]["license"] != "CC BY 4.0" {
		t.Errorf("document rows %v", docs)
	}
	card, _ := os.ReadFile(filepath.Join(hf, "README.md"))
	for _, want := range []string{"config_name: queries\n  default: true", "config_name: documents", `name: "query_validity"`} {
		if !strings.Contains(string(card), want) {
			t.Errorf("card lacks %q", want)
		}
	}
	csvDir := filepath.Join(t.TempDir(), "csv")
	export(t, s, Options{Format: "csv", Out: csvDir, Annotator: "jo"})
	q, _ := os.ReadFile(filepath.Join(csvDir, "queries.csv"))
	if !strings.HasPrefix(string(q), "id,source,text,query_persona,jurisdiction,issue,seed_doc,seed_group,annotator,query_validity\r\n") ||
		!strings.Contains(string(q), "q-1,,Can my landlord evict me without notice?,lay,ON,tenancy,doc-1,g1,jo,valid\r\n") {
		t.Errorf("queries.csv:\n%s", q)
	}
	native := filepath.Join(t.TempDir(), "native")
	export(t, s, Options{Format: "jsonl", LabelsOnly: true, Out: native})
	sum, err := importer.Import(s, []string{native}, importer.Options{})
	if err != nil || !sum.NoOp() {
		t.Errorf("re-import into the same database: %v %v", sum, err)
	}
	fresh := openStore(t)
	sum, err = importer.Import(fresh, []string{native}, importer.Options{})
	if err != nil || !strings.Contains(sum.String(), "1 document added; 2 queries added") {
		t.Errorf("import into a fresh database: %v %v", sum, err)
	}
	if sum, err := importer.Import(fresh, []string{p}, importer.Options{}); err != nil || sum.Total().LabelsAdded != 0 {
		t.Errorf("the original file into the copy: %v %v", sum, err)
	}
}

// Register refuses a config that makes no rows (no Values, no stream, no
// rows of its own) and a config registered twice, naming it, and changes
// nothing.
func TestRegisterRefusesAConfigWithoutRowsOrTwice(t *testing.T) {
	before := len(kinds)
	for _, c := range []struct {
		k    Kind
		want string
	}{
		{rowless{}, "config rowless makes no rows"},
		{queryKind{}, "config queries registered twice"},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), c.want) {
					t.Errorf("Register(%s): %v, want a panic saying %q", c.k.Config(), r, c.want)
				}
			}()
			Register(c.k)
		}()
	}
	if len(kinds) != before {
		t.Errorf("%d configs after the refusals, want %d", len(kinds), before)
	}
}

// rowless is a config with columns and no way to make its rows.
type rowless struct{}

func (rowless) Kind() schema.Kind { return schema.KindQuery }
func (rowless) Config() string    { return "rowless" }
func (rowless) Columns() []Column { return nil }
