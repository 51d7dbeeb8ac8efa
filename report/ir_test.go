package report

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// testdata/ir (made up for these tests): queries qA (lay, ON), qB
// (professional, BC) and qC (lay, AB); documents d01–d20, d01 in two
// chunks; runs.run holds two runs by tag, alpha and beta, with ties in
// score (alpha's d01#b and d03 at 0.80, d04 and d06 at 0.60: trec_eval's
// order puts d03 before d01 and d06 before d04, whatever the rank column
// says) and duplicate chunks of d01 (d01#b at 0.80 and d01#a at 0.75 in
// alpha: d01 keeps its best score, 0.80); gold.qrels is graded (qA: d01 and d09
// grade 2, d02 and d04 grade 1, d03 0), qB's only relevant document d05 is
// at alpha's rank 11, qC has no relevant document.
func irFixture(t *testing.T) *store.Store {
	t.Helper()
	s := openStore(t)
	for _, f := range []struct{ file, format string }{{"items.jsonl", ""}, {"runs.run", importer.FormatTRECRun}, {"gold.qrels", importer.FormatQrels}} {
		if _, err := importer.Import(s, []string{"testdata/ir/" + f.file}, importer.Options{Format: f.format}); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func wantIR(t *testing.T, what string, got *float64, want float64) {
	t.Helper()
	if got == nil || math.Abs(*got-want) > 1e-12 {
		t.Errorf("%s = %v, want %.15f", what, show(got), want)
	}
}

func show(x *float64) any {
	if x == nil {
		return nil
	}
	return *x
}

// Before any expert judgment: the macro averages over qA and qB (qC has no
// relevant document and is named). Values: trec_eval's per-query
// recall_10, P_10, ndcg_cut_10 (and recip_rank, cut at 10) on the mapped
// runs (each chunk replaced by its document, each document once at its
// best score), averaged over qA and qB; full digits from a Python script of
// the same formulas (metrics/ir_test.go says how), alpha's nDCG from
// trec_eval 10.0-rc3 printing 17 digits (ir_ties_test.go says how):
// ndcg_cut_10 qA 0.56931002383909013, qB 0.
func TestIRBeforeExperts(t *testing.T) {
	s := irFixture(t)
	rep, err := IR(s, IROptions{K: 10})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Annotator != "" || rep.Judgments.Judged != 0 {
		t.Errorf("no expert yet: %q %+v", rep.Annotator, rep.Judgments)
	}
	a, b := rep.Runs["alpha"].Before, rep.Runs["beta"].Before
	wantIR(t, "alpha recall", a.Recall, 0.375)
	wantIR(t, "alpha precision", a.Precision, 0.15)
	wantIR(t, "alpha nDCG", a.NDCG, 0.56931002383909013/2)
	wantIR(t, "alpha MRR", a.MRR, 0.5) // qB's first relevant document is at 11: 0
	wantIR(t, "beta recall", b.Recall, 0.875)
	wantIR(t, "beta precision", b.Precision, 0.2)
	wantIR(t, "beta nDCG", b.NDCG, 0.9008734884876133)
	wantIR(t, "beta MRR", b.MRR, 1)
	if a.Queries != 2 || !reflect.DeepEqual(rep.ExcludedQueries, []string{"qC"}) || rep.Queries != 3 {
		t.Errorf("queries %d of %d, excluded %v", a.Queries, rep.Queries, rep.ExcludedQueries)
	}
	// Without experts, after is before.
	if !reflect.DeepEqual(rep.Runs["alpha"].Before, rep.Runs["alpha"].After) {
		t.Error("after differs from before with no expert judgment")
	}
	wantIR(t, "delta", rep.Runs["alpha"].Delta.NDCG, 0)
}

// judge records an expert's judgment of a pooled pair.
func judge(t *testing.T, s *store.Store, who, id string, labels ...string) {
	t.Helper()
	ref, err := s.Resolve(id)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(labels); i += 2 {
		if _, err := s.RecordLabel(store.Label{Annotator: who, ItemID: ref.ItemID, Field: labels[i], Value: labels[i+1]}); err != nil {
			t.Fatal(err)
		}
	}
}

// The paper's effect (§4.4, Fig. 3): beta retrieved qA/d07, which the gold
// set lacks; once the expert judges it relevant, beta's nDCG@10 rises,
// while alpha, which did not retrieve it, loses recall@10 because the gold
// set grew. The expert also finds qC's first relevant document: qC counts
// after, not before. Values: trec_eval on the qrels plus the expert's
// judgments (qA d07 1, qA d06 0, qA d11 0, qC d03 1), as above (alpha's
// ndcg_cut_10: qA 0.52121644911914156, qB and qC 0).
func TestIRAfterExpertsThePapersEffect(t *testing.T) {
	s := irFixture(t)
	seed := int64(3)
	if _, err := s.CreatePool(store.PoolSpec{Name: "pool", Runs: []string{"alpha", "beta"}, Depth: 10, Seed: &seed, Assign: []string{"jo"}}); err != nil {
		t.Fatal(err)
	}
	judge(t, s, "jo", "qA/d07", schema.Relevance, schema.Relevant)
	judge(t, s, "jo", "qA/d06", schema.Relevance, schema.NotRelevant, schema.IrrelevanceReason, "different_issue")
	judge(t, s, "jo", "qA/d11", schema.Relevance, schema.NotRelevant, schema.IrrelevanceReason, "reversed_roles")
	judge(t, s, "jo", "qC/d03", schema.Relevance, schema.Relevant)
	rep, err := IR(s, IROptions{K: 10})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Annotator != "jo" || rep.Judgments != (IRJudgments{Judged: 4, Added: 2}) {
		t.Errorf("expert %q, judgments %+v", rep.Annotator, rep.Judgments)
	}
	alpha, beta := rep.Runs["alpha"], rep.Runs["beta"]
	wantIR(t, "beta nDCG after", beta.After.NDCG, 0.9572646031246238)
	wantIR(t, "alpha recall after", alpha.After.Recall, 0.19999999999999998)
	if *beta.Delta.NDCG <= 0 || *alpha.Delta.Recall >= 0 {
		t.Errorf("beta's nDCG@10 must rise (Δ %v) and alpha's recall@10 drop (Δ %v)", *beta.Delta.NDCG, *alpha.Delta.Recall)
	}
	wantIR(t, "alpha precision after", alpha.After.Precision, 0.09999999999999999)
	wantIR(t, "alpha nDCG after", alpha.After.NDCG, 0.52121644911914156/3)
	wantIR(t, "alpha MRR after", alpha.After.MRR, 1.0/3)
	wantIR(t, "beta recall after", beta.After.Recall, 0.9333333333333332)
	wantIR(t, "beta precision after", beta.After.Precision, 0.19999999999999998)
	wantIR(t, "beta MRR after", beta.After.MRR, 1)
	wantIR(t, "beta nDCG delta", beta.Delta.NDCG, 0.9572646031246238-0.9008734884876133)
	if alpha.After.Queries != 3 || len(rep.ExcludedQueries) != 0 || !reflect.DeepEqual(rep.Excluded["before"], []string{"qC"}) {
		t.Errorf("after: %d queries; excluded %v / %v", alpha.After.Queries, rep.ExcludedQueries, rep.Excluded)
	}
	// The runs keep their order: tau 1, nothing swapped.
	if got := rep.Ranking; !reflect.DeepEqual(got.Before, []string{"beta", "alpha"}) || *got.KendallTau != 1 || len(got.Swapped) != 0 {
		t.Errorf("ranking %+v", got)
	}

	// --pooled: only queries with a pool (here every query); --by persona:
	// qA and qC are lay, qB professional (the Table 4 layout).
	rep, err = IR(s, IROptions{K: 10, By: "persona", Pooled: true})
	if err != nil {
		t.Fatal(err)
	}
	lay := rep.By["persona"]["lay"]["beta"]
	// beta lay after: qA nDCG 0.8717938093738713, qC 1.
	wantIR(t, "beta lay nDCG after", lay.After.NDCG, (0.8717938093738713+1)/2)
	wantIR(t, "beta lay nDCG before", lay.Before.NDCG, 0.8017469769752265) // qC has none before
	if lay.Before.Queries != 1 || lay.After.Queries != 2 {
		t.Errorf("lay queries %d → %d", lay.Before.Queries, lay.After.Queries)
	}
	wantIR(t, "alpha professional recall", rep.By["persona"]["professional"]["alpha"].After.Recall, 0)

	// --expert-overrides: an expert's "not relevant" on a gold document
	// takes it out (imported as expert qrels: gold pairs are never pooled).
	if _, err := importer.Import(s, []string{writeTemp(t, "jo.qrels", "qA 0 d02 0\n")}, importer.Options{Format: importer.FormatQrels, Annotator: "jo"}); err != nil {
		t.Fatal(err)
	}
	plain, _ := IR(s, IROptions{K: 10})
	over, err := IR(s, IROptions{K: 10, ExpertOverrides: true})
	if err != nil {
		t.Fatal(err)
	}
	if plain.Judgments.Dropped != 0 || over.Judgments.Dropped != 1 {
		t.Errorf("dropped %d without overrides, %d with", plain.Judgments.Dropped, over.Judgments.Dropped)
	}
	// Alpha's rank 1 (d02) no longer counts: qA recall 2/4 (d01, d04 of
	// d01, d04, d07, d09), so alpha's recall after is (0.5+0+0)/3.
	wantIR(t, "alpha recall after, overridden", over.Runs["alpha"].After.Recall, 0.5/3)
}

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := t.TempDir() + "/" + name
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// The ranking names the pairs of runs that swap, and says τ; null where
// nothing can be compared (JSON) and — in text.
func TestIRRankingSwapsAndNulls(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	rep := &IRReport{Runs: map[string]*IRRun{
		"a": {Before: IRPhase{NDCG: f(0.9)}, After: IRPhase{NDCG: f(0.8)}},
		"b": {Before: IRPhase{NDCG: f(0.8)}, After: IRPhase{NDCG: f(0.9)}},
		"c": {Before: IRPhase{NDCG: f(0.7)}, After: IRPhase{NDCG: f(0.7)}},
		"d": {Before: IRPhase{NDCG: f(0.6)}, After: IRPhase{NDCG: f(0.6)}},
	}}
	rk := rankRuns(rep, []string{"a", "b", "c", "d"}, "ndcg")
	// scipy.stats.kendalltau([0.9,0.8,0.7,0.6],[0.8,0.9,0.7,0.6]) = 0.6666666666666669
	if !reflect.DeepEqual(rk.Swapped, [][2]string{{"a", "b"}}) || math.Abs(*rk.KendallTau-0.6666666666666669) > 1e-12 ||
		!reflect.DeepEqual(rk.After, []string{"b", "a", "c", "d"}) {
		t.Errorf("%+v", rk)
	}
	// One run: no τ.
	rk = rankRuns(rep, []string{"a"}, "ndcg")
	if rk.KendallTau != nil {
		t.Errorf("tau over one run: %v", *rk.KendallTau)
	}
}

// JSON keys are docs/json.md's, undefined statistics null; text shows —.
func TestIRJSONAndText(t *testing.T) {
	s := irFixture(t)
	rep, err := IR(s, IROptions{K: 10, Runs: []string{"alpha"}, By: "jurisdiction"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(rep)
	var m map[string]any
	json.Unmarshal(b, &m)
	for _, k := range []string{"k", "runs", "ranking", "excluded_queries", "by"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, b)
		}
	}
	run := m["runs"].(map[string]any)["alpha"].(map[string]any)
	for _, phase := range []string{"before", "after", "delta"} {
		for _, k := range []string{"recall", "precision", "ndcg", "mrr"} {
			if _, ok := run[phase].(map[string]any)[k]; !ok {
				t.Errorf("runs.alpha.%s lacks %q", phase, k)
			}
		}
	}
	// AB has only qC, which has no relevant document: null, not 0.
	ab := m["by"].(map[string]any)["jurisdiction"].(map[string]any)["AB"].(map[string]any)["alpha"].(map[string]any)["before"].(map[string]any)
	if ab["ndcg"] != nil || ab["queries"].(float64) != 0 {
		t.Errorf("AB: %v", ab)
	}
	if rk := m["ranking"].(map[string]any); rk["kendall_tau"] != nil {
		t.Errorf("tau over one run: %v", rk["kendall_tau"])
	}
	var out bytes.Buffer
	if err := rep.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"recall@10", "nDCG@10", "alpha", "37.5", "28.5", "Kendall's τ —", "No relevant document before (left out of its averages): 1 (qC)",
		"nDCG@10 by jurisdiction", "— → — (0)"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if _, err := IR(s, IROptions{K: 10, Runs: []string{"gamma"}}); err == nil || !strings.Contains(err.Error(), `no run "gamma" (runs: alpha, beta)`) {
		t.Errorf("unknown run: %v", err)
	}
}
