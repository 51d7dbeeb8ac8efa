package main

import (
	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

func init() {
	register(func(g *globals) *cobra.Command {
		var o report.RAGOptions
		var systems string
		cmd := &cobra.Command{
			Use:   "rag",
			Short: "RAGChecker's 11 metrics per system and source (ClaimRAG-LAW Table 2), automatic and over expert-validated ground-truth claims",
			Long: `rag recomputes RAGChecker's metrics from the claim × chunk matrices of the
imported checking outputs (answer2response, response2answer,
retrieved2response, retrieved2answer), exactly as RAGChecker's
computation.py: a verdict counts only when it is exactly "Entailment"; each
result is scored, then the results are averaged.

  overall    precision, recall, F1 (per result, then the mean);
  retriever  claim recall, context precision;
  generator  context utilization, noise sensitivity in relevant and in
             irrelevant chunks, hallucination, self-knowledge, faithfulness.

A row per system (import --system NAME; default the file's name) and source
(import --source NAME; default the file's name), then the system over all
its sources, laid out like ClaimRAG-LAW's Table 2, in percent with one
decimal; --json gives fractions.

--expert NAME recomputes every metric without the ground-truth answer
claims (items <source>/<query_id>-g<n>) that NAME judged incorrect
(claim_validity), beside the automatic figures, with the difference and the
number of claims removed. Claims NAME has not judged stay. --adjudicated
does the same with the adjudicated labels.`,
			Example: "  annotate rag\n  annotate rag --expert jo\n  annotate rag --systems bm25_gpt4,e5_gpt4 --json",
			Args:    cobra.NoArgs,
			RunE: g.withDB(func(cmd *cobra.Command, args []string, s *store.Store) error {
				if cmd.Flags().Changed("systems") {
					var err error
					if o.Systems, err = parseNames("--systems", systems); err != nil {
						return err
					}
				}
				rep, err := store.ReadWith(s, report.RAG, o)
				if err != nil {
					return err
				}
				return printReport(cmd.OutOrStdout(), g.json, rep, rep.WriteText)
			}),
		}
		f := cmd.Flags()
		f.StringVar(&o.Expert, "expert", "", "also the figures without the ground-truth claims this annotator judged incorrect")
		f.BoolVar(&o.Adjudicated, "adjudicated", false, "as --expert, with the adjudicated labels")
		f.StringVar(&systems, "systems", "", "comma-separated systems (default: every system)")
		return cmd
	})
}
