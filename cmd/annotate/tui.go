package main

import "github.com/spf13/cobra"

// addTUIFlags makes the bare command open the annotation screens.
func addTUIFlags(root *cobra.Command, g *globals) {
	var batch, kind string
	root.Flags().StringVar(&batch, "batch", "", "open this batch's queue")
	root.Flags().StringVar(&kind, "kind", "", "open a queue straight away: qa or claim")
	root.RunE = func(cmd *cobra.Command, args []string) error {
		return cmd.Help()
	}
}
