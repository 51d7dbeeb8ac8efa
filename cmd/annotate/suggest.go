package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// rejectUnknownCommands makes a mistyped command an error with cobra's
// suggestions, in every command group. Left alone, cobra prints the group's
// help and exits 0 for "annotate batch creat x" (a group has no Run), and the
// root, which opens the screens, says "unknown command" without a hint.
func rejectUnknownCommands(root *cobra.Command) {
	root.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			return unknownCommand(cmd, args[0])
		}
		return nil
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		// cobra applies its default distance only on its own path.
		if c.SuggestionsMinimumDistance <= 0 {
			c.SuggestionsMinimumDistance = 2
		}
		if c == root || !c.HasSubCommands() || c.Runnable() {
			return
		}
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help() // "annotate batch": what it can do
			}
			return unknownCommand(cmd, args[0])
		}
	}
	walk(root)
}

func unknownCommand(cmd *cobra.Command, typed string) error {
	msg := fmt.Sprintf("unknown command %q for %q", typed, cmd.CommandPath())
	if s := cmd.SuggestionsFor(typed); len(s) > 0 {
		msg += fmt.Sprintf("; did you mean %s?", orList(quoteAll(s)))
	}
	return fmt.Errorf("%s (%s --help lists the commands)", msg, cmd.CommandPath())
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = fmt.Sprintf("%q", x)
	}
	return out
}

// orList joins "a", "a or b", "a, b or c".
func orList(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}
