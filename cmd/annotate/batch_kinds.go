package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/internal/clock"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Batches of the CanLegalRAGBench answer side choose their items by rules of
// their own: answer tasks take whole seed groups of queries (--size counts
// queries; each group goes to one assignee unless --overlap says more), and
// generated claims are drawn at random among those the judge gave a verdict
// (--sample 25 --where not_grounded --system S --seed N), the paper's samples.

type answerBatchFlags struct {
	sample            int
	where             []string
	system, condition string
	judge             string
}

func addAnswerBatchFlags(f *pflag.FlagSet) *answerBatchFlags {
	var a answerBatchFlags
	f.IntVar(&a.sample, "sample", 0, "gen_claim: draw this many claims at random (with --seed)")
	f.StringSliceVar(&a.where, "where", nil, "gen_claim: only claims with these verdicts of the judge, e.g. not_grounded (several: all must hold)")
	f.StringVar(&a.system, "system", "", "gen_claim: only claims of this system's answers")
	f.StringVar(&a.condition, "condition", "", "gen_claim: only claims of answers in this condition (oracle or pipeline)")
	f.StringVar(&a.judge, "judge", "judge", "gen_claim: the system whose verdicts --where reads")
	return &a
}

// create cuts the batch when its kind has a rule of its own; handled is
// false for the other kinds (and the generic batch is cut).
func (a *answerBatchFlags) create(cmd *cobra.Command, g *globals, spec store.BatchSpec) (handled bool, err error) {
	f := cmd.Flags()
	kind := schema.Kind(spec.Kind)
	genOnly := []string{"sample", "where", "system", "condition", "judge"}
	if kind != schema.KindGenClaim {
		for _, name := range genOnly {
			if f.Changed(name) {
				return true, fmt.Errorf("--%s applies to batches of generated claims (--kind gen_claim)", name)
			}
		}
	}
	if kind != schema.KindAnswerTask && kind != schema.KindGenClaim {
		return false, nil
	}
	for _, name := range []string{"only-correct-answers", "hop", "adjudicated", "without-qa"} {
		if f.Changed(name) {
			return true, fmt.Errorf("--%s applies to claims of QA pairs, not to %s batches", name, spec.Kind)
		}
	}
	if !f.Changed("overlap") && len(spec.Assign) > 0 {
		spec.Overlap = 1 // one expert per query (or claim), as the paper
	}
	s, err := g.openExisting()
	if err != nil {
		return true, err
	}
	defer s.Close()
	// A batch is one write: another process's (an import) is waited for.
	if err := s.WaitForWriters(cmd.Context(), g.sayWaiting(cmd, s)); err != nil {
		return true, err
	}
	if err := g.mayCreateBatch(s, spec.Assign); err != nil {
		return true, err
	}
	known, err := annotatorNames(s)
	if err != nil {
		return true, err
	}
	out := cmd.OutOrStdout()
	var b store.Batch
	switch kind {
	case schema.KindAnswerTask:
		var groups int
		if b, groups, err = s.CreateAnswerBatch(spec); err != nil {
			return true, err
		}
		if g.json {
			return true, writeJSON(out, batchJSON(b, map[string]any{"seed_groups": groups}))
		}
		fmt.Fprintf(out, "batch %s: %d answer_task item%s (%d seed group%s), for %s\n", b.Name, b.Size, plural(b.Size), groups, plural(groups), batchWho(b, known))
	case schema.KindGenClaim:
		if f.Changed("sample") && a.sample < 1 {
			return true, fmt.Errorf("--sample: want a whole number of claims, 1 or more, got %d", a.sample)
		}
		if a.sample > 0 && spec.Seed == nil {
			seed := clock.Now().UnixNano() % 1_000_000
			spec.Seed = &seed
		}
		var pool int
		b, pool, err = s.SampleGenClaims(spec, store.GenSample{Sample: a.sample, Judge: a.judge, Where: a.where, System: a.system, Condition: a.condition})
		if err != nil {
			return true, err
		}
		if g.json {
			extra := map[string]any{"pool": pool, "seed": nil}
			if spec.Seed != nil {
				extra["seed"] = *spec.Seed
			}
			return true, writeJSON(out, batchJSON(b, extra))
		}
		what := "every"
		if b.Size < pool {
			what = "a sample of"
		}
		fmt.Fprintf(out, "batch %s: %d gen_claim item%s, %s %d claim%s matching%s, for %s\n", b.Name, b.Size, plural(b.Size), what, pool, plural(pool),
			sampleWhere(a), batchWho(b, known))
		if b.Size < pool && !f.Changed("seed") {
			fmt.Fprintf(cmd.ErrOrStderr(), "annotate: note: drawn with seed %d: --seed %d draws the same sample\n", *spec.Seed, *spec.Seed)
		}
	}
	return true, nil
}

func sampleWhere(a *answerBatchFlags) string {
	var parts []string
	if a.system != "" {
		parts = append(parts, "system "+a.system)
	}
	if a.condition != "" {
		parts = append(parts, a.condition)
	}
	if len(a.where) > 0 {
		parts = append(parts, strings.Join(a.where, " and ")+" by "+a.judge)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// batchWho says who a batch is for and how many items each got, naming new
// annotators.
func batchWho(b store.Batch, known []string) string {
	if len(b.Assignees) == 0 {
		return "everyone"
	}
	var parts []string
	for _, a := range b.Assignees {
		parts = append(parts, fmt.Sprintf("%s %d", a, b.Got[a]))
	}
	return strings.Join(parts, ", ") + newAnnotators(b.Assignees, known)
}

// newAnnotators is " (new annotators: …)" naming the assignees not known
// before the batch, or "".
func newAnnotators(assignees, known []string) string {
	var added []string
	for _, a := range assignees {
		if !slices.Contains(known, a) {
			added = append(added, a)
		}
	}
	if len(added) == 0 {
		return ""
	}
	return " (new annotator" + plural(len(added)) + ": " + strings.Join(added, ", ") + ")"
}
