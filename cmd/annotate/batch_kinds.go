package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

// Some kinds' batches choose their items by rules of their own, with flags
// only their batches take: relevance pools (kind_relevance_batch.go), the
// answer tasks' seed groups (kind_answer_task_batch.go), the generated
// claims' samples (kind_gen_claim_batch.go).

// batchRules are such a kind's rules, with its flags added to batch create.
type batchRules interface {
	// refuse is the error for a batch of another kind given its flags (nil:
	// none given).
	refuse(cmd *cobra.Command) error
	// create cuts a batch of the kind.
	create(cmd *cobra.Command, g *globals, spec store.BatchSpec) error
}

// batchKinds adds the flags of each kind with rules of its own to batch
// create; the kinds' files fill it.
var batchKinds = map[schema.Kind]func(cmd *cobra.Command) batchRules{}

// addBatchRules adds every kind's batch flags to cmd.
func addBatchRules(cmd *cobra.Command) map[schema.Kind]batchRules {
	rules := map[schema.Kind]batchRules{}
	for k, add := range batchKinds {
		rules[k] = add(cmd)
	}
	return rules
}

// kindBatch cuts the batch when its kind has rules of its own; handled is
// false for the other kinds (and the generic batch is cut). The flags of
// another kind's rules are refused, in queue order.
func kindBatch(cmd *cobra.Command, g *globals, spec store.BatchSpec, rules map[schema.Kind]batchRules) (handled bool, err error) {
	kind := schema.Kind(spec.Kind)
	for _, k := range schema.AllKinds() {
		if r := rules[k]; r != nil && k != kind {
			if err := r.refuse(cmd); err != nil {
				return true, err
			}
		}
	}
	r := rules[kind]
	if r == nil {
		return false, nil
	}
	return true, r.create(cmd, g, spec)
}

// openRuledBatch begins a batch of the answer side (answer tasks,
// generated claims): it refuses the QA pairs' claim flags, gives each item
// one assignee unless --overlap says more (as the paper), and opens the
// database for the batch's write, returning it and the annotators known
// before the batch.
func openRuledBatch(cmd *cobra.Command, g *globals, spec *store.BatchSpec) (*store.Store, []string, error) {
	f := cmd.Flags()
	for _, name := range []string{"only-correct-answers", "hop", "adjudicated", "without-qa"} {
		if f.Changed(name) {
			return nil, nil, fmt.Errorf("--%s applies to claims of QA pairs, not to %s batches", name, spec.Kind)
		}
	}
	if !f.Changed("overlap") && len(spec.Assign) > 0 {
		spec.Overlap = 1 // one expert per query (or claim), as the paper
	}
	s, err := g.openForBatch(cmd, spec.Assign)
	if err != nil {
		return nil, nil, err
	}
	known, err := annotatorNames(s)
	if err != nil {
		s.Close()
		return nil, nil, err
	}
	return s, known, nil
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
