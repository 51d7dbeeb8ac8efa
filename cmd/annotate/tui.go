package main

import (
	"context"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/internal/proc"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
)

// addTUIFlags makes the bare command open the annotation screens.
func addTUIFlags(root *cobra.Command, g *globals) {
	var o tuiFlags
	o.add(root)
	root.Example = `  annotate --as jo                  # home screen
  annotate --as jo --kind qa        # straight into the QA queue
  annotate --as jo --batch pilot    # straight into a batch
  annotate --as jo --suggest refchecker  # refchecker's predictions preselected`
	root.Args = cobra.NoArgs
	root.RunE = func(cmd *cobra.Command, args []string) error {
		s, err := g.openExisting()
		if err != nil {
			return err
		}
		defer s.Close()
		g.useColorMode()
		return o.run(cmd, g, s, g.as, "local", g.language(s, g.as))
	}
}

type tuiFlags struct {
	batch, kind  string
	sessionLimit time.Duration
	claimsLater  bool
	suggest      string
}

func (o *tuiFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&o.batch, "batch", "", "open this batch's queue")
	cmd.Flags().StringVar(&o.kind, "kind", "", "open a queue straight away: "+strings.Join(tui.Kinds(), " or "))
	cmd.Flags().DurationVar(&o.sessionLimit, "session-limit", 2*time.Hour, "remind to take a break after this much active time")
	cmd.Flags().StringVar(&o.suggest, "suggest", "", "preselect this system's predictions (enter accepts them); each label made so records it, and metrics keeps those labels apart")
	cmd.Flags().BoolVar(&o.claimsLater, "claims-later", false, "leave an answer's claims in the claim queue rather than asking them right after it is judged correct")
}

// needTerminal reports an error when standard input or output is not a
// terminal, the screens' condition.
func needTerminal() error {
	var not []string
	if !term.IsTerminal(os.Stdin.Fd()) {
		not = append(not, "input")
	}
	if !term.IsTerminal(rawTerminal().Fd()) {
		not = append(not, "output")
	}
	switch len(not) {
	case 1:
		if not[0] == "input" {
			return lang.Errorf("the screens need a terminal: the standard input is not one (the reports and other commands work without: annotate --help)")
		}
		return lang.Errorf("the screens need a terminal: the standard output is not one (the reports and other commands work without: annotate --help)")
	case 2:
		return lang.Errorf("the screens need a terminal: the standard input and output are not terminals (the reports and other commands work without: annotate --help)")
	}
	return nil
}

// useColorMode makes the screens follow --color: never is NO_COLOR (plain
// styles), always forces colour even where the terminal is not detected as
// having any.
func (g *globals) useColorMode() {
	switch g.color {
	case "never":
		os.Setenv("NO_COLOR", "1")
	case "always":
		os.Unsetenv("NO_COLOR")
		os.Setenv("CLICOLOR_FORCE", "1")
	}
}

func (o *tuiFlags) run(cmd *cobra.Command, g *globals, s *store.Store, annotator, client, language string) error {
	if annotator == "" {
		return lang.Errorf("no annotator: pass --as NAME (or set ANNOTATE_USER)")
	}
	isNew, err := checkIdentity(s, "--as", annotator)
	if err != nil && client == "demo" {
		// The sample's own names (gold, …) are nobody the user could mean.
		isNew, err = true, checkAnnotator("--as", annotator)
	}
	if err != nil {
		return err
	}
	// --kind, --batch and --suggest were checked before (checkClosedFlags,
	// checkNamedFlags): the batch says which queue it is of.
	kind := o.kind
	if o.batch != "" {
		bs, err := s.Batches()
		if err != nil {
			return err
		}
		for _, b := range bs {
			if b.Name == o.batch {
				kind = b.Kind
			}
		}
	}
	// One live screen per annotator and database, shared with annotate
	// serve's sessions: a second one is refused, naming where the first runs.
	lock, err := acquireScreen(cmd, g, s, annotator, "")
	if err != nil {
		return err
	}
	defer lock.Release()
	// Without a terminal the screens cannot start (a second screen of the
	// annotator is refused first, naming the first): say so on stderr and
	// write nothing on stdout (not even the window-title sequences).
	if err := needTerminal(); err != nil {
		return err
	}
	// SIGTERM and SIGHUP end the program cleanly; decisions are committed as
	// they are made, so there is nothing left to save.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	return tui.Run(ctx, tui.Options{Store: s, Annotator: annotator, Batch: o.batch, Kind: kind, Client: client, SessionLimit: o.sessionLimit,
		Terminal: rawTerminal(), ClaimsLater: o.claimsLater, NewAnnotator: isNew, Suggest: o.suggest, Lang: language})
}

// acquireScreen takes the lease of annotator's screen of a sort ("": the
// annotation screens; "review"), waiting for a long writer and saying so:
// a second screen is refused, naming where the first runs. The annotation
// screens wait for the write lock only; the review, which reads what an
// import brings, for an import in progress to be done.
func acquireScreen(cmd *cobra.Command, g *globals, s *store.Store, annotator, sort string) (*store.ScreenLease, error) {
	var l *store.ScreenLease
	retry := s.RetryLock
	if sort != "" {
		retry = s.Retry
	}
	err := retry(contextOf(cmd), g.sayWaiting(cmd, s), func() (err error) {
		l, err = s.AcquireScreen(annotator, sort, proc.Terminal())
		return err
	})
	return l, err
}

// acquireScreenQuietly is acquireScreen from inside a running screen.
func acquireScreenQuietly(ctx context.Context, s *store.Store, annotator, sort string) (*store.ScreenLease, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	var l *store.ScreenLease
	err := s.Retry(ctx, nil, func() (err error) {
		l, err = s.AcquireScreen(annotator, sort, proc.Terminal())
		return err
	})
	return l, err
}

// contextOf is the command's context, or the background one when the
// command was not started with one.
func contextOf(cmd *cobra.Command) context.Context {
	if ctx := cmd.Context(); ctx != nil {
		return ctx
	}
	return context.Background()
}
