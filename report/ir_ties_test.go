package report

import (
	"reflect"
	"testing"

	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/store"
)

// A run is ranked as trec_eval ranks it: by score, highest first, ties by
// document id in descending byte order, the rank column ignored
// (form_res_rels.c, comp_sim_docno). testdata/irties (README.md there):
// run "tied" ties in score and contradicts its ranks; run "chunks" names
// chunks, each standing for its document at its best score.
//
// Values: trec_eval 10.0-rc3 (github.com/usnistgov/trec_eval at f425365,
// built with gcc, its "%6.4f" in meas_print_single.c and meas_print_final.c
// changed to "%.17g" to print every digit; its 4-digit output is the same
// rounded), the "all" line of
//
//	trec_eval -m recall.3,5,10 -m P.3,5,10 -m ndcg_cut.3,5,10 -m recip_rank gold.qrels RUN
//
// with RUN the lines of tied.run tagged "tied", and chunks.mapped.run.
// Every query has a relevant document and both runs rank documents for
// every query, so trec_eval's mean is over the queries annotate averages.
// Before the change (the rank column ordering, ties by file order) annotate
// gave "tied" recall@3 0.5278, P@3 0.4444, nDCG@10 0.7251, MRR 1.
func TestIRRanksTiesAsTrecEval(t *testing.T) {
	s := openStore(t)
	for _, f := range []struct{ file, format string }{{"items.jsonl", ""}, {"tied.run", importer.FormatTRECRun}, {"gold.qrels", importer.FormatQrels}} {
		if _, err := importer.Import(s, []string{"testdata/irties/" + f.file}, importer.Options{Format: f.format}); err != nil {
			t.Fatal(err)
		}
	}
	type want struct{ recall, precision, ndcg float64 }
	for _, c := range []struct {
		run  string
		at   map[int]want
		mrr  float64 // recip_rank: every first relevant document is within 10
		tops map[string][]string
	}{
		{"tied", map[int]want{
			3:  {0.41666666666666669, 0.33333333333333331, 0.25986773496798837},
			5:  {0.63888888888888884, 0.33333333333333331, 0.38131382225167937},
			10: {0.80555555555555547, 0.23333333333333331, 0.47704533253776865},
		}, 0.3611111111111111, map[string][]string{
			"t1": {"d03", "d02", "d01", "d06", "d04", "d08", "d07"},
			"t2": {"d12", "d11", "d10", "d09", "d01"},
			"t3": {"d04", "d06", "d02"},
		}},
		{"chunks", map[int]want{
			3:  {0.72222222222222221, 0.66666666666666663, 0.59647179791363569},
			5:  {0.80555555555555547, 0.46666666666666662, 0.60692979814995096},
			10: {0.80555555555555547, 0.23333333333333331, 0.60692979814995096},
		}, 0.66666666666666663, map[string][]string{
			"t1": {"d05", "d03", "d07", "d04", "d01"},
			"t2": {"d10", "d05", "d09"},
			"t3": {"d05", "d06", "d02"},
		}},
	} {
		for k, w := range c.at {
			rep, err := IR(s, IROptions{K: k, Runs: []string{c.run}})
			if err != nil {
				t.Fatal(err)
			}
			b := rep.Runs[c.run].Before
			if b.Queries != 3 {
				t.Errorf("%s@%d: %d queries, want 3", c.run, k, b.Queries)
			}
			wantIR(t, c.run+" recall@"+itoa(k), b.Recall, w.recall)
			wantIR(t, c.run+" P@"+itoa(k), b.Precision, w.precision)
			wantIR(t, c.run+" nDCG@"+itoa(k), b.NDCG, w.ndcg)
			if k == 10 {
				wantIR(t, c.run+" MRR@10", b.MRR, c.mrr)
			}
		}
		got := map[string][]string{}
		err := s.Read(func(rx *store.ReadTx) error {
			var lists []store.RunExport
			err := rx.EachRunExport(func(l store.RunExport) error { lists = append(lists, l); return nil })
			for _, l := range lists {
				if l.Run == c.run {
					got[l.Query] = l.Docs
				}
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, c.tops) {
			t.Errorf("%s: rankings %v, want %v", c.run, got, c.tops)
		}
	}
}
