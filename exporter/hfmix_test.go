package exporter

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/importer"
)

// Any mix of kinds exports, with nobody's labels yet: CanLegalRAGBench
// items only, and items with the gold set's judgments only (no annotator
// has labelled: the label columns are null and the card names no label set).
func TestHFExportsAnyMixOfKinds(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files [][2]string
		want  map[string]int // rows per config, counted in testdata/ir by hand
	}{
		{"items only", [][2]string{{"items.jsonl", ""}}, map[string]int{"queries": 3, "documents": 20}},
		{"gold judgments only", [][2]string{{"items.jsonl", ""}, {"gold.qrels", importer.FormatQrels}},
			map[string]int{"queries": 3, "documents": 20, "relevance": 8, "qrels_before": 8, "qrels_after": 8}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := openStore(t)
			for _, f := range tc.files {
				if _, err := importer.Import(s, []string{filepath.Join("testdata", "ir", f[0])}, importer.Options{Format: f[1]}); err != nil {
					t.Fatal(err)
				}
			}
			out := filepath.Join(t.TempDir(), "ds")
			res := export(t, s, Options{Out: out, DataFormat: DataParquet})
			if len(res.Items) != len(tc.want) {
				t.Errorf("configs %v, want %v", res.Items, tc.want)
			}
			_, card := readCard(t, out)
			for config, n := range tc.want {
				if res.Items[config] != n {
					t.Errorf("%s: %d rows, want %d", config, res.Items[config], n)
				}
				rows := readParquet(t, filepath.Join(out, "data", config, "test.parquet"))
				if len(rows) != n {
					t.Errorf("%s: %d Parquet rows, want %d", config, len(rows), n)
				}
				if !strings.Contains(card, "- config_name: "+config+"\n") {
					t.Errorf("card lacks config %s", config)
				}
			}
			if _, err := os.Stat(filepath.Join(out, "data", "qa")); err == nil {
				t.Error("an empty qa config was written")
			}
			var names []string
			for k := range res.Items {
				names = append(names, k)
			}
			sort.Strings(names)
			t.Log(names)
		})
	}
}
