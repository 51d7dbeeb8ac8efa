package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/annotate-dev/annotate/demo"
	"github.com/annotate-dev/annotate/importer"
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
with RefChecker predictions) and opens the annotation screens. The database
is removed on exit unless --keep.`,
			Example: "  annotate demo\n  annotate demo --as jo --kind claim --keep",
			Args:    cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				dir, err := os.MkdirTemp("", "annotate-demo-")
				if err != nil {
					return err
				}
				path := filepath.Join(dir, "demo.db")
				s, err := seedDemo(path)
				if err != nil {
					os.RemoveAll(dir)
					return err
				}
				defer func() {
					s.Close()
					if keep {
						fmt.Fprintf(cmd.ErrOrStderr(), "demo database kept at %s\n", path)
					} else {
						os.RemoveAll(dir)
					}
				}()
				who := g.as
				if who == "" {
					who = "demo"
				}
				return o.run(s, who, "demo")
			},
		}
		o.add(cmd)
		cmd.Flags().BoolVar(&keep, "keep", false, "keep the demo database and print its path on exit")
		return cmd
	})
}

// seedDemo creates a database at path holding the embedded sample.
func seedDemo(path string) (*store.Store, error) {
	s, err := store.Open(path)
	if err != nil {
		return nil, err
	}
	if _, err := importer.ImportReader(s, demo.FileName, demo.JSONL(), importer.Options{}); err != nil {
		s.Close()
		return nil, fmt.Errorf("seeding the demo: %w", err)
	}
	return s, nil
}
