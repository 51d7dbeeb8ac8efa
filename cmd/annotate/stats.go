package main

import (
	"io"

	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

func init() {
	register(func(g *globals) *cobra.Command {
		var sel report.Selection
		cmd := &cobra.Command{
			Use:   "stats",
			Short: "Dataset statistics per source, the paper's Table 1",
			Long: `stats counts, per source and overall: QA pairs imported, judged
(question_validity) and valid; persona and category over valid pairs; answers
with claims; extracted claims, judged and valid (correct); entailment,
neutral and contradiction over valid claims.

Labels come from --annotator NAME or --adjudicated; with neither, from the
only annotator. A label whose field is not asked (the persona of an invalid
question, the entailment of an incorrect claim) never counts, and values
outside the label schema are left out; both are listed at the end.`,
			Example: "  annotate stats\n  annotate stats --annotator jo --json\n  annotate stats --adjudicated",
			Args:    cobra.NoArgs,
			RunE: g.withDB(func(cmd *cobra.Command, args []string, s *store.Store) error {
				rep, err := store.ReadWith(s, report.Stats, sel)
				if err != nil {
					return err
				}
				return printReport(cmd.OutOrStdout(), g.json, rep, rep.WriteText)
			}),
		}
		addSelectionFlags(cmd, &sel)
		return cmd
	})
}

// addSelectionFlags adds --annotator and --adjudicated, shared by the reports.
func addSelectionFlags(cmd *cobra.Command, sel *report.Selection) {
	cmd.Flags().StringVar(&sel.Annotator, "annotator", "", "report on this annotator's labels")
	cmd.Flags().BoolVar(&sel.Adjudicated, "adjudicated", false, "report on the adjudicated labels")
}

// printReport writes a report as JSON (--json, one line) or as text.
func printReport(w io.Writer, asJSON bool, rep any, text func(io.Writer) error) error {
	if !asJSON {
		return text(w)
	}
	return writeJSON(w, rep)
}
