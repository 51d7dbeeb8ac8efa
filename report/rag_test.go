package report

import (
	"bytes"
	"encoding/json"
	"github.com/annotate-dev/annotate/store"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/metrics"
)

// splitRAGExample writes each result of RAGChecker's example checking
// output (importer/testdata, Apache-2.0) to a file of its own.
func splitRAGExample(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../importer/testdata/ragchecker_checking_outputs.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Results []json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var out []string
	for i, r := range doc.Results {
		p := filepath.Join(t.TempDir(), "part"+string(rune('0'+i))+".json")
		if err := os.WriteFile(p, []byte(`{"results":[`+string(r)+`]}`), 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// The expected figures were computed by RAGChecker's own
// ragchecker/computation.py (copied from github.com/amazon-science/RAGChecker,
// run with numpy 1.24.2 while developing): its METRIC_FUNC_MAP on each
// result, then np.mean; for the expert figures, on the same results with
// the ground-truth claims judged incorrect taken out of response2answer and
// retrieved2answer (result 0: claims 1 and 7; result 1: claims 3, 6 and 7).
var (
	ragAuto0   = []float64{0.7272727272727273, 0.5, 0.5925925925925926, 0.22727272727272727, 0.75, 1.0, 0.18181818181818182, 0, 0.09090909090909091, 0.5454545454545454, 0.36363636363636365}
	ragAuto1   = []float64{0.8, 0.75, 0.7741935483870969, 1.0, 1.0, 0.75, 0.2, 0, 0, 0, 1.0}
	ragAutoM   = []float64{0.7636363636363637, 0.625, 0.6833930704898448, 0.6136363636363636, 0.875, 0.875, 0.19090909090909092, 0, 0.045454545454545456, 0.2727272727272727, 0.6818181818181819}
	ragExpert0 = []float64{0.7272727272727273, 0.5, 0.5925925925925926, 0.2, 0.75, 1.0, 0.18181818181818182, 0, 0.09090909090909091, 0.5454545454545454, 0.36363636363636365}
	ragExpert1 = []float64{0.8, 0.8, 0.8000000000000002, 1.0, 0.6666666666666666, 0.8, 0.2, 0, 0, 0, 1.0}
	ragExpertM = []float64{0.7636363636363637, 0.65, 0.6962962962962964, 0.6, 0.7083333333333333, 0.9, 0.19090909090909092, 0, 0.045454545454545456, 0.2727272727272727, 0.6818181818181819}
)

func nearScores(t *testing.T, name string, got *metrics.RAGScores, want []float64) {
	t.Helper()
	if got == nil {
		t.Fatalf("%s: null", name)
	}
	for i, n := range metrics.RAGMetricNames {
		near(t, name+" "+n, got.Values()[i], want[i], 1e-12)
	}
}

// TestRAGReport: one system whose two results come from two sources; the
// expert jo judged five ground-truth claims incorrect and two correct.
func TestRAGReport(t *testing.T) {
	s := openStore(t)
	parts := splitRAGExample(t)
	for i, src := range []string{"GDPR", "CIVIL"} {
		if _, err := importer.Import(s, parts[i:i+1], importer.Options{Source: src, System: "e5_gpt4"}); err != nil {
			t.Fatal(err)
		}
	}
	labels := filepath.Join(t.TempDir(), "jo.jsonl")
	var lines []string
	for item, v := range map[string]string{"GDPR/0-g1": "incorrect", "GDPR/0-g2": "correct", "GDPR/0-g7": "incorrect",
		"CIVIL/1-g3": "incorrect", "CIVIL/1-g6": "incorrect", "CIVIL/1-g7": "incorrect", "CIVIL/1-g1": "correct"} {
		lines = append(lines, `{"annotator":"jo","item":"`+item+`","field":"claim_validity","value":"`+v+`"}`)
	}
	os.WriteFile(labels, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	if _, err := importer.Import(s, []string{labels}, importer.Options{}); err != nil {
		t.Fatal(err)
	}

	// Without an expert: RAGChecker's figures, per source and pooled.
	rep, err := store.ReadWith(s, RAG, RAGOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sys := rep.Systems["e5_gpt4"]
	if sys == nil || len(rep.Systems) != 1 || sys.Results != 2 || sys.Expert != nil || sys.RemovedClaims != nil {
		t.Fatalf("report %+v", rep)
	}
	nearScores(t, "all", sys.All, ragAutoM)
	nearScores(t, "GDPR", sys.BySource["GDPR"].All, ragAuto0)
	nearScores(t, "CIVIL", sys.BySource["CIVIL"].All, ragAuto1)

	rep, err = store.ReadWith(s, RAG, RAGOptions{Expert: "jo"})
	if err != nil {
		t.Fatal(err)
	}
	sys = rep.Systems["e5_gpt4"]
	nearScores(t, "all", sys.All, ragAutoM)
	nearScores(t, "expert", sys.Expert, ragExpertM)
	nearScores(t, "GDPR expert", sys.BySource["GDPR"].Expert, ragExpert0)
	nearScores(t, "CIVIL expert", sys.BySource["CIVIL"].Expert, ragExpert1)
	near(t, "delta recall", sys.Delta.Recall, 0.65-0.625, 1e-12)
	near(t, "delta context precision", sys.Delta.ContextPrecision, 0.7083333333333333-0.875, 1e-12)
	if *sys.RemovedClaims != 5 || *sys.JudgedClaims != 7 || sys.AnswerClaims != 30 ||
		*sys.BySource["GDPR"].RemovedClaims != 2 || *sys.BySource["CIVIL"].JudgedClaims != 4 {
		t.Errorf("claims: removed %d judged %d of %d; GDPR removed %d; CIVIL judged %d", *sys.RemovedClaims, *sys.JudgedClaims,
			sys.AnswerClaims, *sys.BySource["GDPR"].RemovedClaims, *sys.BySource["CIVIL"].JudgedClaims)
	}

	// The JSON keys.
	b, _ := json.Marshal(rep)
	var shape struct {
		Systems map[string]map[string]json.RawMessage `json:"systems"`
	}
	if err := json.Unmarshal(b, &shape); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"all", "expert", "delta", "removed_claims", "by_source", "results"} {
		if _, ok := shape.Systems["e5_gpt4"][k]; !ok {
			t.Errorf("no key %q in %s", k, b)
		}
	}
	if !strings.Contains(string(b), `"precision":0.7636363636363637`) {
		t.Errorf("fractions: %s", b)
	}

	// Text like the paper's Table 2, one decimal.
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"P↑", "NS(r)↓", "expert jo",
		"76.4  62.5  68.3  61.4  87.5  87.5  19.1  0.0  4.5  27.3  68.2  5 of 30  7 of 30",
		"76.4  65.0  69.6  60.0  70.8  90.0  19.1  0.0  4.5  27.3  68.2",
		"0.0  +2.5  +1.3  -1.4  -16.7  +2.5  0.0  0.0  0.0  0.0  0.0"} {
		if !strings.Contains(squeeze(text.String()), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}

	if _, err := store.ReadWith(s, RAG, RAGOptions{Expert: "nobody"}); err == nil || !strings.Contains(err.Error(), `no annotator "nobody"`) {
		t.Errorf("unknown expert: %v", err)
	}
	if _, err := store.ReadWith(s, RAG, RAGOptions{Systems: []string{"bm25"}}); err == nil || !strings.Contains(err.Error(), `no RAGChecker results of system "bm25"`) {
		t.Errorf("unknown system: %v", err)
	}
}

// squeeze turns runs of spaces into two, so a test reads table rows
// whatever the column widths.
func squeeze(s string) string {
	var b strings.Builder
	spaces := 0
	for _, r := range s {
		if r == ' ' {
			spaces++
			continue
		}
		if spaces > 0 {
			b.WriteString(strings.Repeat(" ", min(spaces, 2)))
			spaces = 0
		}
		b.WriteRune(r)
	}
	return b.String()
}

// TestRAGReportAdjudicated: --adjudicated reads the lead's final labels of
// the ground-truth claims, not an annotator's.
func TestRAGReportAdjudicated(t *testing.T) {
	s := openStore(t)
	if _, err := importer.Import(s, []string{"../importer/testdata/ragchecker_checking_outputs.json"}, importer.Options{Source: "NILE", System: "e5"}); err != nil {
		t.Fatal(err)
	}
	labels := filepath.Join(t.TempDir(), "l.jsonl")
	os.WriteFile(labels, []byte(`{"annotator":"jo","item":"NILE/1-g3","field":"claim_validity","value":"incorrect"}
{"annotator":"lead","role":"adjudicate","item":"NILE/1-g3","field":"claim_validity","value":"correct"}
{"annotator":"lead","role":"adjudicate","item":"NILE/1-g6","field":"claim_validity","value":"incorrect"}
`), 0o644)
	if _, err := importer.Import(s, []string{labels}, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	rep, err := store.ReadWith(s, RAG, RAGOptions{Adjudicated: true})
	if err != nil {
		t.Fatal(err)
	}
	sys := rep.Systems["e5"]
	if rep.Expert != "adjudicated" || *sys.RemovedClaims != 1 || *sys.JudgedClaims != 2 {
		t.Fatalf("expert %q removed %d judged %d", rep.Expert, *sys.RemovedClaims, *sys.JudgedClaims)
	}
	// Result 1 without claim 6 (entailed by the response and by chunks 0
	// and 2): recall 5/7; result 0 unchanged (recall 1/2). By hand from the
	// file's response2answer.
	near(t, "recall", sys.Expert.Recall, (0.5+5.0/7)/2, 1e-12)
	if _, err := store.ReadWith(s, RAG, RAGOptions{Adjudicated: true, Expert: "jo"}); err == nil {
		t.Error("--expert with --adjudicated")
	}
}
