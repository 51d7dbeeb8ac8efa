package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui"
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
back; r reads again now; q quits.

Once an annotator has the role lead (annotate annotator set NAME --role
lead), only a lead may open it (--as). Over annotate serve, a lead's key
opens it with: ssh -t HOST dashboard.`,
			Example: "  annotate dashboard --as ana\n  annotate dashboard --db campaign.db --as ana",
			Args:    cobra.NoArgs,
			RunE: g.withDB(func(cmd *cobra.Command, args []string, s *store.Store) error {
				if g.as == "" {
					return fmt.Errorf("no lead: pass --as NAME (or set ANNOTATE_USER)")
				}
				roles, err := s.Roles()
				if err != nil {
					return err
				}
				if err := report.CheckDashboardRole(roles, g.as); err != nil {
					return err
				}
				if err := needTerminal(); err != nil {
					return err
				}
				g.useColorMode()
				ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
				defer stop()
				return tui.RunDashboard(ctx, tui.Options{Store: s, Annotator: g.as, Terminal: rawTerminal()})
			}),
		}
	})
}
