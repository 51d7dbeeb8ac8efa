package importer

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store/storetest"

	"github.com/annotate-dev/annotate/store"
)

// Queries and documents for the TREC tests: d1 has chunks d1#0 and d1#1.
const trecItems = `{"kind":"query","id":"q1","text":"Can my landlord enter without notice?","persona":"lay","jurisdiction":"ON"}
{"kind":"query","id":"q2","text":"Notice period for a residential tenancy?","persona":"professional","jurisdiction":"BC"}
{"kind":"document","id":"d1","text":"First part. Second part.","chunks":[{"id":"d1#0","start":0,"end":11},{"id":"d1#1","start":12,"end":24}]}
{"kind":"document","id":"d2","text":"Another case."}
{"kind":"document","id":"d3","text":"A third case."}
`

// runRows reads a run's stored ranking: "query:rank:doc" per row.
func runRows(t *testing.T, s *store.Store, run string) string {
	t.Helper()
	rows, err := storetest.DB(t, s).Query(`SELECT q.ext_id, j.key + 1, d.ext_id FROM run_lists x JOIN runs r ON r.id = x.run_id, json_each(x.docs) j
		JOIN items q ON q.id = x.query_item_id JOIN items d ON d.id = j.value WHERE r.name = ? ORDER BY q.ext_id, j.key`, run)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var q, d string
		var rank int
		if err := rows.Scan(&q, &rank, &d); err != nil {
			t.Fatal(err)
		}
		out = append(out, q+":"+strconv.Itoa(rank)+":"+d)
	}
	return strings.Join(out, " ")
}

// chunkRows reads a run's stored chunk-level lists: "query:doc/chunk" per
// retrieved line, in rank order ("query:doc" where the line named the
// document).
func chunkRows(t *testing.T, s *store.Store, run string) string {
	t.Helper()
	rows, err := storetest.DB(t, s).Query(`SELECT q.ext_id, d.ext_id, COALESCE(c.value, '') FROM run_lists x JOIN runs r ON r.id = x.run_id,
		json_each(x.chunk_docs) j JOIN json_each(x.chunk_ids) c ON c.key = j.key
		JOIN items q ON q.id = x.query_item_id JOIN items d ON d.id = j.value WHERE r.name = ? ORDER BY q.ext_id, j.key`, run)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var q, d, c string
		if err := rows.Scan(&q, &d, &c); err != nil {
			t.Fatal(err)
		}
		if c != "" {
			d += "/" + c
		}
		out = append(out, q+":"+d)
	}
	return strings.Join(out, " ")
}

func TestImportRunMapsChunksKeepsBestRankRenumbers(t *testing.T) {
	s := openDB(t)
	dir := t.TempDir()
	items := writeFile(t, dir, "items.jsonl", trecItems)
	// Run "dense": q1 retrieves chunk d1#1 at rank 1, d2 at 2, chunk d1#0
	// at 3 (d1 keeps rank 1), d3 at 7 (renumbered to 3). Run "bm25" in the
	// same file ties d2 and d3 on rank: the higher score comes first.
	run := writeFile(t, dir, "two.run", "q1 Q0 d1#1 1 0.9 dense\nq1 Q0 d2 2 0.8 dense\nq1 Q0 d1#0 3 0.7 dense\nq1 Q0 d3 7 0.1 dense\n"+
		"q2 Q0 d3 1 5 bm25\nq2 Q0 d2 1 6 bm25\r\n\n")
	sum := mustImport(t, s, []string{items}, Options{})
	sum = mustImport(t, s, []string{run}, Options{Format: FormatTRECRun})
	if got := runRows(t, s, "dense"); got != "q1:1:d1 q1:2:d2 q1:3:d3" {
		t.Errorf("dense: %s", got)
	}
	if got := runRows(t, s, "bm25"); got != "q2:1:d2 q2:2:d3" {
		t.Errorf("bm25: %s", got)
	}
	if got := sum.String(); !strings.Contains(got, "run dense added (1 query, 3 ranked documents)") || !strings.Contains(got, "run bm25 added (1 query, 2 ranked documents)") {
		t.Errorf("summary: %s", got)
	}
	// The chunk-level list keeps every line in rank order, repeats
	// included, and the chunks a run named (the relevance screen jumps to
	// them).
	if got := chunkRows(t, s, "dense"); got != "q1:d1/d1#1 q1:d2 q1:d1/d1#0 q1:d3" {
		t.Errorf("dense chunks: %s", got)
	}
	if got := chunkRows(t, s, "bm25"); got != "q2:d2 q2:d3" {
		t.Errorf("bm25 chunks: %s", got)
	}
	// The same file again changes nothing; a changed run needs --update.
	sum = mustImport(t, s, []string{run}, Options{Format: FormatTRECRun})
	if !sum.NoOp() {
		t.Errorf("re-import: %s", sum)
	}
	changed := writeFile(t, dir, "changed.run", "q1 Q0 d2 1 0.9 dense\n")
	_, err := Import(s, []string{changed}, Options{Format: FormatTRECRun})
	if !errors.Is(err, store.ErrChanged) || !strings.Contains(err.Error(), "changed.run:1: field \"tag\": run \"dense\" is already in the database") {
		t.Fatalf("changed run: %v", err)
	}
	mustImport(t, s, []string{changed}, Options{Format: FormatTRECRun, Update: true})
	if got := runRows(t, s, "dense"); got != "q1:1:d2" {
		t.Errorf("dense after --update: %s", got)
	}
	// --run names a file's one run.
	mustImport(t, s, []string{writeFile(t, dir, "one.run", "q2 Q0 d1 1 1 x\n")}, Options{Format: FormatTRECRun, Run: "named"})
	if got := runRows(t, s, "named"); got != "q2:1:d1" {
		t.Errorf("--run: %s", got)
	}
}

