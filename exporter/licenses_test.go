package exporter

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckLicense(t *testing.T) {
	seen := map[string]string{}
	for _, l := range hubLicenses {
		if other, dup := seen[squeeze(l)]; dup {
			t.Fatalf("%s and %s look the same without separators: suggestions would lose one", l, other)
		}
		seen[squeeze(l)] = l
	}
	for _, ok := range []string{"cc-by-4.0", "cc-by-sa-4.0", "apache-2.0", "mit", "odc-by", "other", "llama3.1"} {
		if err := checkLicense(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for typed, want := range map[string]string{
		"CC BY-SA 4.0": "did you mean cc-by-sa-4.0? ",
		"CC-BY-4.0":    "did you mean cc-by-4.0? ",
		"apache2":      "did you mean apache-2.0? ",
		"cc-by-4":      "did you mean cc-by-4.0, cc-by-2.0, cc-by-2.5, cc-by-3.0? ", // without separators 1, 2, 2, 2 edits
		"gpl3":         "did you mean gpl, gpl-3.0, agpl-3.0, gpl-2.0, lgpl? ",      // 1, 1, then 2 edits (ties in the Hub's order)
		"foo":          `"foo" is not a license identifier of the Hugging Face Hub (the Hub's list`,
	} {
		err := checkLicense(typed)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", typed, err, want)
		}
	}
}

// A refused license stops the export before anything is written.
func TestExportRefusesUnknownLicense(t *testing.T) {
	s := demoStore(t)
	parent := t.TempDir()
	_, err := Export(context.Background(), s, Options{Out: filepath.Join(parent, "ds"), Annotator: "jo", License: "cc-by-4"})
	if err == nil || !strings.Contains(err.Error(), "cc-by-4.0") {
		t.Fatalf("want a refusal naming cc-by-4.0, got %v", err)
	}
	if es, _ := os.ReadDir(parent); len(es) != 0 {
		t.Errorf("left %v", es)
	}
	// The csv and jsonl formats have no card: no license to check.
	export(t, s, Options{Out: filepath.Join(parent, "csv"), Format: "csv", Annotator: "jo", License: "cc-by-4"})
}
