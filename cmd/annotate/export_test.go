package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/demo"
	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// seedExportDB writes the demo with labels of the given annotators on two
// pairs and their claims (an invalid question with an older persona, an
// incorrect claim), and returns its path.
func seedExportDB(t *testing.T, annotators ...string) string {
	t.Helper()
	path, s := storetest.Create(t, "annotate.db")
	defer s.Close()
	if _, err := importer.ImportReader(s, demo.FileName, demo.JSONL(), importer.Options{}); err != nil {
		t.Fatal(err)
	}
	label := func(who, ext, field, value string) {
		ref, err := s.Resolve(ext)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.RecordLabel(store.Label{Annotator: who, ItemID: ref.ItemID, Field: field, Value: value, ActiveMs: 3000}); err != nil {
			t.Fatal(err)
		}
	}
	for _, who := range annotators {
		for _, l := range [][3]string{
			{"gdpr-001", "question_validity", "valid"}, {"gdpr-001", "category", "factual_recall"}, {"gdpr-001", "persona", "citizen"},
			{"gdpr-001", "answer_correctness", "correct"},
			{"gdpr-001-c1", "claim_validity", "correct"}, {"gdpr-001-c1", "entailment", "entailment"},
			{"gdpr-001-c2", "claim_validity", "correct"}, {"gdpr-001-c2", "entailment", "neutral"},
			{"gdpr-001-c3", "claim_validity", "incorrect"}, {"gdpr-001", "missed_claims_checked", "checked"},
			{"gdpr-002", "question_validity", "valid"}, {"gdpr-002", "persona", "legal_expert"},
			{"gdpr-002", "question_validity", "invalid"}, {"gdpr-002", "invalid_reason", "domain"},
		} {
			label(who, l[0], l[1], l[2])
		}
	}
	return path
}

// cli runs a command line in-process and returns stdout and stderr.
func cli(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := runSafely(args, &out, &errOut)
	return out.String(), errOut.String(), err
}

func TestExportCommand(t *testing.T) {
	db := seedExportDB(t, "jo")
	dir := filepath.Join(t.TempDir(), "ds")
	out, stderr, err := cli(t, "--db", db, "export", "--out", dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "exported 31 QA pairs and 104 claims with the labels of jo to "+dir) {
		t.Errorf("output %q", out)
	}
	// stderr is not a terminal here: no progress bar, nothing at all.
	if stderr != "" {
		t.Errorf("stderr %q", stderr)
	}
	for _, f := range []string{"README.md", "data/qa/test.parquet", "data/claims/test.parquet"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}

	// A non-empty --out is refused, --force replaces it.
	if _, _, err := cli(t, "--db", db, "export", "--out", dir, "--split", "validation"); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("want a refusal naming --force, got %v", err)
	}
	out, _, err = cli(t, "--db", db, "export", "--json", "--out", dir, "--force", "--split", "validation", "--license", "mit", "--name", "Mine", "--data-format", "jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if res["qa"] != 31.0 || res["labels_of"] != "jo" || res["format"] != "hf" {
		t.Errorf("json %v", res)
	}
	card, _ := os.ReadFile(filepath.Join(dir, "README.md"))
	if !strings.Contains(string(card), "license: \"mit\"\n") || !strings.Contains(string(card), "path: \"data/claims/validation.jsonl\"") ||
		!strings.Contains(string(card), "# Mine\n") {
		t.Error("card does not reflect --license, --split, --name")
	}
	if _, err := os.Stat(filepath.Join(dir, "data/qa/test.parquet")); err == nil {
		t.Error("--force kept the old split's file")
	}
	// The card's contact: --contact, else the --as name.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--as", "lead"}, "## Dataset Card Contact\n\nlead\n"},
		// escaped for Markdown: an address is no link; the Hub shows lead@example.org
		{[]string{"--as", "lead", "export", "--contact", "lead@example.org"}, "## Dataset Card Contact\n\nlead\\@example.org\n"},
	} {
		args := append([]string{"--db", db}, c.args...)
		if args[len(args)-1] == "lead" {
			args = append(args, "export")
		}
		if _, _, err := cli(t, append(args, "--out", dir, "--force")...); err != nil {
			t.Fatal(err)
		}
		card, _ := os.ReadFile(filepath.Join(dir, "README.md"))
		if !strings.Contains(string(card), c.want) {
			t.Errorf("%v: card lacks %q", c.args, c.want)
		}
	}

	// Flags checked before any work.
	for _, args := range [][]string{
		{"export"},
		{"export", "--out", dir + "2", "--format", "parquet"},
		{"export", "--out", dir + "2", "--split", "my-split"},
		{"export", "--out", dir + "2", "--data-format", "csv"},
		{"export", "--out", dir + "2", "--format", "jsonl", "--data-format", "jsonl"},
		{"export", "--out", dir + "2", "--annotator", "jo", "--adjudicated"},
		{"export", "--out", dir + "2", "--annotator", "nobody"},
		{"export", "--out", dir + "2", "--name", "Mine\n# injected"},
		{"export", "--out", dir + "2", "--contact", "a\x1b[2Jb"},
	} {
		if _, _, err := cli(t, append([]string{"--db", db}, args...)...); err == nil {
			t.Errorf("%v: want an error", args)
		}
	}
	if _, err := os.Stat(dir + "2"); err == nil {
		t.Error("a refused export created its folder")
	}
}

