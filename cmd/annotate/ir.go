package main

import (
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
Statistics with nothing to count are null in --json and — in text.`,
			Example: `  annotate ir
  annotate ir --k 10 --runs qwen,gemini --by jurisdiction
  annotate ir --pooled --annotator jo --json
  annotate ir --adjudicated --expert-overrides`,
			Args: cobra.NoArgs,
			RunE: g.withDB(func(cmd *cobra.Command, args []string, s *store.Store) error {
				if cmd.Flags().Changed("runs") {
					var err error
					if o.Runs, err = parseNames("--runs", runs); err != nil {
						return err
					}
				}
				rep, err := report.IR(s, o)
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
		f.StringVar(&o.RankBy, "rank-by", "ndcg", "the metric the runs are ranked by: "+strings.Join(report.IRMetrics, ", "))
		addSelectionFlags(cmd, &o.Selection)
		return cmd
	})
}
