package main

import (
	"fmt"

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
				out := cmd.OutOrStdout()
				if len(args) == 0 {
					fmt.Fprintf(out, "<!-- guidelines version %s -->\n%s", guidelines.Version, guidelines.All())
					return nil
				}
				text, err := guidelines.Section(args[0])
				if err != nil {
					return err
				}
				fmt.Fprint(out, text)
				return nil
			},
		}
	})
}
