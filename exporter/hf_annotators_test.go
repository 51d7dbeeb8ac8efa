package exporter

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// jsonRows reads a JSON Lines data file.
func jsonRows(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// adjudicatedLabels lists the adjudicated current labels as "item field
// value", whoever adjudicated.
func adjudicatedLabels(t *testing.T, s *store.Store) []string {
	return lines(t, s, `SELECT i.ext_id||' '||l.field||' '||l.value FROM current_labels l JOIN items i ON i.id=l.item_id WHERE l.role='adjudicate'`)
}

// --all-annotators: every label set of every annotated kind in one folder,
// one row per item and label set, and back through annotate import.
func TestExportAllAnnotators(t *testing.T) {
	s := fullDemo(t)
	out := filepath.Join(t.TempDir(), "all")
	res := export(t, s, Options{Out: out, AllAnnotators: true})
	if res.LabelSet != "" || !strings.Contains(strings.Join(res.Notes, "\n"), "the items' own configs carry no labels") {
		t.Errorf("label set %q, notes %v: want none chosen, and said", res.LabelSet, res.Notes)
	}
	for _, config := range []string{"qa_by_annotator", "claims_by_annotator", "answers_by_annotator", "gen_claims_by_annotator"} {
		if res.Items[config] == 0 {
			t.Errorf("no rows of %s (%v)", config, res.Items)
		}
	}
	if _, ok := res.Items["relevance_by_annotator"]; ok {
		t.Error("relevance has a long config: its own config is one row per judgment already")
	}
	// qa_by_annotator: one row per pair and label set with a label that
	// counts, each row that set's counted labels.
	rows := jsonRows(t, filepath.Join(out, "data/qa_by_annotator/test.jsonl"))
	perSet := map[string]int{}
	for _, r := range rows {
		perSet[r["annotator"].(string)]++
	}
	want := map[string]int{}
	for _, who := range []string{"jo", "sam"} {
		items := map[string]bool{}
		for _, l := range countedLabels(t, s, who) {
			f := strings.Fields(l)
			if fd, _ := schema.Lookup(f[1]); fd.Kind == schema.KindQA {
				items[f[0]] = true
			}
		}
		want[who] = len(items)
	}
	want["adjudicated"] = 1 // gdpr-006's question_validity
	for who, n := range want {
		if perSet[who] != n {
			t.Errorf("qa_by_annotator: %d rows of %s, want %d (%v)", perSet[who], who, n, perSet)
		}
	}
	if len(rows) != res.Items["qa_by_annotator"] {
		t.Errorf("%d rows, result says %d", len(rows), res.Items["qa_by_annotator"])
	}
	for _, r := range rows {
		if r["id"] == "gdpr-004" && r["annotator"] == "jo" && (r["question_validity"] != "invalid" || r["persona"] != nil) {
			t.Errorf("jo's gdpr-004: %v: want invalid, the older persona not asked (null)", r)
		}
	}
	// The items' own configs: every item, no label set.
	for _, r := range jsonRows(t, filepath.Join(out, "data/qa/test.jsonl")) {
		if r["question_validity"] != nil || r["annotator"] != "" {
			t.Fatalf("qa row %v: want no labels", r)
		}
	}
	// The card declares the configs and says which label sets each holds.
	card, err := os.ReadFile(filepath.Join(out, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"- config_name: qa_by_annotator\n", "path: \"data/qa_by_annotator/test.jsonl\"",
		"`qa_by_annotator` holds every label set of the items of `qa` in long format, one row per item and label set, with that set's labels: `jo` (24), `sam` (10), `adjudicated` (1)",
		"| `claims_by_annotator` | `test` | `data/claims_by_annotator/test.jsonl` |",
		"every label set is in the `*_by_annotator` configs", "## Inter-annotator agreement"} {
		if !strings.Contains(string(card), want) {
			t.Errorf("card lacks %q", want)
		}
	}

	// Back: every annotator's counted labels, and the adjudicated ones.
	back := openStore(t)
	if _, err := importer.Import(back, []string{out}, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, who := range []string{"jo", "sam"} {
		sameLines(t, who+"'s counted labels", countedLabels(t, s, who), countedLabels(t, back, who))
	}
	sameLines(t, "adjudicated labels", adjudicatedLabels(t, s), adjudicatedLabels(t, back))
}

// With a label set chosen, the items' configs carry it, and the long
// configs every set; another format refuses the flag.
func TestExportAllAnnotatorsWithLabelSet(t *testing.T) {
	s := demoStore(t)
	out := filepath.Join(t.TempDir(), "jo")
	res := export(t, s, Options{Out: out, AllAnnotators: true, Annotator: "jo"})
	if res.LabelSet != "jo" || res.Items["claims_by_annotator"] == 0 {
		t.Errorf("%+v", res)
	}
	qa := jsonRows(t, filepath.Join(out, "data/qa/test.jsonl"))
	if i := slices.IndexFunc(qa, func(r map[string]any) bool { return r["id"] == "gdpr-001" }); i < 0 || qa[i]["annotator"] != "jo" || qa[i]["question_validity"] != "valid" {
		t.Errorf("gdpr-001 in qa: want jo's labels")
	}
	card, _ := os.ReadFile(filepath.Join(out, "README.md"))
	if !strings.Contains(string(card), "Every label set, this one among them, is also in the `*_by_annotator` configs") {
		t.Error("card does not point to the other label sets")
	}
	if _, err := Export(t.Context(), s, Options{Format: "csv", Out: filepath.Join(t.TempDir(), "x"), AllAnnotators: true, Annotator: "jo"}); err == nil || !strings.Contains(err.Error(), "--all-annotators applies to --format hf") {
		t.Errorf("csv: %v", err)
	}
}
