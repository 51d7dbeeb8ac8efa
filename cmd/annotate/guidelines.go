package main

import (
	"fmt"
	"io"
	"strings"

	"charm.land/glamour/v2"
	"github.com/annotate-dev/annotate/internal/textsafe"
	"github.com/charmbracelet/x/term"

	"github.com/annotate-dev/annotate/guidelines"
	"github.com/spf13/cobra"
)

func init() {
	register(func(g *globals) *cobra.Command {
		return &cobra.Command{
			Use:       "guidelines [FIELD]",
			Short:     "Print the annotation guidelines (all, or one field)",
			Example:   "  annotate guidelines\n  annotate guidelines entailment",
			Args:      cobra.MaximumNArgs(1),
			ValidArgs: guidelines.Fields(),
			RunE: func(cmd *cobra.Command, args []string) error {
				if err := guidelinesTaxonomy(g); err != nil {
					return err
				}
				var text string
				if len(args) == 0 {
					text = fmt.Sprintf("<!-- guidelines version %s -->\n%s", guidelines.Version, guidelines.All())
				} else {
					var err error
					if text, err = guidelines.Section(args[0]); err != nil {
						return err
					}
				}
				return printMarkdown(cmd.OutOrStdout(), g, text)
			},
		}
	})
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