func TestImportRunErrorsNameTheLine(t *testing.T) {
	s := openDB(t)
	dir := t.TempDir()
	items := writeFile(t, dir, "items.jsonl", trecItems)
	mustImport(t, s, []string{items}, Options{})
	before := count(t, s, "SELECT COUNT(*) FROM runs")
	for _, c := range []struct{ name, content, want string }{
		{"q.run", "q1 Q0 d1 1 1 r\nq9 Q0 d1 2 1 r\n", `q.run:2: field "qid": unknown query "q9"`},
		{"d.run", "q1 Q0 d1 1 1 r\nq1 Q0 d1 2 1 r\nq1 Q0 nope 3 1 r\n", `d.run:3: field "docid": unknown document or chunk "nope"`},
		{"k.run", "q1 Q0 q2 1 1 r\n", `k.run:1: field "docid": "q2" is a query, not a document or chunk`},
		{"cols.run", "q1 Q0 d1 1 1\n", `cols.run:1: want 6 whitespace-separated columns (qid Q0 docid rank score tag), got 5`},
		{"rank.run", "q1 Q0 d1 first 1 r\n", `rank.run:1: field "rank": want an integer, got "first"`},
		{"score.run", "q1 Q0 d1 1 NaN r\n", `score.run:1: field "score": want a finite number`},
		{"ctl.run", "q1 Q0 d\x1b1 1 1 r\n", `ctl.run:1: field "docid": the docid`},
	} {
		_, err := Import(s, []string{writeFile(t, dir, c.name, c.content)}, Options{Format: FormatTRECRun})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
	}
	// A run in two files of one import, and --run over two tags.
	a, b := writeFile(t, dir, "a.run", "q1 Q0 d1 1 1 r\n"), writeFile(t, dir, "b.run", "q2 Q0 d1 1 1 r\n")
	if _, err := Import(s, []string{a, b}, Options{Format: FormatTRECRun}); err == nil || !strings.Contains(err.Error(), `b.run:1: field "tag": run "r" is also in `) {
		t.Errorf("run in two files: %v", err)
	}
	two := writeFile(t, dir, "two.run", "q1 Q0 d1 1 1 x\nq1 Q0 d2 2 1 y\n")
	if _, err := Import(s, []string{two}, Options{Format: FormatTRECRun, Run: "z"}); err == nil || !strings.Contains(err.Error(), `two.run:2: field "tag": --run "z" names one run`) {
		t.Errorf("--run over two tags: %v", err)
	}
	if n := count(t, s, "SELECT COUNT(*) FROM runs"); n != before {
		t.Errorf("failed imports left %d runs", n-before)
	}
}

