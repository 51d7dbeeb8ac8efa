package report

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// stats on testdata/ir after a pool of alpha and beta at depth 10: qA has 3
// documents to judge (8 retrieved, 5 in the gold set), qC 2 (3, 1), qB 9
// (11, 2): counted by hand from runs.run and gold.qrels.
func TestStatsPools(t *testing.T) {
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
	if ks == nil || ks.Pools == nil {
		t.Fatalf("no relevance statistics: %+v", rep.Kinds)
	}
	p := ks.Pools
	if ks.Items != 14 || p.Queries != 3 || p.Pairs != 14 || *p.MinSize != 2 || *p.MedianSize != 3 || *p.MaxSize != 9 ||
		p.Judged != 3 || p.Relevant != 2 || math.Abs(*p.JudgedShare-3.0/14) > 1e-12 || len(p.Runs) != 2 || p.Runs[0].Queries != 3 {
		t.Errorf("pools %+v (items %d)", *p, ks.Items)
	}
	// The gold set's own pairs are no work: they are not among the items,
	// and the gold annotator is not one the report must choose among.
	if rep.Annotator != "jo" {
		t.Errorf("rater %q", rep.Annotator)
	}
	var out bytes.Buffer
	rep.WriteText(&out)
	if want := "pools: 3 queries, 14 pairs, size 2–9 (median 3); judged 3 (21.4%), relevant 2"; !strings.Contains(out.String(), want) {
		t.Errorf("text lacks %q:\n%s", want, out.String())
	}
}
