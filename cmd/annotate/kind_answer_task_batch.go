package main

import (
	"fmt"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

// An answer task batch takes whole seed groups of queries: --size counts
// queries, and each group goes to one assignee unless --overlap says more.

// answerTaskBatch has no flags of its own.
type answerTaskBatch struct{}

func init() {
	batchKinds[schema.KindAnswerTask] = func(*cobra.Command) batchRules { return answerTaskBatch{} }
}

func (answerTaskBatch) refuse(*cobra.Command) error { return nil }

func (answerTaskBatch) create(cmd *cobra.Command, g *globals, spec store.BatchSpec) error {
	s, known, err := openRuledBatch(cmd, g, &spec)
	if err != nil {
		return err
	}
	defer s.Close()
	b, groups, err := s.CreateAnswerBatch(spec)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if g.json {
		return writeJSON(out, batchJSON(b, map[string]any{"seed_groups": groups}))
	}
	fmt.Fprintf(out, "batch %s: %d answer_task item%s (%d seed group%s), for %s\n", b.Name, b.Size, plural(b.Size), groups, plural(groups), batchWho(b, known))
	return nil
}
