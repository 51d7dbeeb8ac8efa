package importer

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/annotate-dev/annotate/store/storetest"

	"github.com/annotate-dev/annotate/demo"
	"github.com/annotate-dev/annotate/exporter"
	"github.com/annotate-dev/annotate/store"
)

// guidelineRows is the guideline_versions table as text, in key order.
func guidelineRows(t *testing.T, s *store.Store) string {
	t.Helper()
	var out string
	err := storetest.DB(t, s).QueryRow(`SELECT json_group_array(json_array(field,version,text,author,created_at,source))
		FROM (SELECT * FROM guideline_versions ORDER BY field, version)`).Scan(&out)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBackupKeepsTheGuidelinesVersions: a backup holds every version of the
// guidelines; restored into a new database (which has its own version 1
// from its first open) it brings back the backup's versions, times and
// authors, and the labels keep theirs. A second restore is a no-op.
func TestBackupKeepsTheGuidelinesVersions(t *testing.T) {
	s := openDB(t)
	if _, err := ImportReader(s, "demo.jsonl", demo.JSONL(), Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddGuidelines("lead", "edit", []store.GuidelineText{{Field: "persona", Text: "## persona — v2\n\nWho asks.\n"}}); err != nil {
		t.Fatal(err)
	}
	mustImport(t, s, []string{filepath.Join("..", "docs", "example", "labels-jo.jsonl")}, Options{})
	want := guidelineRows(t, s)
	out := filepath.Join(t.TempDir(), "backup")
	if _, err := exporter.Export(context.Background(), s, exporter.Options{Format: "jsonl", Out: out}); err != nil {
		t.Fatal(err)
	}
	r := openDB(t)
	if _, err := Import(r, []string{out}, Options{}); err != nil {
		t.Fatal(err)
	}
	if got := guidelineRows(t, r); got != want {
		t.Errorf("restored guidelines differ:\n got %.300s\nwant %.300s", got, want)
	}
	var persona2 int
	storetest.DB(t, r).QueryRow("SELECT count(*) FROM label_events WHERE field='persona' AND guidelines_version='2'").Scan(&persona2)
	if persona2 == 0 {
		t.Error("no restored persona label records version 2")
	}
	if _, err := Import(r, []string{out}, Options{}); err != nil {
		t.Fatalf("second restore: %v", err)
	}
	if got := guidelineRows(t, r); got != want {
		t.Error("the second restore changed the guidelines")
	}
}
