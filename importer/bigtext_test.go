package importer

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store/storetest"

	"github.com/annotate-dev/annotate/exporter"
	"github.com/annotate-dev/annotate/store"
	"github.com/parquet-go/parquet-go"
)

// bigText is a text of about n bytes with what JSON escapes (quotes, a
// backslash, line breaks) and accents, as a judgment has.
func bigText(n int) string {
	const p = "Le locataire doit donner un préavis de « trois mois » (art. 1942 C.c.Q.).\n" +
		"The \"notice\" is in writing; C:\\dossiers\\bail is where it is kept.\t\n"
	return strings.Repeat(p, n/len(p)+1)[:n-n%len(p)]
}

// A Parquet text over hugeRecord is read as its page's own bytes, not as
// JSON (parquet_rows.go): what it gives is what the JSON of the same row
// gives. A database of big texts is exported as hf Parquet and as hf JSON
// lines; each folder, imported into the database it came from, changes
// nothing (every content hash the same), nor does the JSON lines one after
// the Parquet one in a new database.
func TestBigParquetTextsReadAsTheirJSON(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, line string
	}{
		{"documents", mustJSON(t, map[string]any{"kind": "document", "id": "big", "title": "Une décision", "text": bigText(5 << 20),
			"chunks": []map[string]any{{"id": "big#1", "start": 0, "end": 70}}}) + "\n" +
			mustJSON(t, map[string]any{"kind": "document", "id": "small", "text": "Un texte court."}) + "\n"},
		{"qa", mustJSON(t, map[string]any{"id": "q1", "source": "big", "question": "Quel préavis ?", "answer": bigText(5<<20 + 7),
			"contexts": []map[string]any{{"id": "u1", "text": bigText(6 << 20)}}, "claims": []map[string]any{{"text": "Trois mois."}}}) + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(dir, tc.name+".db")
			s, err := store.Open(db)
			if err != nil {
				t.Fatal(err)
			}
			mustImport(t, s, []string{writeFile(t, dir, tc.name+".jsonl", tc.line)}, Options{})
			folders := map[string]string{"parquet": filepath.Join(dir, tc.name+"-hf"), "jsonl": filepath.Join(dir, tc.name+"-hfjsonl")}
			for data, out := range folders {
				o := exporter.Options{Format: "hf", Out: out}
				if data == "jsonl" {
					o.DataFormat = exporter.DataJSONL
				}
				if _, err := exporter.Export(context.Background(), s, o); err != nil {
					t.Fatal(err)
				}
			}
			s.Close()
			before := contentOf(t, db)
			for _, data := range []string{"parquet", "jsonl"} {
				s, err := store.Open(db)
				if err != nil {
					t.Fatal(err)
				}
				sum, err := Import(s, []string{folders[data]}, Options{})
				s.Close()
				if err != nil {
					t.Fatalf("%s: %v", data, err)
				}
				if !sum.NoOp() {
					t.Errorf("%s into its own database: %s", data, sum)
				}
				if contentOf(t, db) != before {
					t.Errorf("%s: the database changed", data)
				}
			}
			// Into a new database, the Parquet folder, then the JSON lines
			// one, which finds nothing to change.
			s = openDB(t)
			mustImport(t, s, []string{folders["parquet"]}, Options{})
			if sum := mustImport(t, s, []string{folders["jsonl"]}, Options{}); !sum.NoOp() {
				t.Errorf("the JSON lines folder after the Parquet one: %s", sum)
			}
		})
	}
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A Parquet text of exactly the limit of one value is accepted, whatever
// JSON would make of it (16 MiB of text with escapes is more as JSON), and
// kept byte for byte; a byte more is refused (TestParquetCellOverTheLimit).
func TestParquetCellAtTheLimit(t *testing.T) {
	text := bigText(maxCell + 200)[:maxCell]
	docs := []releaseDoc{releaseDocs[0], releaseDocs[1]}
	docs[1].Text = sp(text)
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[releaseDoc](&buf, parquet.Compression(&parquet.Snappy), parquet.SkipPageBounds("text"))
	if _, err := w.Write(docs); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "documents.parquet")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	s := openDB(t)
	mustImport(t, s, []string{p}, Options{})
	var got string
	if err := storetest.DB(t, s).QueryRow("SELECT d.text FROM documents d JOIN items i ON i.id=d.item_id WHERE i.ext_id=?", *docs[1].Citation).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != text {
		t.Errorf("the text read back is %d bytes, not the %d written", len(got), len(text))
	}
}
