package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/annotate-dev/annotate/demo"
	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

func init() {
	register(func(g *globals) *cobra.Command {
		var o tuiFlags
		var keep bool
		cmd := &cobra.Command{
			Use:   "demo",
			Short: "Open the annotation screens on a fresh database seeded with the embedded sample",
			Long: `demo creates a temporary database, imports the embedded sample (GDPR in
English, the Code civil in French: QA pairs, context paragraphs and claims
with RefChecker predictions; a made-up Canadian case-law set: queries,
decisions, four retrieval runs, graded qrels and a relevance pool) and opens
the annotation screens. The database
is removed on exit unless --keep, which prints the command that reopens it.

With --db PATH the sample is seeded into PATH instead, which is kept: PATH
must not exist yet (or be a database with no items); a database that holds
data is refused, never mixed with the sample.`,
			Example: "  annotate demo\n  annotate demo --as jo --kind claim --keep\n  annotate demo --db sample.db",
			Args:    cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				d, err := openDemo(g.db, cmd.Flags().Changed("db"))
				if err != nil {
					return err
				}
				who := g.as
				if who == "" {
					who = "demo"
				}
				defer func() {
					d.s.Close()
					if d.temp && !keep {
						os.RemoveAll(filepath.Dir(d.path))
						return
					}
					fmt.Fprint(cmd.ErrOrStderr(), keptMessage(g.errorPrinter(), d.path, who))
				}()
				// The demo's database is its own: the names its flags give
				// (--batch, --suggest) are checked against it.
				language := g.language(d.s, who)
				if err := g.checkNamedFlags(cmd, d.s); err != nil {
					return err
				}
				g.useColorMode()
				return o.run(cmd, g, d.s, who, "demo", language)
			},
		}
		o.add(cmd)
		cmd.Flags().BoolVar(&keep, "keep", false, "keep the demo database and print the command that reopens it")
		return cmd
	})
}

// keptMessage says where the demo database is and how to reopen it, as a
// command that can be pasted into a shell.
func keptMessage(l *lang.Printer, path, who string) string {
	return l.Sprintf("demo database kept at %s; reopen it with:", path) + "\n  annotate --db " + shellQuote(path) + " --as " + shellQuote(who) + "\n"
}

// demoDB is the database the demo runs on.
type demoDB struct {
	s    *store.Store
	path string
	temp bool // in a temporary folder of its own, removed unless --keep
}

// openDemo seeds the sample into a new temporary database, or into the
// database the user named with --db if it is new or holds no items.
func openDemo(dbFlag string, named bool) (demoDB, error) {
	if !named {
		dir, err := os.MkdirTemp("", "annotate-demo-")
		if err != nil {
			return demoDB{}, err
		}
		path := filepath.Join(dir, "demo.db")
		s, err := seedDemo(path)
		if err != nil {
			os.RemoveAll(dir)
			return demoDB{}, err
		}
		return demoDB{s: s, path: path, temp: true}, nil
	}
	_, statErr := os.Stat(dbFlag)
	existed := statErr == nil
	if existed {
		s, err := store.Open(dbFlag)
		if err != nil {
			return demoDB{}, lang.Errorf("--db %s: %w", dbFlag, err)
		}
		x, err := s.Snapshot()
		if err != nil {
			s.Close()
			return demoDB{}, err
		}
		qa, claims, err := x.ExportCounts(true)
		x.Close()
		s.Close()
		if err != nil {
			return demoDB{}, err
		}
		if qa+claims > 0 {
			return demoDB{}, lang.Errorf("--db %s already holds data (%s, %s): the demo seeds a new database; give a path that does not exist, or open this one with annotate --db %s",
				dbFlag, lang.Count("%d QA pairs", qa), lang.Count("%d claims", claims), shellQuote(dbFlag))
		}
	} else if !errors.Is(statErr, os.ErrNotExist) {
		return demoDB{}, lang.Errorf("--db %s: %w", dbFlag, statErr)
	}
	s, err := seedDemo(dbFlag)
	if err != nil {
		if !existed { // leave nothing behind that the user did not have
			for _, suffix := range []string{"", "-wal", "-shm"} {
				os.Remove(dbFlag + suffix)
			}
		}
		return demoDB{}, err
	}
	return demoDB{s: s, path: dbFlag}, nil
}

// seedDemo creates a database at path holding the embedded sample.
func seedDemo(path string) (*store.Store, error) {
	s, err := openTaxonomy(store.Open(path))
	if err != nil {
		return nil, err
	}
	for _, f := range demo.Files() {
		if _, err := importer.ImportReader(s, f.Name, f.Data, importer.Options{Format: f.Format}); err != nil {
			s.Close()
			return nil, lang.Errorf("seeding the demo: %w", err)
		}
	}
	if err := demo.Setup(s); err != nil {
		s.Close()
		return nil, lang.Errorf("seeding the demo: %w", err)
	}
	return s, nil
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// shellQuote quotes a word for a POSIX shell, so the printed command can be
// pasted as is.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
