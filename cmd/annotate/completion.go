package main

import (
	"os"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/exporter"
	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui"
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
	genSystems := snapshot((*store.Snapshot).GenSystems)
	genJudges := snapshot((*store.Snapshot).GenJudges)
	claimSystems := snapshot((*store.Snapshot).ClaimSystems)
	ragSystems := snapshot((*store.Snapshot).RAGSystems)
	extractors := snapshot((*store.Snapshot).Extractors)
	answerSystems := snapshot(func(x *store.Snapshot) ([]string, error) {
		gen, err := x.GenSystems()
		if err != nil {
			return nil, err
		}
		rag, err := x.RAGSystems()
		return union(gen, rag), err
	})
	conditions := fixed([]string{schema.ConditionOracle, schema.ConditionPipeline})
	// byFlag completes a flag of that name in every command that has it;
	// byCommand, for one command, where the same name means another set
	// (--system: the judges' systems, the generating ones, RAGChecker's).
	byFlag := map[string]cobra.CompletionFunc{
		"runs":        commaList(runs),
		"field":       fixed(schema.FieldNames()),
		"kind":        fixed(kinds),
		"annotator":   annotators,
		"annotators":  commaList(annotators),
		"assign":      commaList(annotators),
		"batch":       batches,
		"system":      systems,
		"suggest":     systems,
		"source":      sources,
		"condition":   conditions,
		"data-format": fixed([]string{"parquet", "jsonl"}),
	}
	byCommand := map[string]map[string]cobra.CompletionFunc{
		"annotate":        {"kind": fixed(tui.Kinds())},
		"annotate demo":   {"kind": fixed(tui.Kinds())},
		"annotate review": {"kind": fixed([]string{string(schema.KindAnswerTask)})},
		"annotate gen": {"system": genSystems, "judge": genJudges, "by": fixed([]string{"persona", "jurisdiction"}),
			"rate-from": fixed([]string{"judge", "expert"})},
		"annotate batch create": {"system": genSystems, "judge": genJudges, "hop": fixed([]string{"single", "multi"}),
			"stratify": commaList(fixed(store.PoolAttrs)), "where": commaList(fixed(store.GenSampleWhere())),
			"overlap": fixed([]string{"all"})},
		"annotate ir": {"by": fixed(report.IRByAttrs), "rank-by": fixed(report.IRMetrics), "gold": annotators,
			"definitions": fixed([]string{report.DefinitionsTrecEval, report.DefinitionsCLRB})},
		"annotate metrics":       {"system": claimSystems, "extractor": extractors},
		"annotate rag":           {"systems": commaList(ragSystems), "expert": annotators},
		"annotate import":        {"system": answerSystems, "run": runs},
		"annotate export":        {"license": fixed(exporter.Licenses())},
		"annotate annotator set": {"lang": fixed(append(lang.Codes(), "auto"))},
	}
	// Arguments that name an annotator, or a new name (no file names).
	byArgs := map[string]cobra.CompletionFunc{
		"annotate annotator set": annotators,
		"annotate annotator add": fixed(nil),
		"annotate batch create":  fixed(nil),
	}
	formats := map[string][]string{"export": exporter.Formats, "import": importer.Formats}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		local := c.LocalFlags()
		done := map[string]bool{}
		for name, f := range byCommand[c.CommandPath()] {
			if local.Lookup(name) != nil {
				c.RegisterFlagCompletionFunc(name, f)
				done[name] = true
			}
		}
		for name, f := range byFlag {
			if local.Lookup(name) != nil && !done[name] {
				c.RegisterFlagCompletionFunc(name, f)
			}
		}
		if fs, ok := formats[c.Name()]; ok && local.Lookup("format") != nil {
			c.RegisterFlagCompletionFunc("format", fixed(fs))
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
	root.RegisterFlagCompletionFunc("lang", fixed(lang.Codes()))
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
