package main

import (
	"os"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

// registerCompletions makes shell completion ("annotate completion bash")
// offer the values of the flags that take a name: fixed ones from the schema
// and the formats, and the annotators, batches, systems and sources of the
// database given by --db. Completion never creates a database and stays
// quiet on any error (no file, a locked or foreign file): it offers nothing.
func registerCompletions(root *cobra.Command, g *globals) {
	annotators := g.fromDB(annotatorNames)
	byFlag, byCommand := g.valueSets()
	complete := func(vs valueSet) cobra.CompletionFunc {
		f := fixed(vs.closed)
		if vs.read != nil {
			f = g.fromDB(vs.read)
		}
		if vs.list {
			f = commaList(f)
		}
		return f
	}
	// Arguments that name an annotator, or a new name (no file names).
	byArgs := map[string]cobra.CompletionFunc{
		"annotate annotator set": annotators,
		"annotate annotator add": fixed(nil),
		"annotate batch create":  fixed(nil),
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		local := c.LocalFlags()
		done := map[string]bool{}
		for name, vs := range byCommand[c.CommandPath()] {
			if local.Lookup(name) != nil {
				c.RegisterFlagCompletionFunc(name, complete(vs))
				done[name] = true
			}
		}
		for name, vs := range byFlag {
			if local.Lookup(name) != nil && !done[name] {
				c.RegisterFlagCompletionFunc(name, complete(vs))
			}
		}
		if f, ok := byArgs[c.CommandPath()]; ok && c.ValidArgsFunction == nil {
			c.ValidArgsFunction = f
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	// Paths: the shell completes file names, or folders for --out.
	root.MarkPersistentFlagFilename("taxonomy", "yaml", "yml", "json")
	if c, _, err := root.Find([]string{"export"}); err == nil && c.Flags().Lookup("out") != nil {
		c.MarkFlagDirname("out")
	}
	root.RegisterFlagCompletionFunc("as", annotators)
	root.RegisterFlagCompletionFunc("color", fixed(colorModes))
}

// union is a and b's values, sorted, each once.
func union(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

// fixed offers a fixed list of values.
func fixed(values []string) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, typed string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return withPrefix(values, typed, ""), cobra.ShellCompDirectiveNoFileComp
	}
}

// fromDB offers the values read from the database named by --db, if it
// exists; nothing on any error.
func (g *globals) fromDB(read func(*store.Store) ([]string, error)) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, typed string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if fi, err := os.Stat(g.db); err != nil || !fi.Mode().IsRegular() {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		s, err := store.Open(g.db)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		defer s.Close()
		values, err := read(s)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return withPrefix(values, typed, ""), cobra.ShellCompDirectiveNoFileComp
	}
}

// commaList completes the last name of a comma-separated list ("jo,sa" →
// "jo,sam"), leaving out the names already listed.
func commaList(names cobra.CompletionFunc) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, typed string) ([]cobra.Completion, cobra.ShellCompDirective) {
		head, last := "", typed
		if i := strings.LastIndex(typed, ","); i >= 0 {
			head, last = typed[:i+1], typed[i+1:]
		}
		listed := strings.Split(head, ",")
		values, dir := names(cmd, args, last)
		values = slices.DeleteFunc(values, func(v string) bool { return slices.Contains(listed, v) })
		return withPrefix(values, last, head), dir | cobra.ShellCompDirectiveNoSpace
	}
}

// withPrefix keeps the values that start with typed, each after head.
func withPrefix(values []string, typed, head string) []cobra.Completion {
	var out []cobra.Completion
	for _, v := range values {
		if strings.HasPrefix(v, typed) {
			out = append(out, head+v)
		}
	}
	return out
}
