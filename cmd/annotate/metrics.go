package main

import (
	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

func init() {
	register(func(g *globals) *cobra.Command {
		var o report.MetricsOptions
		cmd := &cobra.Command{
			Use:   "metrics",
			Short: "Claim extraction accuracy and recall, and verification P/R/F1 against a system (Table 3)",
			Long: `metrics measures the automatic tools against the expert's labels, per
source and overall:

  extraction accuracy  claims labelled correct / claims with a claim_validity
                       label, with a Wilson 95% interval;
  extraction recall    over the answers judged correct that have extracted
                       claims (Sigma_A; or not under review), marked
                       missed_claims_checked: their correct extracted claims /
                       (those + the claims the expert added to them);
  verification         the system's entailment labels (--system, default
                       refchecker) against the expert's, over claims judged
                       correct with an entailment label and a prediction:
                       confusion matrix (a value outside the three classes
                       goes to a column "other"), precision, recall, F1 and
                       support per class, macro and weighted averages,
                       accuracy and Cohen's kappa;
  response level       RefChecker's own meta-evaluation (its
                       benchmark/evaluation/corr.py), over the responses the
                       expert judged a claim of: a response is factual when
                       every claim is entailed, its rate the share not
                       entailed; accuracy, Fact and NonFact F1, Pearson and
                       Spearman of the rates, expert against system. A
                       response with no claim the system judged (its
                       extractor gave none) is factual with rate 0, as in
                       corr.py. --extractor NAME keeps the system's verdicts
                       on that extractor's claims (RefChecker's
                       <NAME>_response_kg) when the checker ran on several
                       extractors' claims; without it they are pooled. An
                       extractor that found nothing (an empty
                       <NAME>_response_kg) counts on every source it ran
                       on; one that found nothing anywhere takes any
                       --system, as corr.py takes any --checker.

Labels made with a system's prediction preselected (annotate --suggest) are
anchored on it: metrics refuses to score that system against them unless
--include-suggested, and says how many labels were made so.

Each step says how many claims it left out and why. --ci adds seeded
bootstrap 95% intervals for kappa and F1. Labels come from --annotator NAME
or --adjudicated; with neither, from the only annotator.`,
			Example: "  annotate metrics\n  annotate metrics --annotator jo --system refchecker --ci\n  annotate metrics --adjudicated --json",
			Args:    cobra.NoArgs,
			RunE: g.withDB(func(cmd *cobra.Command, args []string, s *store.Store) error {
				rep, err := report.Metrics(s, o)
				if err != nil {
					return err
				}
				return printReport(cmd.OutOrStdout(), g.json, rep, rep.WriteText)
			}),
		}
		addSelectionFlags(cmd, &o.Selection)
		cmd.Flags().StringVar(&o.System, "system", report.DefaultSystem, "system whose predictions are verified")
		cmd.Flags().StringVar(&o.Extractor, "extractor", "", "response level: only the claims of this extractor (RefChecker's <NAME>_response_kg), as corr.py --extractor")
		cmd.Flags().BoolVar(&o.IncludeSuggested, "include-suggested", false, "score the system even against labels made with its prediction preselected (annotate --suggest)")
		cmd.Flags().BoolVar(&o.CI, "ci", false, "bootstrap 95% intervals for kappa and F1 (1000 seeded replicates)")
		return cmd
	})
}
