package tui

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// Dashboard starts on the lead's dashboard (`annotate dashboard`). It
// records no session: it writes nothing. With reviewOnQuit, a heatmap's
// review ends the program, its request in Model.Review, for the caller to
// run review and the dashboard again; without (over SSH, where review is
// not served), the status line names the command.
func Dashboard(reviewOnQuit bool) Screen { return dashboardStart{reviewOnQuit} }

type dashboardStart struct{ reviewOnQuit bool }

func (s dashboardStart) open(e *env) (ui.Child, tea.Cmd) {
	d := newDashboard(e)
	d.reviewOnQuit = s.reviewOnQuit
	return d, d.refresh()
}

// RunDashboard runs the lead's dashboard until the lead quits (or ctx
// ends) and returns the review it ended for, if any (opt.Start is set to
// Dashboard(true)).
func RunDashboard(ctx context.Context, opt Options, progOpts ...tea.ProgramOption) (*ReviewRequest, error) {
	if opt.Store == nil {
		return nil, errors.New("tui: no store")
	}
	opt.Start = Dashboard(true)
	m := New(opt)
	err := run(ctx, m, opt, progOpts)
	return m.review, err
}

// Review is the review the dashboard ended for, nil if it did not.
func (m *Model) Review() *ReviewRequest { return m.review }

// openReview opens the review a dashboard panel asked for: by ending the
// dashboard when its caller runs review, else by saying on the status line
// which command does. (Review is a screen of this root too; opening it
// here, and coming back to the dashboard when it quits, is the next step.)
func (m *Model) openReview(msg dashboardReviewMsg) tea.Cmd {
	req := msg.req
	if msg.exit {
		m.review = &req
		return tea.Quit
	}
	cmd := "annotate review --field " + req.Field
	if req.System != "" {
		cmd = "annotate review --system " + req.System
		if req.Adjudicated {
			cmd += " --adjudicated"
		} else {
			cmd += " --annotator " + req.Expert
		}
	}
	m.e.status = "Review is not served here: " + ui.SanitizeLine(cmd) + " opens it."
	return nil
}
