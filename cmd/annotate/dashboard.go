package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui"
	"github.com/annotate-dev/annotate/tui/adjudicate"
)

func init() {
	register(func(g *globals) *cobra.Command {
		return &cobra.Command{
			Use:   "dashboard",
			Short: "The lead's live, read-only view: progress, labels per day, cost, agreement, confusion heatmaps, IR, error split",
			Long: `dashboard opens the lead's live view of the campaign: progress per
annotator and batch (bars), labels and active hours per day over the last
14 days (sparklines), the cost so far, the agreement per field
(Krippendorff's alpha and Fleiss' kappa, the numbers "annotate agreement"
prints, with their Landis–Koch band), confusion heatmaps (annotator against
annotator, expert against system), retrieval before and after the experts'
judgments per run, and the split of the generated claims' errors.

It reads the database again every 3 seconds, so labels show as they
arrive; it writes nothing and records no session. tab, shift+tab and the
arrows move between panels; enter opens the focused panel's detail, the
text of the matching command (agreement, metrics, ir, gen, cost); esc comes
back; r reads again now; q quits. On a heatmap, enter opens review on its
disagreements (as annotate review would) and q there comes back.

Only a lead opens it (--as NAME, an annotator with the role lead:
annotate annotator add NAME --lead). Over annotate serve, a lead's key
opens it with: ssh -t HOST dashboard.`,
			Example: "  annotate dashboard --as ana\n  annotate dashboard --db campaign.db --as ana",
			Args:    cobra.NoArgs,
			RunE: g.withDB(func(cmd *cobra.Command, args []string, s *store.Store) error {
				if _, err := g.needLead(s, "annotate dashboard"); err != nil {
					return err
				}
				if err := needTerminal(); err != nil {
					return err
				}
				g.useColorMode()
				ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
				defer stop()
				// A heatmap's enter opens review inside the dashboard's
				// program; quitting review comes back to the dashboard.
				return tui.Run(ctx, tui.Options{Store: s, Annotator: g.as, Terminal: rawTerminal(), Start: tui.Dashboard(reviewOpener(cmd, g, s))})
			}),
		}
	})
}

// reviewOpener prepares the review a dashboard panel asks for, as
// `annotate review --field F` or `annotate review --system S --annotator
// E` (or --adjudicated) would: the same lead, the same annotators compared,
// the same lock, released when the review closes.
func reviewOpener(cmd *cobra.Command, g *globals, s *store.Store) tui.ReviewOpener {
	return func(req tui.ReviewRequest) (adjudicate.Options, func(), error) {
		lead, err := g.needLead(s, "annotate review, opened from the dashboard,")
		if err != nil {
			return adjudicate.Options{}, nil, err
		}
		o := reviewFlags{field: req.Field, system: req.System, annotator: req.Expert, adjudicated: req.Adjudicated}
		systemView := req.System != ""
		if !systemView {
			o.system, o.annotator = report.DefaultSystem, ""
		}
		opt, err := o.options(cmd, s, lead, systemView)
		if err != nil {
			return opt, nil, err
		}
		// The review opens inside the running screen: nothing is printed
		// while it waits for a writer.
		lock, err := acquireScreenQuietly(cmd.Context(), s, lead, "review")
		if err != nil {
			return opt, nil, err
		}
		return opt, func() { lock.Release() }, nil
	}
}
