package main

import (
	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

func init() {
	register(func(g *globals) *cobra.Command {
		var o report.GenOptions
		cmd := &cobra.Command{
			Use:   "gen",
			Short: "Generated answers: accuracy, groundedness, the judge against the expert, error categories, hallucination bounds",
			Long: `gen reports on the generated answers (CanLegalRAGBench §5, Appendix E), per
system and condition:

  accuracy       claims the expert found supported by the accepted gold
                 answer / claims judged (accuracy_support), Wilson 95%;
  groundedness   claims grounded in the documents the answer used / claims
                 judged (grounded), Wilson 95%;
  judge          the same rates from the automatic judge's verdicts over
                 every claim (--judge, default "judge"), and the judge
                 against the expert per field: P/R/F1, accuracy, Cohen's
                 kappa, confusion matrix;
  errors         the error categories of the categorised claims, as shares
                 of claims and of assignments (a claim may have several:
                 25 claims, one in two categories, are 26 assignments), by
                 category and by group (judge_error, quality, hallucination);
  bounds         the hallucination rate lies between the hallucination
                 share of the categorised claims times the not-grounded rate
                 (lower) and the not-grounded rate (upper); the rate is the
                 judge's over every claim when it has verdicts (the paper's:
                 the categorised claims are a sample of what it flagged),
                 else the expert's (--rate-from to choose);
  lengths        mean answer length in characters, of the systems and of
                 the accepted gold answers.

--by persona|jurisdiction repeats the table per value of the query's
attribute. A statistic with nothing to count is "—" (null in JSON). Labels
come from --annotator NAME or --adjudicated; with neither, from the only
annotator who judged generated claims.`,
			Example: "  annotate gen\n  annotate gen --system gemma --condition oracle\n  annotate gen --by persona --json",
			Args:    cobra.NoArgs,
			RunE: g.withDB(func(cmd *cobra.Command, args []string, s *store.Store) error {
				rep, err := report.Gen(s, o)
				if err != nil {
					return err
				}
				return printReport(cmd.OutOrStdout(), g.json, rep, rep.WriteText)
			}),
		}
		addSelectionFlags(cmd, &o.Selection)
		f := cmd.Flags()
		f.StringVar(&o.Judge, "judge", "judge", "the system whose verdicts are the automatic judge")
		f.StringVar(&o.By, "by", "", "also per persona or per jurisdiction of the query")
		f.StringVar(&o.System, "system", "", "only this system")
		f.StringVar(&o.Condition, "condition", "", "only this condition (oracle or pipeline)")
		f.StringVar(&o.RateFrom, "rate-from", "", "the not-grounded rate of the bounds: judge or expert (default: judge when it has verdicts)")
		return cmd
	})
	register(func(g *globals) *cobra.Command {
		return &cobra.Command{
			Use:   "cost",
			Short: "What the annotation cost: per annotator and task, items, active and session hours, cost",
			Long: `cost reports, per annotator and task kind, the items done, the active hours
(the sum of the gaps between key presses on an item, each gap counted up to
5 minutes), the session hours (wall clock; a session is shared out among the
tasks of its decisions by their active time) and the cost at the annotator's
hourly rate (annotate annotator set NAME --rate R --currency C), paid by the
session hour; minutes per item, and per query for tasks whose items belong to
a query (relevance judgments); totals, per currency when there are several.
The lead's adjudications and reviews are the task "review".`,
			Example: "  annotate annotator set jo --rate 20 --currency CAD --role student\n  annotate cost\n  annotate cost --json",
			Args:    cobra.NoArgs,
			RunE: g.withDB(func(cmd *cobra.Command, args []string, s *store.Store) error {
				rep, err := report.Cost(s)
				if err != nil {
					return err
				}
				return printReport(cmd.OutOrStdout(), g.json, rep, rep.WriteText)
			}),
		}
	})
}
