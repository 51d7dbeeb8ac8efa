package report

import (
	"github.com/annotate-dev/annotate/store"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/annotate-dev/annotate/importer"
)

// The benchmark's files as they come (testdata/clrbrelease, README.md
// there): a documents.parquet of the two columns the benchmark's indexing
// reads, a queries.json whose reference answers are read as
// is_query_usable reads them and one of whose citations names no document,
// and a pipeline's query_results.jsonl whose chunk scores do not follow
// its list. ir --definitions canlegalragbench scores them as the benchmark
// does.
//
// Values: the benchmark's own code (github.com/NLP-UBC/CanLegalRAGBench at
// bc2c83c) run by /usr/bin/python3 3.11 on the same files: the query loop
// of evaluate_retrieval/scripts/run_benchmark.py (its query_text and
// is_query_usable tests, the relevant set its ground_truth_citations) and
// evaluation/metrics.py's evaluate_retrieval(k_values=[3, 5]) on the
// retrieved_ids of each usable query. It finds c1, c3, c4, c5 and c8
// usable.
func TestIRCLRBOnTheBenchmarksFiles(t *testing.T) {
	dir := t.TempDir()
	type document struct {
		Citation string `parquet:"citation"`
		Text     string `parquet:"text"`
	}
	var docs []document
	for i := range 6 {
		docs = append(docs, document{"2019 ONCA " + itoa(i+1), "Fictional decision " + itoa(i+1) + "."})
	}
	f, err := os.Create(filepath.Join(dir, "documents.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[document](f)
	if _, err := w.Write(docs); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s := openStore(t)
	files := []string{filepath.Join(dir, "documents.parquet"), "testdata/clrbrelease/queries.json", "testdata/clrbrelease/runs/exp-q/results/query_results.jsonl"}
	sum, err := importer.Import(s, files, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := sum.Files[1].AbsentDocuments; n != 1 {
		t.Errorf("%d absent documents, want 1 (2099 ZZCA 1)", n)
	}
	for k, w := range map[int]CLRBPhase{
		3: {Recall: ptr(0.7), DocRecall: ptr(0.5), Precision: ptr(0.4), Hit: ptr(0.8), MRR: ptr(0.65), NDCG: ptr(0.44881538926738324), Queries: 5},
		5: {Recall: ptr(1.1), DocRecall: ptr(0.9), Precision: ptr(0.4833333333333333), Hit: ptr(1.0), MRR: ptr(0.65), NDCG: ptr(0.6575801394351535), Queries: 5},
	} {
		rep, err := store.ReadWith(s, IRCLRB, IROptions{K: k})
		if err != nil {
			t.Fatal(err)
		}
		b := rep.Runs["exp-q"].Before
		if b.Queries != w.Queries {
			t.Errorf("@%d: %d queries, want %d", k, b.Queries, w.Queries)
		}
		for _, m := range CLRBMetrics {
			wantIR(t, m+"@"+itoa(k), b.value(m), *w.value(m))
		}
		if !reflect.DeepEqual(rep.NoReferenceAnswer, []string{"c2", "c6"}) || !reflect.DeepEqual(rep.Excluded["before"], []string{"c2", "c6", "c7"}) {
			t.Errorf("no reference answer %v, excluded %v; want c2, c6 and c2, c6, c7", rep.NoReferenceAnswer, rep.Excluded["before"])
		}
	}
}
