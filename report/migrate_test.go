package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/store"
)

// A database written by the build before the kept counts (schema version 1,
// store/testdata/README.md) opens, upgrades, and gives the same reports as a
// fresh database that imports the same files today.
func TestVersion1DatabaseGivesTheSameReports(t *testing.T) {
	data, err := os.ReadFile("../store/testdata/v1.db")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "v1.db")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	old, err := store.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	fresh := openStore(t)
	files := []string{"../demo/demo.jsonl", "../docs/example/labels-jo.jsonl", "../docs/example/labels-sam.jsonl", "../store/testdata/v1-adjudicated.jsonl"}
	if _, err := importer.Import(fresh, files, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	seven := int64(7)
	for _, b := range []store.BatchSpec{
		{Name: "pilot", Kind: "qa", Size: 10, Pilot: true, Assign: []string{"jo", "sam"}},
		{Name: "qa-1", Kind: "qa", Assign: []string{"jo", "sam", "lea"}, Overlap: 2, Seed: &seven},
	} {
		if _, err := fresh.CreateBatch(b); err != nil {
			t.Fatal(err)
		}
	}
	reports := func(s *store.Store) map[string]string {
		out := map[string]string{}
		put := func(name string, v any, err error) {
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			b, _ := json.Marshal(v)
			out[name] = string(b)
		}
		for _, sel := range []Selection{{Annotator: "jo"}, {Annotator: "sam"}, {Adjudicated: true}} {
			st, err := store.ReadWith(s, Stats, sel)
			put("stats "+sel.Annotator, st, err)
			m, err := store.ReadWith(s, Metrics, MetricsOptions{Selection: sel})
			put("metrics "+sel.Annotator, m, err)
		}
		a, err := store.ReadWith(s, Agreement, AgreementOptions{})
		put("agreement", a, err)
		return out
	}
	want := reports(fresh)
	for name, got := range reports(old) {
		if got != want[name] {
			t.Errorf("%s differs after the upgrade:\n%s\nfresh:\n%s", name, got, want[name])
		}
	}
}