// With two annotators the export asks whose labels, as the reports do.
func TestExportAsksWhoseLabels(t *testing.T) {
	db := seedExportDB(t, "jo", "sam")
	_, _, err := cli(t, "--db", db, "export", "--out", filepath.Join(t.TempDir(), "ds"))
	if err == nil || !strings.Contains(err.Error(), "--annotator") {
		t.Fatalf("want an error asking for --annotator, got %v", err)
	}
	// The same rule, the same words, whatever is asked.
	for _, who := range [][]string{nil, {"--annotator", "nobody"}, {"--adjudicated"}, {"--annotator", "jo", "--adjudicated"}} {
		_, _, eerr := cli(t, append([]string{"--db", db, "export", "--format", "csv", "--out", filepath.Join(t.TempDir(), "x")}, who...)...)
		_, _, serr := cli(t, append([]string{"--db", db, "stats"}, who...)...)
		if eerr == nil || serr == nil || eerr.Error() != serr.Error() {
			t.Errorf("%v: export and stats disagree: %v / %v", who, eerr, serr)
		}
	}
}

// export, then import into a new database: the reports are the same.
func TestExportImportCommands(t *testing.T) {
	db := seedExportDB(t, "jo", "sam")
	for _, c := range []struct {
		format string
		args   []string
	}{
		{"jsonl", nil},
		{"csv", []string{"--annotator", "sam", "--with-notes"}},
		{"hf", []string{"--annotator", "sam"}},
	} {
		dir := filepath.Join(t.TempDir(), c.format)
		if _, _, err := cli(t, append([]string{"--db", db, "export", "--format", c.format, "--out", dir}, c.args...)...); err != nil {
			t.Fatalf("%s: %v", c.format, err)
		}
		if c.format == "csv" {
			if b, err := os.ReadFile(filepath.Join(dir, "claims.csv")); err != nil || !bytes.HasPrefix(b, []byte("id,qa_id,")) {
				t.Errorf("claims.csv: %v %.40q", err, b)
			}
			continue
		}
		db2 := filepath.Join(t.TempDir(), "back.db")
		if _, _, err := cli(t, "--db", db2, "import", dir); err != nil {
			t.Fatalf("import %s: %v", c.format, err)
		}
		for _, report := range []string{"stats", "metrics"} {
			a, _, err1 := cli(t, "--db", db, report, "--json", "--annotator", "sam")
			b, _, err2 := cli(t, "--db", db2, report, "--json", "--annotator", "sam")
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if c.format == "hf" { // the published rows leave not-asked labels out
				a, b = dropKey(t, a, "not_asked"), dropKey(t, b, "not_asked")
			}
			if a != b {
				t.Errorf("%s after a %s round trip:\n%s\n%s", report, c.format, a, b)
			}
		}
	}
}

func dropKey(t *testing.T, js, key string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatal(err)
	}
	delete(m, key)
	b, _ := json.Marshal(m)
	return string(b)
}
