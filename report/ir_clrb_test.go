package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/store"
)

// testdata/irclrb (made up for these tests): queries q1–q4 with accepted
// gold answers but q3's (rejected); run exp-a from a CanLegalRAGBench
// query_results.jsonl (chunk-level lists with repeats: q1 d2 d1 d2 d1 d3,
// q2 d4 d4 d5, q3 d1, q4 d6 d5) and run bm25 from a TREC run (q1 d1 d3, q2
// d5, q4 d5); gold qrels q1: d1 d3 (d2 not relevant), q2: d5, q3: d1; jo
// judged q4/d6 and q2/d4 relevant.
func irCLRBFixture(t *testing.T) *store.Store {
	t.Helper()
	s := openStore(t)
	for _, f := range []struct {
		file, format, annotator string
	}{{"items.jsonl", "", ""}, {"answers.jsonl", "", ""}, {"runs/exp-a/results/query_results.jsonl", "", ""},
		{"bm25.run", importer.FormatTRECRun, ""}, {"gold.qrels", importer.FormatQrels, ""}, {"jo.qrels", importer.FormatQrels, "jo"}} {
		if _, err := importer.Import(s, []string{"testdata/irclrb/" + f.file}, importer.Options{Format: f.format, Annotator: f.annotator}); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// The expected means were computed by CanLegalRAGBench's metrics.py
// (evaluate_retrieval with k_values=(3,)) run with python3 on the same
// lists and relevant sets: before over q1 and q2 (q3 has no accepted
// answer, q4 no relevant document), after over q1, q2 and q4 (jo's
// judgments added).
func TestIRCLRBMatchesTheBenchmark(t *testing.T) {
	s := irCLRBFixture(t)
	rep, err := store.ReadWith(s, IRCLRB, IROptions{K: 3, Selection: Selection{Annotator: "jo"}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string][6]float64{ // recall, doc recall, precision, hit, mrr, ndcg
		"exp-a": {"before": {0.75, 0.75, 0.5, 1, 0.5, 0.5088912804029996},
			"after": {1.0, 0.8333333333333334, 0.6666666666666666, 1, 0.8333333333333334, 0.7956176024115139}},
		"bm25": {"before": {1, 1, 1, 1, 1, 1},
			"after": {0.5, 0.5, 0.6666666666666666, 0.6666666666666666, 0.6666666666666666, 0.6666666666666666}},
	}
	for run, phases := range want {
		for phase, w := range phases {
			p := rep.Runs[run].Before
			if phase == "after" {
				p = rep.Runs[run].After
			}
			for i, m := range CLRBMetrics {
				wantIR(t, run+" "+phase+" "+m, p.value(m), w[i])
			}
		}
	}
	if b, a := rep.Runs["exp-a"].Before.Queries, rep.Runs["exp-a"].After.Queries; b != 2 || a != 3 {
		t.Errorf("queries %d → %d, want 2 → 3", b, a)
	}
	if got := strings.Join(rep.NoReferenceAnswer, ","); got != "q3" {
		t.Errorf("no reference answer: %s", got)
	}
	if got := strings.Join(rep.Excluded["before"], ","); got != "q3,q4" {
		t.Errorf("excluded before: %s", got)
	}
	// The ranking flips: bm25 leads on nDCG before, exp-a after.
	if got := strings.Join(rep.Ranking.Before, ">") + " " + strings.Join(rep.Ranking.After, ">"); got != "bm25>exp-a exp-a>bm25" {
		t.Errorf("ranking: %s", got)
	}
	// The JSON keys are the benchmark's.
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(rep); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Runs map[string]struct {
			After map[string]any `json:"after"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	for _, k := range append(CLRBMetrics, "queries") {
		if _, ok := back.Runs["exp-a"].After[k]; !ok {
			t.Errorf("no key %q in %s", k, buf.String())
		}
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Chunk recall counts chunks", "chunk recall@3", "75.0 → 100.0 (+25.0)", "No reference answer (an accepted gold answer; left out): 1 (q3)"} {
		if !strings.Contains(text.String(), w) {
			t.Errorf("text lacks %q:\n%s", w, text.String())
		}
	}
}

// The same fixture with trec_eval's definitions (worked by hand). exp-a's
// document rankings are q1 d2 d1 d3, q2 d4 d5, q3 d1: recall@3 is 1 on each
// of q1, q2 and q3 (q3 counts: no reference answer is needed), P@3 2/3, 1/3
// and 1/3, so recall 1 and precision 4/9. The benchmark cuts the chunk list
// at 3 (q1 d2 d1 d2: one relevant chunk of two relevant documents, 1/2; q2
// d4 d4 d5: 1) over q1 and q2 only: recall 0.75; precision over the unique
// documents of those chunks (q1 d2 d1: 1/2; q2 d4 d5: 1/2): 0.5.
func TestIRCLRBDiffersFromTrecEval(t *testing.T) {
	s := irCLRBFixture(t)
	trec, err := store.ReadWith(s, IR, IROptions{K: 3})
	if err != nil {
		t.Fatal(err)
	}
	clrb, err := store.ReadWith(s, IRCLRB, IROptions{K: 3})
	if err != nil {
		t.Fatal(err)
	}
	wantIR(t, "trec_eval recall@3", trec.Runs["exp-a"].Before.Recall, 1)
	wantIR(t, "trec_eval P@3", trec.Runs["exp-a"].Before.Precision, 4.0/9)
	wantIR(t, "benchmark recall_at_k", clrb.Runs["exp-a"].Before.Recall, 0.75)
	wantIR(t, "benchmark precision_at_k", clrb.Runs["exp-a"].Before.Precision, 0.5)
}
