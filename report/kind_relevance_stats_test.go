package report

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// stats on testdata/ir after a pool of alpha and beta at depth 10 (qA has 3
// documents to judge, qC 2, qB 9: counted by hand from runs.run and
// gold.qrels) of which jo judged three: the statistics are the judgments'
// (qA 2 pairs, qC 1), not the pool's, which no export carries.
func TestStatsJudgments(t *testing.T) {
	s := irFixture(t)
	seed := int64(3)
	if _, err := s.CreatePool(store.PoolSpec{Name: "pool", Runs: []string{"alpha", "beta"}, Depth: 10, Seed: &seed, Assign: []string{"jo"}}); err != nil {
		t.Fatal(err)
	}
	judge(t, s, "jo", "qA/d07", schema.Relevance, schema.Relevant)
	judge(t, s, "jo", "qA/d06", schema.Relevance, schema.NotRelevant, schema.IrrelevanceReason, "different_issue")
	judge(t, s, "jo", "qC/d03", schema.Relevance, schema.Relevant)
	rep, err := Stats(s, Selection{})
	if err != nil {
		t.Fatal(err)
	}
	ks := rep.Kinds["relevance"]
	if ks == nil || ks.Judgments == nil {
		t.Fatalf("no relevance statistics: %+v", rep.Kinds)
	}
	p := ks.Judgments
	if ks.Items != 3 || p.Queries != 2 || p.Pairs != 3 || *p.MinSize != 1 || *p.MedianSize != 1.5 || *p.MaxSize != 2 ||
		p.Judged != 3 || p.Relevant != 2 || math.Abs(*p.JudgedShare-1) > 1e-12 || len(p.Runs) != 2 || p.Runs[0].Queries != 3 {
		t.Errorf("judgments %+v (items %d)", *p, ks.Items)
	}
	if got := ks.Fields[schema.Relevance]; got[schema.Relevant] != 2 || got[schema.NotRelevant] != 1 {
		t.Errorf("relevance labels %v", got)
	}
	// The gold set's own pairs are no work: they are not among the items,
	// and the gold annotator is not one the report must choose among.
	if rep.Annotator != "jo" {
		t.Errorf("rater %q", rep.Annotator)
	}
	var out bytes.Buffer
	rep.WriteText(&out)
	if want := "judged by experts: 2 queries, 3 pairs, 1–2 a query (median 1.5); by this rater 3 (100.0%), relevant 2"; !strings.Contains(out.String(), want) {
		t.Errorf("text lacks %q:\n%s", want, out.String())
	}
}

// Judgments imported without a pool (an expert's qrels made elsewhere, the
// relevance config of an hf folder) count as the expert's labels: stats and
// ir take that expert without --annotator. The gold set's labels are the
// reference, never labels: on a pair the expert judged too (qA/d01, which
// the gold set grades 2) they count for nothing, and the gold set is not a
// second annotator to choose among.
func TestStatsJudgmentsImportedWithoutAPool(t *testing.T) {
	s := irFixture(t)
	qrels := filepath.Join(t.TempDir(), "jo.qrels")
	if err := os.WriteFile(qrels, []byte("qA 0 d01 0\nqA 0 d07 1\nqC 0 d03 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := importer.Import(s, []string{qrels}, importer.Options{Format: importer.FormatQrels, Annotator: "jo"}); err != nil {
		t.Fatal(err)
	}
	rep, err := Stats(s, Selection{})
	if err != nil {
		t.Fatal(err)
	}
	ks := rep.Kinds["relevance"]
	if rep.Annotator != "jo" || ks == nil || ks.Items != 3 || ks.Judgments.Queries != 2 || ks.Judgments.Judged != 3 || ks.Judgments.Relevant != 2 {
		t.Fatalf("annotator %q, relevance %+v", rep.Annotator, ks)
	}
	ag, err := Agreement(s, AgreementOptions{})
	if err == nil {
		t.Errorf("agreement with the gold set: %+v, want refused (one annotator)", ag)
	}
	ir, err := IR(s, IROptions{K: 10})
	if err != nil || ir.Annotator != "jo" || ir.Judgments.Judged != 3 {
		t.Errorf("ir: %v, expert %q, judgments %+v", err, ir.Annotator, ir.Judgments)
	}
}
