package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/annotate-dev/annotate/exporter"
	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/internal/suggest"
	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui"
)

// What a flag's value may be, said once for every command: the values of a
// flag that takes a word of a closed set (--hop single|multi) or a name the
// database knows (--batch, --annotator, --system, --runs, …). Shell
// completion offers them, and a value given on the command line that is not
// one of them is refused before the command does anything, in the user's
// words and with did-you-mean: a closed set's before the database is
// opened (checkClosedFlags), a name's once it is (checkNamedFlags).

// valueSet is what one flag takes.
type valueSet struct {
	// what names a value in errors: "batch" → no batch "pilto"; "" for a
	// closed set of words (want single or multi, got "both").
	what string
	// closed is a closed set; read, the names the database holds (nil:
	// closed).
	closed []string
	read   func(*store.Store) ([]string, error)
	// known, when set, is what a value must be one of, where completion
	// offers fewer (metrics --system offers the claims' systems and takes
	// any system's).
	known func(*store.Store) ([]string, error)
	list  bool // a comma-separated list of them
	// open: the flag may name something new (import --system, --assign):
	// completion offers the known ones, nothing is refused.
	open bool
	// unless names a flag whose presence lifts the check (metrics --system
	// with --extractor: one that found nothing takes any system, as
	// RefChecker's corr.py takes any --checker; the report says).
	unless string
	note   string // said after a refusal, e.g. what the flag's absence means
}

// valueSets are the flags that take a closed set or names: byFlag holds a
// flag of that name in every command that has it; byCommand, for one
// command, where the same name means another set (--system: the judges',
// the generators', RAGChecker's).
func (g *globals) valueSets() (byFlag map[string]valueSet, byCommand map[string]map[string]valueSet) {
	snapshot := func(read func(*store.ReadTx) ([]string, error)) func(*store.Store) ([]string, error) {
		return func(s *store.Store) ([]string, error) {
			x, err := s.Snapshot()
			if err != nil {
				return nil, err
			}
			defer x.Close()
			return read(x)
		}
	}
	batches := func(s *store.Store) ([]string, error) {
		bs, err := store.ReadValue(s, (*store.ReadTx).Batches)
		return namesOf(bs, func(b store.Batch) string { return b.Name }), err
	}
	sources := snapshot(func(x *store.ReadTx) ([]string, error) {
		ss, err := x.SourceInfos()
		return namesOf(ss, func(s store.SourceInfo) string { return s.Name }), err
	})
	runs := snapshot(func(x *store.ReadTx) ([]string, error) {
		rs, err := x.Runs()
		return namesOf(rs, func(r store.RunInfo) string { return r.Name }), err
	})
	systems := snapshot((*store.ReadTx).Systems)
	genSystems := snapshot((*store.ReadTx).GenSystems)
	answerSystems := snapshot(func(x *store.ReadTx) ([]string, error) {
		gen, err := x.GenSystems()
		if err != nil {
			return nil, err
		}
		rag, err := x.RAGSystems()
		return union(gen, rag), err
	})
	annotator := valueSet{what: "annotator", read: annotatorNames}
	// The fields are the build's and those the database declares (in
	// force once it is open).
	field := valueSet{what: "field", read: func(*store.Store) ([]string, error) { return everyField(), nil }}
	system := valueSet{what: "system", read: systems}
	conditions := []string{schema.ConditionOracle, schema.ConditionPipeline}
	genCondition := valueSet{what: "condition", closed: conditions, known: snapshot((*store.ReadTx).GenConditions)}
	genSystem := valueSet{what: "system", read: genSystems}
	judge := valueSet{what: "judge", read: snapshot((*store.ReadTx).GenJudges), known: systems}
	byFlag = map[string]valueSet{
		"runs":       {what: "run", read: runs, list: true},
		"field":      field,
		"kind":       {closed: schema.KindNames()},
		"annotator":  annotator,
		"annotators": {what: "annotator", read: annotatorNames, list: true},
		"assign":     {what: "annotator", read: annotatorNames, list: true, open: true},
		"batch":      {what: "batch", read: batches},
		"system":     system,
		"suggest":    system,
		"source":     {what: "source", read: sources},
		"hop":        {closed: []string{"single", "multi"}},
		// --lang: a locale (fr_CA) is a language too; checkGlobals reads
		// it (lang.Parse).
		"lang": {closed: lang.Codes(), open: true},
	}
	byCommand = map[string]map[string]valueSet{
		"annotate":      {"kind": {closed: tui.Kinds()}},
		"annotate demo": {"kind": {closed: tui.Kinds()}},
		"annotate review": {"kind": {closed: reviewKinds,
			note: "the review of a kind of its own; without --kind: the adjudication of disagreements"}},
		"annotate gen": {"system": genSystem, "judge": judge, "condition": genCondition,
			"by": {closed: []string{"persona", "jurisdiction"}}, "rate-from": {closed: []string{"judge", "expert"}}},
		"annotate batch create": {"system": genSystem, "judge": judge, "condition": genCondition,
			"stratify": {closed: store.PoolAttrs, list: true}, "where": {closed: store.GenSampleWhere(), list: true},
			"overlap": {closed: []string{"all"}, open: true}},
		"annotate ir": {"by": {closed: report.IRByAttrs}, "gold": annotator,
			"rank-by":     {closed: report.IRMetrics, open: true}, // canlegalragbench's names too
			"definitions": {closed: []string{report.DefinitionsTrecEval, report.DefinitionsCLRB}}},
		"annotate metrics": {"system": {what: "system", read: snapshot((*store.ReadTx).ClaimSystems), known: systems, unless: "extractor"},
			"extractor": {what: "extractor", read: snapshot((*store.ReadTx).Extractors)}},
		"annotate rag": {"systems": {what: "system", read: snapshot((*store.ReadTx).RAGSystems), list: true}, "expert": annotator},
		"annotate import": {"system": {what: "system", read: answerSystems, open: true}, "run": {what: "run", read: runs, open: true},
			"annotator": {what: "annotator", read: annotatorNames, open: true}, "condition": {closed: conditions},
			"source": {what: "source", read: sources, open: true},
			"format": {closed: importer.Formats}},
		"annotate export": {"license": {closed: exporter.Licenses(), open: true}, // its own refusal names the Hub's list
			"format": {closed: exporter.Formats}, "data-format": {closed: []string{"parquet", "jsonl"}},
			"field": field},
		"annotate agreement": {"annotators": {what: "annotator", read: annotatorNames, list: true}},
		// A locale (fr_CA) is a language too: the command reads it (lang.Parse).
		"annotate annotator set": {"lang": {closed: []string{"en", "fr", "auto"}, open: true}},
	}
	return byFlag, byCommand
}