// --format covers every file of an invocation: a JSON Lines file among run
// files is refused with its line, and nothing is written.
func TestImportRunFormatCoversEveryFile(t *testing.T) {
	s := openDB(t)
	dir := t.TempDir()
	run := writeFile(t, dir, "r.run", "q1 Q0 d2 1 1 r\n")
	items := writeFile(t, dir, "items.jsonl", trecItems)
	_, err := Import(s, []string{run, items}, Options{Format: FormatTRECRun})
	if err == nil || !strings.Contains(err.Error(), "items.jsonl:1: ") {
		t.Fatalf("items.jsonl read as a run: %v", err)
	}
	if n := count(t, s, "SELECT COUNT(*) FROM items"); n != 0 {
		t.Errorf("%d items written", n)
	}
}

func TestImportQrels(t *testing.T) {
	s := openDB(t)
	dir := t.TempDir()
	qrels := writeFile(t, dir, "gold.qrels", "q1 0 d1 2\nq1 0 d2 0\nq2 0 d3 1\n")
	items := writeFile(t, dir, "items.jsonl", trecItems)
	mustImport(t, s, []string{items}, Options{})
	sum := mustImport(t, s, []string{qrels}, Options{Format: FormatQrels})
	if got := sum.String(); !strings.Contains(got, "3 relevance judgments added") || !strings.Contains(got, "6 labels added") {
		t.Errorf("summary: %s", got)
	}
	for id, want := range map[string]map[string]string{
		"q1/d1": {"relevance": "relevant", "relevance_grade": "2"},
		"q1/d2": {"relevance": "not_relevant", "relevance_grade": "0"},
		"q2/d3": {"relevance": "relevant", "relevance_grade": "1"},
	} {
		got := current(t, s, GoldAnnotator, id)
		if len(got) != 2 || got["relevance"] != want["relevance"] || got["relevance_grade"] != want["relevance_grade"] {
			t.Errorf("%s: %v", id, got)
		}
	}
	// An expert's judgments made elsewhere, under --annotator.
	mustImport(t, s, []string{writeFile(t, dir, "sam.qrels", "q1 0 d3 1\n")}, Options{Format: FormatQrels, Annotator: "sam"})
	if got := current(t, s, "sam", "q1/d3"); got["relevance"] != "relevant" {
		t.Errorf("sam: %v", got)
	}
	if !mustImport(t, s, []string{qrels}, Options{Format: FormatQrels}).NoOp() {
		t.Error("the same qrels again changed something")
	}
	for _, c := range []struct{ name, content, want string }{
		{"rel.qrels", "q1 0 d1 yes\n", `rel.qrels:1: field "rel": want an integer relevance grade`},
		{"q.qrels", "q1 0 d1 1\nq7 0 d1 1\n", `q.qrels:2: field "qid": unknown item "q7"`},
		{"dup.qrels", "q2 0 d1 1\nq2 0 d1 0\n", `dup.qrels:2: field "docid": duplicate id "q2/d1" (first at line 1)`},
		{"cols.qrels", "q1 d1 1\n", `cols.qrels:1: want 4 whitespace-separated columns (qid iter docid rel), got 3`},
		{"kind.qrels", "d1 0 d2 1\n", `kind.qrels:1: field "docid": "d1" is a document, not a query`},
	} {
		_, err := Import(s, []string{writeFile(t, dir, c.name, c.content)}, Options{Format: FormatQrels})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
	}
}

// Detection never guesses the TREC formats, but says which flag to give.
func TestDetectSaysTheTRECFormat(t *testing.T) {
	s := openDB(t)
	dir := t.TempDir()
	for name, want := range map[string]string{
		"x.run":   "this looks like a TREC run (qid Q0 docid rank score tag): detection never guesses text formats, import it with --format trec-run",
		"x.qrels": "this looks like TREC qrels (qid 0 docid rel): detection never guesses text formats, import it with --format qrels",
	} {
		content := "q1 Q0 d1 1 0.5 bm25\n"
		if strings.HasSuffix(name, "qrels") {
			content = "q1 0 d1 1\n"
		}
		_, err := Import(s, []string{writeFile(t, dir, name, content)}, Options{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
