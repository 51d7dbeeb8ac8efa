package main

import (
	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

func init() {
	register(func(g *globals) *cobra.Command {
		var o report.AgreementOptions
		cmd := &cobra.Command{
			Use:   "agreement",
			Short: "Inter-annotator agreement per field",
			Long: `agreement compares the annotators' labels, field by field: items
labelled by at least two of them; mean pairwise percent agreement; Cohen's
kappa per pair (items both labelled) with its confusion matrix; Fleiss' kappa
(items labelled by all of them) and per class; Krippendorff's alpha, nominal
(every item with two labels or more); Gwet's AC1.

A field on an ordinal scale (a graded pool's relevance_grade: 0 < 1 < 2) or
an interval one also gets the statistics that weigh a disagreement by how far
apart the two values are: Krippendorff's alpha with the ordinal (or interval)
metric, the share of label pairs within one step of each other, and per pair
Cohen's kappa with linear and quadratic weights. An ordinal field's values
are ranked in the order the field declares them; an interval field's values
are read as numbers.

A label counts for an annotator only if its field is asked given that
annotator's own labels (no persona of a question they judged invalid, no
entailment of a claim they judged incorrect); values outside the label
schema are left out and counted.`,
			Example: "  annotate agreement\n  annotate agreement --annotators jo,sam --field entailment --disagreements\n  annotate agreement --ci --json",
			Args:    cobra.NoArgs,
			RunE: g.withDB(func(cmd *cobra.Command, args []string, s *store.Store) error {
				rep, err := store.ReadWith(s, report.Agreement, o)
				if err != nil {
					return err
				}
				return printReport(cmd.OutOrStdout(), g.json, rep, rep.WriteText)
			}),
		}
		cmd.Flags().StringSliceVar(&o.Annotators, "annotators", nil, "compare these annotators (comma-separated; default: every annotator)")
		cmd.Flags().StringVar(&o.Field, "field", "", "only this field (default: every field)")
		cmd.Flags().BoolVar(&o.Disagreements, "disagreements", false, "list the items they disagree on, with each annotator's label")
		cmd.Flags().BoolVar(&o.ByGuidelinesVersion, "by-guidelines-version", false, "split each field's statistics by the guidelines version its labels were made under")
		cmd.Flags().BoolVar(&o.CI, "ci", false, "bootstrap 95% intervals for the kappas (weighted ones too), the alphas and AC1 (1000 seeded replicates)")
		return cmd
	})
}
