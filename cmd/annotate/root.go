package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// globals are the flags every command has.
type globals struct {
	// pragmas are the connection settings a command opens the database
	// with beyond store.Open's (export: exporter.ReadPragmas).
	pragmas []string
	db      string
	as      string
	json    bool
	// asFlag is --as, to tell a name given from the $USER fallback.
	asFlag *pflag.Flag
	// color is --color (never, auto or always), after the environment and
	// the config file.
	color string
	// cmd is the command running (set before it runs): the names its flags
	// give are checked once the database is open (checkNamedFlags).
	cmd *cobra.Command
	// config is the config file read (nil: none) and configErr why it could
	// not be, reported when a command runs.
	config    *config
	configErr error
	// langFlag is --lang; spoken the language chosen for the annotator once
	// their preference is read (language.go), that errors are said in.
	langFlag, spoken string
}

// commands registers the constructors of the subcommands; each file adds its
// own in an init function, so commands can be added without touching this one.
var commands []func(g *globals) *cobra.Command

func register(f func(g *globals) *cobra.Command) { commands = append(commands, f) }

// newRoot makes the command tree and the globals its flags set.
func newRoot() (*cobra.Command, *globals) {
	g := &globals{}
	g.config, g.configErr = loadConfig()
	cfg := g.config
	if cfg == nil {
		cfg = &config{}
	}
	root := &cobra.Command{
		Use:   "annotate",
		Short: "Annotate and review legal RAG benchmarks in the terminal",
		Long: `annotate validates generated question-answer pairs and the claims extracted
from their answers, one keystroke per decision, into one SQLite file; then
measures RefChecker against the expert labels, computes inter-annotator
agreement, adjudicates and publishes a Hugging Face dataset.

Run "annotate demo" to try it on the embedded sample.

` + configHelp,
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// Precedence: the flag, then the environment, then the config file,
	// then the built-in default.
	root.PersistentFlags().StringVar(&g.db, "db", envOr("ANNOTATE_DB", or(cfg.DB, "annotate.db")), "database file ($ANNOTATE_DB, config db)")
	root.PersistentFlags().StringVar(&g.as, "as", envOr("ANNOTATE_USER", or(cfg.Annotator, os.Getenv("USER"))), "annotator name ($ANNOTATE_USER, config annotator, else $USER)")
	g.asFlag = root.PersistentFlags().Lookup("as")
	addLangFlag(root, g)
	root.PersistentFlags().StringVar(&g.color, "color", envOr("ANNOTATE_COLOR", or(cfg.Color, "auto")), "colour: never, auto or always ($ANNOTATE_COLOR, config color; NO_COLOR is honoured by auto)")
	root.SetVersionTemplate("annotate {{.Version}}\n")
	for _, f := range commands {
		root.AddCommand(f(g))
	}
	addJSONFlags(root, g)
	addTUIFlags(root, g)
	addTaxonomyFlag(root, g)
	rejectUnknownCommands(root)
	root.SetFlagErrorFunc(flagErrorInWords)
	registerCompletions(root, g)
	return root, g
}

// or is value, or def when value is empty.
func or(value, def string) string {
	if value != "" {
		return value
	}
	return def
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// openExisting opens the database and refuses to create a new, empty one:
// a report on a mistyped path should say so, not print zeros.
func (g *globals) openExisting() (*store.Store, error) {
	if _, err := os.Stat(g.db); err != nil {
		return nil, &noDBError{path: g.db}
	}
	s, err := openTaxonomy(store.OpenWith(g.db, g.pragmas...))
	if err != nil || g.cmd == nil {
		return s, err
	}
	g.language(s, g.as) // the errors from here on are said in the annotator's language
	if err := g.checkNamedFlags(g.cmd, s); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// withDB wraps a command body that reads or writes the existing database:
// it opens the database for the body and closes it when the body returns.
func (g *globals) withDB(run func(cmd *cobra.Command, args []string, s *store.Store) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		s, err := g.openExisting()
		if err != nil {
			return err
		}
		defer s.Close()
		// Another process's long write (an import) is waited for, and said
		// so, rather than failing after the busy timeout.
		return s.Retry(cmd.Context(), g.sayWaiting(cmd, s), func() error { return run(cmd, args, s) })
	}
}

// sayWaiting prints, once, that the command waits for another process's
// write to the database.
func (g *globals) sayWaiting(cmd *cobra.Command, s *store.Store) func() {
	return func() { fmt.Fprintln(cmd.ErrOrStderr(), "annotate: "+s.WaitingMessage(g.errorPrinter())) }
}

type noDBError struct{ path string }

func (e *noDBError) Error() string { return e.SayIn(nil) }

// SayIn is the error in a reader's language (lang.Say).
func (e *noDBError) SayIn(p *lang.Printer) string {
	return p.Sprintf("no database at %s (import data first, or pass --db PATH)", e.path)
}

// oneLine keeps an error's text on one line for stderr.
func oneLine(msg string) string {
	// Only the ASCII blanks: French's no-break spaces (before : ; ? !, inside
	// « ») stay where the message put them.
	blank := func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }
	return strings.Join(strings.FieldsFunc(msg, blank), " ")
}
