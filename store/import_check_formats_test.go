package store_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// TestImportsPassTheStagingCheck imports the formats' sample files, a native
// file with labels, a labels file onto its items and the native file again
// with changes, each under the staging check: a statement that depends on
// a staged row not yet written, or an answer the import gives without
// asking the table that the table contradicts, fails the import. (It lives
// here, not in importer/, because the check is the store's test code.)
func TestImportsPassTheStagingCheck(t *testing.T) {
	dir := t.TempDir()
	native := filepath.Join(dir, "items.jsonl")
	if err := os.WriteFile(native, []byte(nativeFile(12, 4)), 0o644); err != nil {
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
	b := strings.ReplaceAll(nativeFile(12, 4), `"neutral"`, `"entailment"`)
	if err := os.WriteFile(changed, []byte(strings.ReplaceAll(b, "act lawfully", "act fairly")), 0o644); err != nil {
		t.Fatal(err)
	}
	td := func(name string) string { return filepath.Join("..", "importer", "testdata", name) }
	s := store.CheckStaging(storetest.Open(t))
	for _, c := range []struct {
		name  string
		files []string
		opt   importer.Options
	}{
		{"native", []string{native}, importer.Options{}},
		{"native again", []string{native}, importer.Options{}},
		{"labels onto existing items", []string{labels}, importer.Options{}},
		{"native changed", []string{changed}, importer.Options{Update: true}},
		{"claimrag", []string{td("GDPR-RAG-LAW.json"), td("GDPR-CLAIM-LAW.json")}, importer.Options{}},
		{"refchecker", []string{td("refchecker_example_in.json")}, importer.Options{}},
		{"ragchecker", []string{td("ragchecker_checking_outputs.json")}, importer.Options{}},
	} {
		if _, err := importer.Import(s, c.files, c.opt); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// nativeFile is a native JSONL file of pairs QA pairs of claimsPer claims,
// with jo's labels on every one and a system's predictions on the claims.
func nativeFile(pairs, claimsPer int) string {
	var b strings.Builder
	for i := 1; i <= pairs; i++ {
		cs := make([]map[string]any, claimsPer)
		for n := range cs {
			cs[n] = map[string]any{
				"triplet":     []string{fmt.Sprintf("Article %d", i), "requires", fmt.Sprintf("obligation %d", n)},
				"predictions": map[string]string{"refchecker": "Entailment"},
				"labels":      map[string]any{"jo": map[string]string{"claim_validity": "correct", "entailment": "neutral"}},
			}
		}
		line, _ := json.Marshal(map[string]any{
			"id": fmt.Sprintf("gdpr-%06d", i), "source": "GDPR", "language": "en", "category": "factual_recall",
			"question": fmt.Sprintf("What does Article %d require?", i),
			"answer":   fmt.Sprintf("Article %d requires the controller to act lawfully, fairly and transparently.", i),
			"contexts": []map[string]string{{"id": fmt.Sprintf("gdpr-p%d", i), "text": "The controller shall be responsible."}},
			"claims":   cs,
			"labels":   map[string]any{"jo": map[string]string{"question_validity": "valid", "persona": "citizen", "answer_correctness": "correct"}},
		})
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}
