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
every label records the version of its field it was made under.

They are written in English and in French, under one version number:
--lang fr prints the French (as the screens choose their language: --lang,
the annotator's own, the config file's lang, the locale), and says which
fields' French is older than their English. guidelines edit and import
change the English text, or the French one with --lang fr.`,
			Example:   "  annotate guidelines\n  annotate guidelines entailment --lang fr\n  annotate guidelines edit entailment --as lead\n  annotate guidelines edit entailment --lang fr --as lead\n  annotate guidelines history entailment",
			Args:      cobra.MaximumNArgs(1),
			ValidArgs: guidelines.Fields(),
			RunE: func(cmd *cobra.Command, args []string) error {
				if err := guidelinesTaxonomy(g); err != nil {
					return err
				}
				// The database is open while the field is looked up: its
				// declared fields have sections too.
				var cur map[string]store.GuidelineVersion
				code := g.language(nil, "")
				if _, err := os.Stat(g.db); err == nil {
					s, err := store.Open(g.db)
					if err != nil {
						return err
					}
					defer s.Close()
					code = g.language(s, g.as)
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
				return printMarkdown(cmd.OutOrStdout(), g, guidelinesText(cur, field, code))
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
func guidelinesText(cur map[string]store.GuidelineVersion, field, code string) string {
	fields := guidelines.Fields()
	if field != "" {
		fields = []string{field}
	}
	var vs, parts, behind []string
	for _, f := range fields {
		v, ok := cur[f]
		if !ok {
			text, _ := guidelines.EmbeddedIn(f, code)
			v = store.GuidelineVersion{Field: f, Version: 1, Text: text, TextFR: text}
		}
		vs = append(vs, fmt.Sprintf("%s %d", f, v.Version))
		parts = append(parts, strings.TrimRight(guidelines.RenderIn(v.TextIn(code), code), "\n"))
		if code == guidelines.French && v.FrenchBehind() {
			behind = append(behind, fmt.Sprintf("%s (French of version %d, English of version %d)", f, v.FrenchOf, v.EnglishOf))
		}
	}
	where := "embedded in annotate " + guidelines.Version
	if cur != nil {
		where = "in force in the database"
	}
	if code == guidelines.French {
		where += "; " + frenchMark
	}
	head := fmt.Sprintf("<!-- guidelines version (%s): %s -->\n", where, strings.Join(vs, ", "))
	if len(behind) > 0 {
		head += "<!-- the French text is older than the English one: " + strings.Join(behind, ", ") + " -->\n"
	}
	if field == "" {
		head += strings.TrimRight(guidelines.IntroIn(code), "\n") + "\n\n"
	}
	return head + strings.Join(parts, "\n\n") + "\n"
}

// frenchMark is what the first line of the French guidelines printed says
// of their language; guidelines import refuses a file that bears it
// without --lang fr, and one printed in English with it.
const frenchMark = "lang fr"

// checkFileLang refuses a guidelines file printed in the other language
// than the one it is imported as: its first line says which it is.
func checkFileLang(file string, data []byte, code string) error {
	first, _, _ := strings.Cut(string(data), "\n")
	if !strings.HasPrefix(first, "<!-- guidelines version (") {
		return nil // written by hand: the flag says
	}
	french := strings.Contains(first, "; "+frenchMark+")")
	switch {
	case french && code != guidelines.French:
		return fmt.Errorf("%s: line 1: these are the French guidelines (annotate guidelines --lang fr printed them): import them with --lang fr; nothing imported", file)
	case !french && code == guidelines.French:
		return fmt.Errorf("%s: line 1: these are the English guidelines: import them without --lang fr; nothing imported", file)
	}
	return nil
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
