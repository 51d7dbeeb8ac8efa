package tui

import (
	"context"
	"errors"
	"io"

	tea "charm.land/bubbletea/v2"
)

// RunDashboard runs the lead's dashboard until the lead quits (or ctx
// ends). It records no session: the dashboard writes nothing.
func RunDashboard(ctx context.Context, opt Options, progOpts ...tea.ProgramOption) error {
	if opt.Store == nil {
		return errors.New("tui: no store")
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
	return err
}
