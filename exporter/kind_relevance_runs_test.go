package exporter

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/store"
)

// runLists reads the run storage of a database, list by list.
func runLists(t *testing.T, s *store.Store) []store.RunExport {
	t.Helper()
	var out []store.RunExport
	if err := s.Read(func(rx *store.ReadTx) error {
		return rx.EachRunExport(func(l store.RunExport) error { out = append(out, l); return nil })
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// The runs config holds every retrieved line of every (run, query): a chunk
// with its document, a document met again with no score (its best score is
// on its first row), a query retrieved nothing for as rank 0; the Parquet
// and JSON Lines folders import back into the same run storage.
func TestRunsConfigPublishesAndImportsBack(t *testing.T) {
	s := openStore(t)
	p := filepath.Join(t.TempDir(), "canlegal.jsonl")
	os.WriteFile(p, []byte(canlegal+`{"kind":"document","id":"doc-2","title":"Roe v. Doe","text":"Another decision."}`+"\n"), 0o644)
	if _, err := importer.Import(s, []string{p}, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	trec := "q-1 Q0 doc-1#0 1 2.5 tr\nq-1 Q0 doc-2 2 1.5 tr\nq-1 Q0 doc-1 3 1.0 tr\nq-2 Q0 doc-2 1 0.5 tr\n"
	if _, err := importer.ImportReader(s, "tr.run", []byte(trec), importer.Options{Format: importer.FormatTRECRun}); err != nil {
		t.Fatal(err)
	}
	clrb := `{"query_id": "q-1", "retrieved_ids": []}` + "\n" + `{"query_id": "q-2", "retrieved_ids": ["doc-2", "doc-1"]}` + "\n"
	if _, err := importer.ImportReader(s, "query_results.jsonl", []byte(clrb), importer.Options{Format: importer.FormatCLRBRun, Run: "clrb"}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "hf")
	res := export(t, s, Options{Out: dir, DataFormat: DataJSONL})
	if res.Items["runs"] != 7 {
		t.Errorf("runs rows %v", res.Items)
	}
	b, err := os.ReadFile(filepath.Join(dir, "data", "runs", "test.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// Written out by hand from the two run files above: runs by name,
	// queries in import order, lines in rank order.
	want := `{"run":"clrb","query_id":"q-1","rank":0,"document_id":null,"chunk_id":null,"score":null}
{"run":"clrb","query_id":"q-2","rank":1,"document_id":"doc-2","chunk_id":null,"score":null}
{"run":"clrb","query_id":"q-2","rank":2,"document_id":"doc-1","chunk_id":null,"score":null}
{"run":"tr","query_id":"q-1","rank":1,"document_id":"doc-1","chunk_id":"doc-1#0","score":2.5}
{"run":"tr","query_id":"q-1","rank":2,"document_id":"doc-2","chunk_id":null,"score":1.5}
{"run":"tr","query_id":"q-1","rank":3,"document_id":"doc-1","chunk_id":null,"score":null}
{"run":"tr","query_id":"q-2","rank":1,"document_id":"doc-2","chunk_id":null,"score":0.5}
`
	if string(b) != want {
		t.Errorf("runs config:\n%s\nwant\n%s", b, want)
	}
	card, _ := os.ReadFile(filepath.Join(dir, "README.md"))
	for _, w := range []string{"config_name: runs", "| `runs` | `test` | `data/runs/test.jsonl` | 7 | retrieved line of a run (run, query, rank) |",
		"  - name: \"score\"\n    dtype: float64\n"} {
		if !strings.Contains(string(card), w) {
			t.Errorf("card lacks %q", w)
		}
	}
	before := runLists(t, s)
	// tr's q-1: doc-1 ranked first with its best score 2.5, doc-2 second;
	// the chunk-level list doc-1 (chunk doc-1#0), doc-2, doc-1.
	if js, _ := json.Marshal(before[2]); string(js) != `{"Run":"tr","Query":"q-1","Docs":["doc-1","doc-2"],"Scores":[2.5,1.5],"ChunkLevel":true,"ChunkDocs":["doc-1","doc-2","doc-1"],"ChunkIDs":["doc-1#0","",""]}` {
		t.Errorf("stored list %s", js)
	}
	for _, format := range []string{DataJSONL, DataParquet} {
		d := filepath.Join(t.TempDir(), format)
		export(t, s, Options{Out: d, DataFormat: format})
		back := openStore(t)
		if _, err := importer.Import(back, []string{d}, importer.Options{}); err != nil {
			t.Fatal(err)
		}
		if got := runLists(t, back); !reflect.DeepEqual(got, before) {
			t.Errorf("%s: run lists after re-import\n got %+v\nwant %+v", format, got, before)
		}
		// The same folder again: the runs are unchanged.
		if sum, err := importer.Import(back, []string{d}, importer.Options{}); err != nil || !sum.NoOp() {
			t.Errorf("%s: re-import into the same database: %v %v", format, sum, err)
		}
	}
}
