package tui

import (
	"context"
	"errors"
	"io"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// RunDashboard runs the lead's dashboard until the lead quits (or ctx
// ends). It records no session: the dashboard writes nothing. With
// opt.ReviewOnQuit, a panel's review ends it and is returned.
func RunDashboard(ctx context.Context, opt Options, progOpts ...tea.ProgramOption) (*ReviewRequest, error) {
	if opt.Store == nil {
		return nil, errors.New("tui: no store")
	}
	opt.Dashboard = true
	m := New(opt)
	opts := []tea.ProgramOption{tea.WithContext(ctx)}
	if opt.Terminal != nil {
		opts = append(opts, tea.WithOutput(opt.Terminal))
		io.WriteString(opt.Terminal, SaveTitle)
	}
	_, err := tea.NewProgram(m, append(opts, progOpts...)...).Run()
	if opt.Terminal != nil {
		io.WriteString(opt.Terminal, RestoreTitle)
	}
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		err = nil // the context ended the program (an SSH disconnect)
	}
	return m.review, err
}

// Review is the review the dashboard ended for (Options.ReviewOnQuit), nil
// if it did not.
func (m *Model) Review() *ReviewRequest { return m.review }

// openReview opens the review a dashboard panel asked for: by ending the
// dashboard when the caller runs review (ReviewOnQuit), else by saying on
// the status line which command does (over SSH, review is not served).
// Once review is a screen of the root, this is where it opens.
func (m *Model) openReview(req ReviewRequest) tea.Cmd {
	if m.e.reviewExit {
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