// valueSetOf is what flag name of cmd takes, if it is one of valueSets'.
func (g *globals) valueSetOf(cmd *cobra.Command, name string) (valueSet, bool) {
	byFlag, byCommand := g.valueSets()
	if v, ok := byCommand[cmd.CommandPath()][name]; ok {
		return v, true
	}
	v, ok := byFlag[name]
	return v, ok
}

// givenValues lists the values of a flag given on the command line, with
// the sets they must be in; persistent flags of the root (--as, --color)
// are checked elsewhere.
func (g *globals) givenValues(cmd *cobra.Command, named bool, each func(f *pflag.Flag, vs valueSet, values []string) error) error {
	var err error
	cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
		vs, ok := g.valueSetOf(cmd, f.Name)
		if err != nil || !f.Changed || !ok || vs.open || (vs.read != nil || vs.known != nil) != named {
			return
		}
		if vs.unless != "" && cmd.Flags().Changed(vs.unless) {
			return
		}
		values := []string{f.Value.String()}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			values = sv.GetSlice()
		} else if vs.list {
			values = strings.Split(values[0], ",")
		}
		var vals []string
		for _, v := range values {
			if v = strings.TrimSpace(v); v != "" {
				vals = append(vals, v)
			}
		}
		if len(vals) > 0 {
			err = each(f, vs, vals)
		}
	})
	return err
}

// checkClosedFlags refuses a value outside its flag's closed set, before
// anything is opened: --hop: want single or multi, got "both".
func (g *globals) checkClosedFlags(cmd *cobra.Command) error {
	return g.givenValues(cmd, false, func(f *pflag.Flag, vs valueSet, values []string) error {
		for _, v := range values {
			if slices.Contains(vs.closed, v) {
				continue
			}
			if vs.what != "" {
				return flagError(f.Name, notFoundError(vs.what, v, vs.closed))
			}
			return flagError(f.Name, wantOneOf(v, vs))
		}
		return nil
	})
}

// checkNamedFlags refuses a name the database does not know, with the
// close ones: --batch: no batch "pilto"; did you mean "pilot"?
func (g *globals) checkNamedFlags(cmd *cobra.Command, s *store.Store) error {
	return g.givenValues(cmd, true, func(f *pflag.Flag, vs valueSet, values []string) error {
		read := vs.known
		if read == nil {
			read = vs.read
		}
		known, err := read(s)
		if err != nil {
			return err
		}
		for _, v := range values {
			if !slices.Contains(known, v) {
				return flagError(f.Name, notFoundError(vs.what, v, known))
			}
		}
		return nil
	})
}

// wantOneOf says what a flag of a closed set wanted, in the reader's
// language (the note, the lead's, as it is written).
func wantOneOf(typed string, vs valueSet) error {
	var want lang.Sayer = lang.OrList(vs.closed)
	if vs.list {
		want = lang.Phrase(lang.Key("a comma-separated list of %s"), strings.Join(vs.closed, ", "))
	}
	note := ""
	if vs.note != "" {
		note = " (" + vs.note + ")"
	}
	if m := suggest.Close(typed, vs.closed, suggest.Edits(typed)); len(m) > 0 {
		return lang.Errorf("want %s, got %q; did you mean %s?%s", want, typed, lang.OrList(quoteAll(m)), note)
	}
	return lang.Errorf("want %s, got %q%s", want, typed, note)
}

// flagErr is an error about one flag's value, named first: --batch: ….
type flagErr struct {
	flag string
	err  error
}

func (e *flagErr) Error() string { return e.SayIn(nil) }

// SayIn is the error in a reader's language (lang.Say).
func (e *flagErr) SayIn(l *lang.Printer) string {
	return l.Sprintf("--%s: %s", e.flag, lang.Say(l, e.err))
}
func (e *flagErr) Unwrap() error { return e.err }

func flagError(flag string, err error) error { return &flagErr{flag, err} }

// namesOf lists the names of the things a read returned.
func namesOf[T any](items []T, name func(T) string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = name(it)
	}
	return out
}

// everyField lists every field a --field may name: the asked ones and the
// markers (a graded pool's relevance_grade), kind by kind, each once.
func everyField() []string {
	var out []string
	for _, k := range schema.KindNames() {
		for _, f := range schema.KindFields(schema.Kind(k)) {
			if !slices.Contains(out, f.Name) {
				out = append(out, f.Name)
			}
		}
	}
	return out
}
