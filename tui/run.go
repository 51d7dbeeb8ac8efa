package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// Running the root model as a program: the session it records, the
// terminal's title, the end of the program.

// Run runs the TUI until the annotator quits (or ctx ends) and then ends the
// session.
func Run(ctx context.Context, opt Options, progOpts ...tea.ProgramOption) error {
	if opt.Store == nil {
		return errors.New("tui: no store")
	}
	if opt.Annotator == "" {
		return errors.New("tui: no annotator name (use --as NAME)")
	}
	if err := CheckKind(opt.Kind); err != nil {
		return fmt.Errorf("tui: %w", err)
	}
	m := New(opt)
	if opt.Start != nil {
		return run(ctx, m, opt, progOpts)
	}
	// The session starts before the program, so that it is ended however
	// soon the annotator quits.
	// Another process's long write (an import) is waited for, and said so,
	// instead of failing after the busy timeout.
	var sess store.Session
	notices := opt.Notices
	if notices == nil {
		notices = os.Stderr
	}
	// The screen waits for the write lock only: an import in progress is
	// not waited for (its items are left out until it is done).
	err := opt.Store.RetryLock(ctx, func() {
		fmt.Fprintln(notices, "annotate: "+ui.SanitizeLine(opt.Store.WaitingMessage(m.e.lang)))
	}, func() (err error) {
		sess, err = opt.Store.StartSession(opt.Annotator, m.e.client)
		return err
	})
	if err != nil {
		return err
	}
	m.e.session = sess.ID
	err = run(ctx, m, opt, progOpts)
	if lost := m.Unsaved(); len(lost) > 0 {
		// Left (ctrl+c, a signal) while decisions waited for the
		// database: the screen showed them as not saved; say which.
		fmt.Fprintln(notices, "annotate: "+m.e.lang.Sprintf("%d decisions not saved (the database was busy): %s", len(lost),
			ui.SanitizeLine(strings.Join(lost, ", "))))
	}
	endErr := opt.Store.EndSession(sess.ID)
	if store.IsBusy(endErr) {
		// Another process still writes: the session's active time is
		// recorded label by label already; only its end is not.
		fmt.Fprintln(notices, "annotate: "+m.e.lang.Sprintf("the end of the session was not recorded (the database is busy); its active time is kept."))
		endErr = nil
	}
	if endErr != nil && err == nil {
		err = endErr
	}
	return err
}

// run runs the program on m until it quits (or ctx ends), then ends the
// start screen's own session, if it has one.
func run(ctx context.Context, m *Model, opt Options, progOpts []tea.ProgramOption) error {
	opts := []tea.ProgramOption{tea.WithContext(ctx), ui.FramePacing()}
	if opt.Terminal != nil {
		opts = append(opts, tea.WithOutput(opt.Terminal))
		io.WriteString(opt.Terminal, SaveTitle)
	}
	p := tea.NewProgram(m, append(opts, progOpts...)...)
	_, err := p.Run()
	if opt.Terminal != nil {
		io.WriteString(opt.Terminal, RestoreTitle)
	}
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		err = nil // the context ended the program: a normal end (e.g. SSH disconnect)
	}
	if endErr := m.EndSession(); endErr != nil && err == nil {
		err = endErr
	}
	return err
}
