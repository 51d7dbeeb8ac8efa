package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/annotate-dev/annotate/store"
)

// TestImportsPassTheStagingCheck imports the formats' sample files, a native
// file with labels, a labels file onto its items and the native file again
// with changes, each under the store's staging check: a statement that
// depends on a staged row not yet written, or an answer the import gives
// without asking the table that the table contradicts, fails the import.
func TestImportsPassTheStagingCheck(t *testing.T) {
	store.CheckStaging(true)
	defer store.CheckStaging(false)
	dir := t.TempDir()
	native := filepath.Join(dir, "items.jsonl")
	if err := os.WriteFile(native, []byte(nativeBenchFileN(12, 4)), 0o644); err != nil {
		t.Fatal(err)
	}
	labels := filepath.Join(dir, "labels.jsonl")
	var l strings.Builder
	for _, id := range []string{"gdpr-000001", "gdpr-000002", "gdpr-000001-c1", "gdpr-000002-c3"} {
		field, value := "question_validity", "invalid"
		if strings.Contains(id, "-c") {
			field, value = "entailment", "contradiction"
		}
		l.WriteString(`{"annotator":"sam","item":"` + id + `","field":"` + field + `","value":"` + value + `"}` + "\n")
		l.WriteString(`{"annotator":"jo","item":"` + id + `","field":"` + field + `","value":"` + value + `"}` + "\n")
	}
	if err := os.WriteFile(labels, []byte(l.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	changed := filepath.Join(dir, "changed.jsonl")
	b := strings.ReplaceAll(nativeBenchFileN(12, 4), `"neutral"`, `"entailment"`)
	if err := os.WriteFile(changed, []byte(strings.ReplaceAll(b, "act lawfully", "act fairly")), 0o644); err != nil {
		t.Fatal(err)
	}
	td := func(name string) string { return filepath.Join("testdata", name) }
	s := openDB(t)
	for _, c := range []struct {
		name  string
		files []string
		opt   Options
	}{
		{"native", []string{native}, Options{}},
		{"native again", []string{native}, Options{}},
		{"labels onto existing items", []string{labels}, Options{}},
		{"native changed", []string{changed}, Options{Update: true}},
		{"claimrag", []string{td("GDPR-RAG-LAW.json"), td("GDPR-CLAIM-LAW.json")}, Options{}},
		{"refchecker", []string{td("refchecker_example_in.json")}, Options{}},
		{"ragchecker", []string{td("ragchecker_checking_outputs.json")}, Options{}},
	} {
		t0 := time.Now()
		if _, err := Import(s, c.files, c.opt); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		t.Logf("%s: %v", c.name, time.Since(t0))
	}
}
