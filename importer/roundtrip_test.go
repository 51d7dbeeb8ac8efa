package importer

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/demo"
	"github.com/annotate-dev/annotate/exporter"
	"github.com/annotate-dev/annotate/store"
)

// Re-importing one's own export into the database that holds the originals
// is "nothing changed" and changes nothing (issue 9, item 11). The demo's
// claims carry no "origin" and the hf rows say "extracted", the pairs' hf
// rows carry no extra keys: the stored content is compared, not only the
// hash of how the input said it.
func TestOwnExportReimportsUnchanged(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	s, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ImportReader(s, "demo.jsonl", demo.JSONL(), Options{}); err != nil {
		t.Fatal(err)
	}
	labels := []string{filepath.Join("..", "docs", "example", "labels-jo.jsonl"), filepath.Join("..", "docs", "example", "labels-sam.jsonl")}
	mustImport(t, s, labels, Options{})
	// A pair with extra keys and no language of its own (the hf row has the
	// source's), with a response-level prediction the exports do not carry.
	extra := writeFile(t, dir, "extra.jsonl", `{"id":"x1","source":"GDPR","question":"Q?","answer":"A.","contexts":[{"id":"x-p1","text":"T."}],`+
		`"generation_model":"gpt-4","predictions":{"refchecker":"Neutral"},"claims":[{"triplet":["a","b","c"],"origin":"extracted"}]}`+"\n")
	mustImport(t, s, []string{extra}, Options{})
	for _, o := range []exporter.Options{
		{Format: "hf", Out: filepath.Join(dir, "hf"), Annotator: "jo"}, // Parquet data files
		{Format: "hf", Out: filepath.Join(dir, "hfjsonl"), Annotator: "jo", DataFormat: exporter.DataJSONL},
		{Format: "jsonl", LabelsOnly: true, Out: filepath.Join(dir, "native")},
		{Format: "jsonl", Out: filepath.Join(dir, "jsonl")},
	} {
		if _, err := exporter.Export(context.Background(), s, o); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	before := contentOf(t, db)

	for _, folder := range []string{"hf", "hfjsonl", "native", "jsonl"} {
		s, err := store.Open(db)
		if err != nil {
			t.Fatal(err)
		}
		sum, err := Import(s, []string{filepath.Join(dir, folder)}, Options{})
		s.Close()
		if err != nil {
			t.Fatalf("%s: %v", folder, err)
		}
		want := "nothing changed: all 32 QA pairs, 105 claims and "
		if folder == "jsonl" { // the backup counts rows
			want = "nothing changed: all "
		}
		if !sum.NoOp() || !strings.HasPrefix(sum.String(), want) {
			t.Fatalf("%s: %s", folder, sum)
		}
		if contentOf(t, db) != before {
			t.Fatalf("%s: the database changed", folder)
		}
	}

	// A changed claim row is still a change, named by the row's own field.
	rows := filepath.Join(dir, "hfjsonl", "data", "claims", "test.jsonl")
	b, err := os.ReadFile(rows)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(rows, []byte(strings.Replace(string(b), `"position":1,`, `"position":7,`, 1)), 0o644)
	s, err = store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = Import(s, []string{filepath.Join(dir, "hfjsonl")}, Options{})
	if err == nil || !strings.Contains(err.Error(), rows+`:1: field "id": item "gdpr-001-c1" is already in the database with different content`) {
		t.Fatalf("changed row: %v", err)
	}
}

// The native backup keeps RAGChecker's results: exported with their
// responses' pairs ("ragchecker"), imported into a fresh database they are
// the same rows, and into the original one nothing changes.
func TestRAGCheckerNativeRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s := openDB(t)
	mustImport(t, s, []string{testdata("ragchecker_checking_outputs.json")}, Options{Source: "NILE", System: "bm25"})
	labels := writeFile(t, dir, "jo.jsonl", `{"annotator":"jo","item":"NILE/0-g1","field":"claim_validity","value":"incorrect"}`+"\n")
	mustImport(t, s, []string{labels}, Options{})
	out := filepath.Join(dir, "backup")
	if _, err := exporter.Export(context.Background(), s, exporter.Options{Format: "jsonl", Out: out}); err != nil {
		t.Fatal(err)
	}
	want, err := s.RAGResults("jo")
	if err != nil || len(want) != 2 {
		t.Fatalf("%d results, %v", len(want), err)
	}
	if sum := mustImport(t, s, []string{out}, Options{}); !sum.NoOp() {
		t.Fatalf("into the original: %s", sum)
	}
	fresh := openDB(t)
	mustImport(t, fresh, []string{out}, Options{})
	got, err := fresh.RAGResults("jo")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("after the round trip\n%+v\nwant\n%+v", got, want)
	}
	// A malformed result in a native line names its field.
	bad := writeFile(t, dir, "bad.jsonl", `{"id":"r1","source":"S","question":"Q?","answer":"A.","contexts":[{"id":"r1-p","text":"T."}],`+
		`"ragchecker":{"system":"x","query_id":"1","answer2response":[["Entailment"]]}}`+"\n")
	if _, err := Import(fresh, []string{bad}, Options{}); err == nil || !strings.Contains(err.Error(), `bad.jsonl:1: field "ragchecker.answer2response": want a list of verdict strings, got an array`) {
		t.Errorf("bad result: %v", err)
	}
}
