package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"charm.land/glamour/v2"
	"github.com/annotate-dev/annotate/internal/textsafe"
	"github.com/charmbracelet/x/term"

	"github.com/annotate-dev/annotate/guidelines"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

func init() {
	register(func(g *globals) *cobra.Command {
		cmd := &cobra.Command{
			Use:   "guidelines [FIELD]",
			Short: "Print the annotation guidelines (all, or one field); edit, import and list their versions",
			Long: `guidelines prints the guidelines in force in the --db database: each
field's newest version (version 1 is the text annotate embeds). Without a
database it prints the embedded text. The lead changes them with
guidelines edit FIELD or guidelines import FILE.md; every change is a new
version of its field with its author and time (guidelines history), and
every label records the version of its field it was made under.`,
			Example:   "  annotate guidelines\n  annotate guidelines entailment\n  annotate guidelines edit entailment --as lead\n  annotate guidelines history entailment",
			Args:      cobra.MaximumNArgs(1),
			ValidArgs: guidelines.Fields(),
			RunE: func(cmd *cobra.Command, args []string) error {
				if err := guidelinesTaxonomy(g); err != nil {
					return err
				}
				// The database is open while the field is looked up: its
				// declared fields have sections too.
				var cur map[string]store.GuidelineVersion
				if _, err := os.Stat(g.db); err == nil {
					s, err := store.Open(g.db)
					if err != nil {
						return err
					}
					defer s.Close()
					if cur, err = s.CurrentGuidelines(); err != nil {
						return err
					}
				}
				field := ""
				if len(args) == 1 {
					var err error
					if field, err = guidelines.Lookup(args[0]); err != nil {
						return err
					}
				}
				return printMarkdown(cmd.OutOrStdout(), g, guidelinesText(cur, field))
			},
		}
		cmd.AddCommand(newGuidelinesEditCmd(g), newGuidelinesImportCmd(g), newGuidelinesHistoryCmd(g))
		return cmd
	})
}

// guidelinesText is the Markdown `annotate guidelines` prints: one field's
// section, or the introduction and every section, each the version in
// force (cur; nil: the embedded text). The versions are named in a comment
// before the first section, where an import of the printed file ignores it.
func guidelinesText(cur map[string]store.GuidelineVersion, field string) string {
	fields := guidelines.Fields()
	if field != "" {
		fields = []string{field}
	}
	var vs, parts []string
	for _, f := range fields {
		v, ok := cur[f]
		if !ok {
			text, _ := guidelines.Embedded(f)
			v = store.GuidelineVersion{Field: f, Version: 1, Text: text}
		}
		vs = append(vs, fmt.Sprintf("%s %d", f, v.Version))
		parts = append(parts, strings.TrimRight(guidelines.Render(v.Text), "\n"))
	}
	where := "embedded in annotate " + guidelines.Version
	if cur != nil {
		where = "in force in the database"
	}
	head := fmt.Sprintf("<!-- guidelines version (%s): %s -->\n", where, strings.Join(vs, ", "))
	if field == "" {
		head += strings.TrimRight(guidelines.Intro(), "\n") + "\n\n"
	}
	return head + strings.Join(parts, "\n\n") + "\n"
}

// printMarkdown prints Markdown rendered by glamour when the output is a
// terminal (in colour unless --color never or NO_COLOR; --color always
// renders when piped too), and as it is otherwise, for a pager, a file or
// another program. The text is made inert (textsafe) before it is rendered:
// a taxonomy file's strings are part of it.
func printMarkdown(out io.Writer, g *globals, md string) error {
	tty := terminalOf(out)
	if tty == nil && g.color != "always" {
		_, err := io.WriteString(out, md)
		return err
	}
	width := 80
	if tty != nil {
		if w, _, err := term.GetSize(tty.Fd()); err == nil && w > 20 {
			width = min(w, 120) - 2
		}
	}
	style := "dark"
	if !g.colorful() {
		style = "notty"
	}
	r, err := glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithWordWrap(width))
	if err != nil {
		return err
	}
	rendered, err := r.Render(textsafe.Text(md))
	if err != nil {
		return err
	}
	// The rendering's escape sequences are glamour's own: written past the
	// sanitiser, to the terminal (or, with --color always, the pipe).
	raw := out
	if s, ok := out.(*textsafe.Writer); ok {
		s.Flush()
		raw = s.W
	}
	_, err = io.WriteString(raw, strings.TrimLeft(rendered, "\n"))
	return err
}
