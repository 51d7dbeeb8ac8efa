package main

import (
	"fmt"
	"strings"

	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

func init() {
	register(func(g *globals) *cobra.Command {
		var o report.IROptions
		var runs string
		cmd := &cobra.Command{
			Use:   "ir",
			Short: "Retrieval metrics of the runs before and after the experts' relevance judgments",
			Long: `ir scores each run (TREC runs imported with --format trec-run) at cutoff --k:
recall@k, precision@k and nDCG@k as trec_eval's recall_k, P_k and ndcg_cut_k
(gain = the relevance grade, discount log2(rank+1), the ideal ranking from
every known relevant document of the query), and MRR@k (1/rank of the first
relevant document within k, else 0). Averages are macro over the queries the
runs retrieved for that have at least one relevant document; the others are
counted and named. A run with nothing for one of those queries scores 0 on it.

Before: the gold set (qrels of annotator gold, or --gold NAME). After: the
gold set plus the documents an expert judged relevant (--annotator NAME or
--adjudicated; with neither, the only annotator with labels); with
--expert-overrides the expert's judgment of a gold document replaces it (a
gold document judged not relevant is dropped). Then the difference, and the
runs ranked by --rank-by before and after, with Kendall's tau and the pairs
that swapped. --by persona|jurisdiction|issue breaks the scores down by the
queries' attribute (the paper's Table 4); --pooled keeps only the queries of
relevance pools (the subset the experts judged, as the paper's Fig. 3).
Statistics with nothing to count are null in --json and — in text.

--definitions canlegalragbench scores the runs as the benchmark's own
evaluation/metrics.py does, on the chunk-level lists (the document of every
retrieved chunk, repeats included): recall_at_k (relevant chunks in the top
k over the relevant documents: it counts chunks and can exceed 1),
doc_recall_at_k, precision_at_k (over the unique documents of the top k
chunks), hit_at_k, mrr (over the whole deduplicated list, not cut at k) and
ndcg_at_k (binary, the ideal cut at the unique documents retrieved), macro
means over the usable queries: those with a reference answer (an accepted
gold answer) and at least one relevant document. The JSON keys are the
benchmark's names; --rank-by takes them too.`,
			Example: `  annotate ir
  annotate ir --k 10 --runs qwen,gemini --by jurisdiction
  annotate ir --pooled --annotator jo --json
  annotate ir --adjudicated --expert-overrides
  annotate ir --definitions canlegalragbench --k 5`,
			Args: cobra.NoArgs,
			RunE: g.withDB(func(cmd *cobra.Command, args []string, s *store.Store) error {
				if cmd.Flags().Changed("runs") {
					var err error
					if o.Runs, err = parseNames("--runs", runs); err != nil {
						return err
					}
				}
				switch o.Definitions {
				case report.DefinitionsCLRB:
					rep, err := store.ReadWith(s, report.IRCLRB, o)
					if err != nil {
						return err
					}
					return printReport(cmd.OutOrStdout(), g.json, rep, rep.WriteText)
				case report.DefinitionsTrecEval:
				default:
					return fmt.Errorf("--definitions %q: want %s or %s", o.Definitions, report.DefinitionsTrecEval, report.DefinitionsCLRB)
				}
				rep, err := store.ReadWith(s, report.IR, o)
				if err != nil {
					return err
				}
				return printReport(cmd.OutOrStdout(), g.json, rep, rep.WriteText)
			}),
		}
		f := cmd.Flags()
		f.IntVar(&o.K, "k", 10, "cutoff: the top k documents of each run count")
		f.StringVar(&runs, "runs", "", "comma-separated runs (default: every run)")
		f.StringVar(&o.By, "by", "", "break down by a query attribute: "+strings.Join(report.IRByAttrs, ", "))
		f.StringVar(&o.Gold, "gold", "gold", "the annotator whose qrels are the gold set")
		f.BoolVar(&o.ExpertOverrides, "expert-overrides", false, "an expert's judgment of a gold document replaces it (not relevant: dropped)")
		f.BoolVar(&o.Pooled, "pooled", false, "only the queries of relevance pools (the subset the experts judged)")
		f.StringVar(&o.RankBy, "rank-by", "ndcg", "the metric the runs are ranked by: "+strings.Join(report.IRMetrics, ", ")+" (canlegalragbench: its names)")
		f.StringVar(&o.Definitions, "definitions", report.DefinitionsTrecEval, "the metrics' definitions: "+report.DefinitionsTrecEval+" or "+report.DefinitionsCLRB+" (the benchmark's evaluation/metrics.py)")
		addSelectionFlags(cmd, &o.Selection)
		return cmd
	})
}
