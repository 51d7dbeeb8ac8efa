package main

import (
	"os"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/exporter"
	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

// registerCompletions makes shell completion ("annotate completion bash")
// offer the values of the flags that take a name: fixed ones from the schema
// and the formats, and the annotators, batches, systems and sources of the
// database given by --db. Completion never creates a database and stays
// quiet on any error (no file, a locked or foreign file): it offers nothing.
func registerCompletions(root *cobra.Command, g *globals) {
	kinds := schema.KindNames()
	annotators := g.fromDB(annotatorNames)
	batches := g.fromDB(func(s *store.Store) ([]string, error) {
		bs, err := s.Batches()
		names := make([]string, len(bs))
		for i, b := range bs {
			names[i] = b.Name
		}
		return names, err
	})
	snapshot := func(read func(*store.Snapshot) ([]string, error)) cobra.CompletionFunc {
		return g.fromDB(func(s *store.Store) ([]string, error) {
			x, err := s.Snapshot()
			if err != nil {
				return nil, err
			}
			defer x.Close()
			return read(x)
		})
	}
	systems := snapshot((*store.Snapshot).Systems)
	sources := snapshot(func(x *store.Snapshot) ([]string, error) {
		ss, err := x.SourceInfos()
		names := make([]string, len(ss))
		for i, s := range ss {
			names[i] = s.Name
		}
		return names, err
	})
	runs := snapshot(func(x *store.Snapshot) ([]string, error) {
		rs, err := x.Runs()
		names := make([]string, len(rs))
		for i, r := range rs {
			names[i] = r.Name
		}
		return names, err
	})
	byFlag := map[string]cobra.CompletionFunc{
		"runs":       commaList(runs),
		"field":      fixed(schema.FieldNames()),
		"kind":       fixed(kinds),
		"annotator":  annotators,
		"annotators": commaList(annotators),
		"assign":     commaList(annotators),
		"batch":      batches,
		"system":     systems,
		"source":     sources,
	}
	formats := map[string][]string{"export": exporter.Formats, "import": importer.Formats}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for name, f := range byFlag {
			if c.LocalFlags().Lookup(name) != nil {
				c.RegisterFlagCompletionFunc(name, f)
			}
		}
		if fs, ok := formats[c.Name()]; ok && c.LocalFlags().Lookup("format") != nil {
			c.RegisterFlagCompletionFunc("format", fixed(fs))
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	root.RegisterFlagCompletionFunc("as", annotators)
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
