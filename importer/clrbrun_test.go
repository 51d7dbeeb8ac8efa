package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// clrbResults writes a results file where CanLegalRAGBench's pipelines put
// it: <dir>/runs/<experiment>/results/query_results.jsonl.
func clrbResults(t *testing.T, dir, experiment, content string) string {
	t.Helper()
	p := filepath.Join(dir, "runs", experiment, "results", "query_results.jsonl")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Two lines as run_benchmark.py writes them (keys in its order): q1's
// chunks come from d2, d1, d2 again and chunk d1#1 (its document d1).
const clrbLines = `{"query_id": "q1", "query_text": "I am in ON. Can my landlord enter?", "gold_citations": ["d1"], "retrieved_ids": ["d2", "d1", "d2", "d1#1"], "retrieved_chunk_details": [{"doc_id": "d2", "chunk_idx": 0, "score": 0.9}, {"doc_id": "d1", "chunk_idx": 4, "score": 0.8}, {"doc_id": "d2", "chunk_idx": 7, "score": 0.95}, {"doc_id": "d1#1", "chunk_idx": 1, "score": 0.5}], "num_unique_docs_retrieved": 2, "answer": "Yes, with notice."}
{"query_id": "q2", "query_text": "I am in BC. Notice period?", "gold_citations": ["d3"], "retrieved_ids": ["d3"], "num_unique_docs_retrieved": 1, "answer": ""}
`

func TestImportCLRBResultsAsARun(t *testing.T) {
	s := openDB(t)
	dir := t.TempDir()
	mustImport(t, s, []string{writeFile(t, dir, "items.jsonl", trecItems)}, Options{})
	file := clrbResults(t, dir, "bm25_okapi_recursive_4096", clrbLines)
	// Detected by its content, named after its experiment folder.
	sum := mustImport(t, s, []string{file}, Options{})
	if got := sum.String(); !strings.Contains(got, "(canlegalragbench-run): run bm25_okapi_recursive_4096 added (2 queries, 3 ranked documents)") {
		t.Errorf("summary: %s", got)
	}
	// The document ranking: each document at its first rank.
	if got := runRows(t, s, "bm25_okapi_recursive_4096"); got != "q1:1:d2 q1:2:d1 q2:1:d3" {
		t.Errorf("ranking: %s", got)
	}
	// The chunk-level list as the file gives it, repeats included.
	if got := chunkRows(t, s, "bm25_okapi_recursive_4096"); got != "q1:d2 q1:d1 q1:d2 q1:d1/d1#1 q2:d3" {
		t.Errorf("chunks: %s", got)
	}
	// A document's score is its best chunk's; no details, no score.
	if got := queryRow(t, s, `SELECT group_concat(l.scores, ' ') FROM run_lists l JOIN runs r ON r.id = l.run_id WHERE r.name = ?`, "bm25_okapi_recursive_4096"); got != "[0.95,0.8] [null]" {
		t.Errorf("scores: %s", got)
	}
	// Again: unchanged. --run names it otherwise.
	if sum := mustImport(t, s, []string{file}, Options{}); !sum.NoOp() {
		t.Errorf("re-import: %s", sum)
	}
	mustImport(t, s, []string{file}, Options{Run: "bm25"})
	if got := runRows(t, s, "bm25"); got != "q1:1:d2 q1:2:d1 q2:1:d3" {
		t.Errorf("--run: %s", got)
	}
	// Nothing retrieved: an empty list (the benchmark scores it 0).
	mustImport(t, s, []string{clrbResults(t, dir, "empty", `{"query_id": "q1", "retrieved_ids": [], "retrieved_chunk_details": []}`+"\n")}, Options{})
	if got := queryRow(t, s, `SELECT l.docs || l.chunk_docs FROM run_lists l JOIN runs r ON r.id = l.run_id WHERE r.name = 'empty'`); got != "[][]" {
		t.Errorf("empty list: %s", got)
	}
	// Elsewhere than results/, the name must be given.
	loose := writeFile(t, dir, "query_results.jsonl", clrbLines)
	if _, err := Import(s, []string{loose}, Options{}); err == nil || !strings.Contains(err.Error(), "cannot tell the run's name") || !strings.Contains(err.Error(), "--run NAME") {
		t.Errorf("no experiment folder: %v", err)
	}
}

func TestImportCLRBResultsErrorsNameLineAndField(t *testing.T) {
	s := openDB(t)
	dir := t.TempDir()
	mustImport(t, s, []string{writeFile(t, dir, "items.jsonl", trecItems)}, Options{})
	ok := `{"query_id": "q1", "retrieved_ids": ["d1"]}` + "\n"
	for _, c := range []struct{ name, content, want string }{
		{"q", ok + `{"query_id": "q9", "retrieved_ids": ["d1"]}` + "\n", `query_results.jsonl:2: field "query_id": unknown query "q9": it is neither in the database nor in this import`},
		{"d", ok + `{"query_id": "q2", "retrieved_ids": ["d1", "d2", "nope"]}` + "\n", `query_results.jsonl:2: field "retrieved_ids[2]": unknown document or chunk "nope"`},
		{"kind", `{"query_id": "q1", "retrieved_ids": ["q2"]}` + "\n", `query_results.jsonl:1: field "retrieved_ids[0]": "q2" is a query, not a document or chunk`},
		{"twice", ok + ok, `query_results.jsonl:2: field "query_id": query "q1" is also at `},
		{"missing", ok + `{"query_id": "q2", "retrieved_id": ["d1"]}` + "\n", `query_results.jsonl:2: field "retrieved_ids": missing (required)`},
		{"type", `{"query_id": "q1", "retrieved_ids": "d1", "x": 1}` + "\n", `query_results.jsonl:1: field "retrieved_ids": want an array`},
		{"elem", `{"query_id": "q1", "retrieved_ids": ["d1", 7]}` + "\n", `query_results.jsonl:1: field "retrieved_ids[1]": want a document id (a string), got a number`},
		{"details", `{"query_id": "q1", "retrieved_ids": ["d1", "d2"], "retrieved_chunk_details": [{"doc_id": "d1", "score": 1}]}` + "\n", `query_results.jsonl:1: field "retrieved_chunk_details": 1 details for 2 retrieved_ids`},
		{"detail-doc", `{"query_id": "q1", "retrieved_ids": ["d1"], "retrieved_chunk_details": [{"doc_id": "d2", "score": 1}]}` + "\n", `query_results.jsonl:1: field "retrieved_chunk_details[0].doc_id": "d2", but retrieved_ids[0] is "d1"`},
		{"score", `{"query_id": "q1", "retrieved_ids": ["d1"], "retrieved_chunk_details": [{"doc_id": "d1", "score": "high"}]}` + "\n", `query_results.jsonl:1: field "retrieved_chunk_details[0].score": want a finite number, got "high"`},
		{"answer", `{"query_id": "q1", "retrieved_ids": ["d1"], "answer": 3}` + "\n", `query_results.jsonl:1: field "answer": want a string, got a number`},
		{"ctl", `{"query_id": "q1", "retrieved_ids": ["d\u001b1"]}` + "\n", `query_results.jsonl:1: field "retrieved_ids[0]": the document id`},
	} {
		_, err := Import(s, []string{clrbResults(t, dir, c.name, c.content)}, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant %s", c.name, err, c.want)
		}
	}
	if n := count(t, s, "SELECT COUNT(*) FROM runs"); n != 0 {
		t.Errorf("failed imports left %d runs", n)
	}
	if n := count(t, s, "SELECT COUNT(*) FROM run_lists"); n != 0 {
		t.Errorf("failed imports left %d run lists", n)
	}
}

func queryRow(t *testing.T, s *store.Store, q string, args ...any) string {
	t.Helper()
	var v string
	if err := storetest.DB(t, s).QueryRow(q, args...).Scan(&v); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return v
}
