package importer

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/exporter"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// Pairs whose answer is not under review are imported as given: RefChecker's
// and RAGChecker's outputs (the "answer" is a system response), or a native
// line with "as_given": true. Their claims are asked of everyone at once;
// the others wait for each annotator's judgement of the answer. The
// jsonl backup keeps the marker. Counts by hand from the files.
func TestPairsImportedAsGiven(t *testing.T) {
	s := openDB(t)
	// RefChecker's human annotations (testdata slice: 6 pairs, 33 triplets).
	mustImport(t, s, []string{testdata("dolly_gpt4_answers.json")}, Options{})
	if n := count(t, s, "SELECT COUNT(*) FROM qa_pairs WHERE as_given"); n != 6 {
		t.Fatalf("RefChecker pairs as given: %d, want 6", n)
	}
	dir := t.TempDir()
	native := writeFile(t, dir, "n.jsonl",
		`{"id":"n1","source":"GDPR","question":"Q?","answer":"A.","contexts":[{"id":"n-p1","text":"T."}],"as_given":true,`+
			`"claims":[{"triplet":["a","b","c"]},{"triplet":["d","e","f"]}]}`+"\n"+
			`{"id":"n2","source":"GDPR","question":"Q?","answer":"B.","contexts":[{"id":"n-p2","text":"U."}],"claims":[{"triplet":["g","h","i"]}]}`+"\n")
	mustImport(t, s, []string{native}, Options{})
	q := store.QueueQuery{Annotator: "kim", Kind: "claim"}
	if n, err := storetest.Read(t, s).QueueTotal(q); err != nil || n != 35 {
		t.Fatalf("claims asked of a new annotator at once: %d (%v), want 33 + 2 (n2's waits for its answer)", n, err)
	}
	es, err := storetest.Read(t, s).Queue(store.QueueQuery{Annotator: "kim", Kind: "claim", Limit: 100})
	if err != nil || len(es) != 35 || es[33].ExtID != "n1-c1" || es[34].ExtID != "n1-c2" {
		t.Fatalf("queue: %d entries (%v)", len(es), err)
	}

	// The backup writes the marker; a fresh database reads it back (native
	// pairs only: RefChecker's human annotations have no question, which a
	// native line requires).
	s1 := openDB(t)
	mustImport(t, s1, []string{native}, Options{})
	n2, err := storetest.Read(t, s1).Resolve("n2")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s1.RecordLabel(store.Label{Annotator: "jo", ItemID: n2.ItemID, Field: "question_validity", Value: "valid"}); err != nil {
		t.Fatal(err) // (a backup without labels has an empty labels.jsonl, which import refuses)
	}
	if _, err := exporter.Export(context.Background(), s1, exporter.Options{Format: "jsonl", Out: filepath.Join(dir, "backup")}); err != nil {
		t.Fatal(err)
	}
	s2 := openDB(t)
	if _, err := Import(s2, []string{filepath.Join(dir, "backup")}, Options{}); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s2, "SELECT COUNT(*) FROM qa_pairs WHERE as_given"); n != 1 {
		t.Fatalf("pairs as given after the backup's round trip: %d, want 1 (n1)", n)
	}

	// A marker that is not a boolean: the line and the field, nothing imported.
	bad := writeFile(t, dir, "bad.jsonl", `{"id":"b1","source":"GDPR","question":"Q?","answer":"A.","contexts":[{"id":"b-p1","text":"T."}]}`+"\n"+
		`{"id":"b2","source":"GDPR","question":"Q?","answer":"A.","contexts":[{"id":"b-p2","text":"T."}],"as_given":"yes"}`+"\n")
	s3 := openDB(t)
	_, err = Import(s3, []string{bad}, Options{})
	if err == nil || !strings.Contains(err.Error(), "bad.jsonl:2") || !strings.Contains(err.Error(), "as_given") {
		t.Fatalf("a marker that is not true or false: %v", err)
	}
	if n := count(t, s3, "SELECT COUNT(*) FROM items"); n != 0 {
		t.Fatalf("a failed import left %d items", n)
	}
}
