package exporter

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// testdata/ir: report/testdata/ir's fixture (queries qA, qB, qC, runs alpha
// and beta, graded qrels); jo judges two pooled documents.
func relevanceFixture(t *testing.T) *store.Store {
	t.Helper()
	s := openStore(t)
	for _, f := range []struct{ file, format string }{{"items.jsonl", ""}, {"runs.run", importer.FormatTRECRun}, {"gold.qrels", importer.FormatQrels}} {
		if _, err := importer.Import(s, []string{filepath.Join("testdata", "ir", f.file)}, importer.Options{Format: f.format}); err != nil {
			t.Fatal(err)
		}
	}
	seed := int64(3)
	if _, err := s.CreatePool(store.PoolSpec{Name: "pool", Runs: []string{"alpha", "beta"}, Depth: 10, Seed: &seed, Assign: []string{"jo"}}); err != nil {
		t.Fatal(err)
	}
	l := &labeler{t: t, s: s, session: map[string]int64{}}
	l.set("jo", "qA/d07", schema.Relevance, schema.Relevant)
	l.set("jo", "qA/d06", schema.Relevance, schema.NotRelevant, schema.IrrelevanceReason, "reversed_roles")
	return s
}

func TestRelevancePublishes(t *testing.T) {
	s := relevanceFixture(t)
	hf := filepath.Join(t.TempDir(), "hf")
	res := export(t, s, Options{Format: "hf", Out: hf, Annotator: "jo"})
	// 8 qrels lines (gold) and jo's 2 judgments; qrels_after adds qA/d07.
	if res.Items["relevance"] != 10 || res.Items["qrels_before"] != 8 || res.Items["qrels_after"] != 9 {
		t.Errorf("rows %v", res.Items)
	}
	rows := readJSONL(t, filepath.Join(hf, "data", "relevance", "test.jsonl"))
	var jo []map[string]any
	for _, r := range rows {
		if r["annotator"] == "jo" {
			jo = append(jo, r)
		}
		if r["query_id"] == "qA" && r["document_id"] == "d01" && (r["annotator"] != "gold" || r["relevance"] != "relevant" || r["relevance_grade"] != 2.0) {
			t.Errorf("gold row %v", r)
		}
	}
	if len(jo) != 2 || jo[0]["relevance"] == jo[1]["relevance"] {
		t.Errorf("jo's rows %v", jo)
	}
	for _, r := range jo {
		if r["relevance"] == "not_relevant" && (r["irrelevance_reason"] != "reversed_roles" || r["relevance_grade"] != nil) {
			t.Errorf("not relevant row %v", r)
		}
	}
	after := readJSONL(t, filepath.Join(hf, "data", "qrels_after", "test.jsonl"))
	found := false
	for _, r := range after {
		found = found || r["query_id"] == "qA" && r["document_id"] == "d07" && r["relevance_grade"] == 1.0
	}
	if !found {
		t.Errorf("qrels_after lacks qA d07 1: %v", after)
	}
	card, _ := os.ReadFile(filepath.Join(hf, "README.md"))
	// beta after: (qA 0.8718 + qB 1) / 2 for nDCG, (0.8 + 1) / 2 for recall
	// (the trec_eval values of report/ir_test.go with only qA/d07 added).
	for _, want := range []string{"config_name: relevance", "config_name: qrels_after", "## Retrieval", "| beta | 90.1 | 93.6 | 87.5 | 90.0 | 2 | 2 |",
		"the judgments of jo; 1 added", "## Label distributions"} {
		if !strings.Contains(string(card), want) {
			t.Errorf("card lacks %q:\n%s", want, card)
		}
	}
	csvDir := filepath.Join(t.TempDir(), "csv")
	export(t, s, Options{Format: "csv", Out: csvDir, Annotator: "jo"})
	b, _ := os.ReadFile(filepath.Join(csvDir, "qrels_before.csv"))
	if !strings.HasPrefix(string(b), "query_id,document_id,relevance_grade\r\nqA,d01,2\r\n") {
		t.Errorf("qrels_before.csv:\n%s", b)
	}
	// The native export brings the pairs and every label back.
	native := filepath.Join(t.TempDir(), "native")
	export(t, s, Options{Format: "jsonl", LabelsOnly: true, Out: native})
	fresh := openStore(t)
	sum, err := importer.Import(fresh, []string{native}, importer.Options{})
	if err != nil || !strings.Contains(sum.String(), "22 relevance judgments added") {
		t.Fatalf("%v %v", sum, err)
	}
	ref, _ := storetest.Read(t, fresh).Resolve("qA/d06")
	cur, _ := storetest.Read(t, fresh).CurrentLabels("jo", ref.ItemID)
	if cur[schema.IrrelevanceReason] != "reversed_roles" {
		t.Errorf("jo's labels after the round trip: %v", cur)
	}
}
