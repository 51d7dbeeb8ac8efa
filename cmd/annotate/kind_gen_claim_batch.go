package main

import (
	"fmt"
	"strings"

	"github.com/annotate-dev/annotate/internal/clock"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

// A batch of generated claims is drawn at random among those the judge
// gave a verdict (--sample 25 --where not_grounded --system S --seed N),
// the paper's samples.

// genClaimBatchFlags are the flags only batches of generated claims take.
type genClaimBatchFlags struct {
	sample            int
	where             []string
	system, condition string
	judge             string
}

func init() {
	batchKinds[schema.KindGenClaim] = func(cmd *cobra.Command) batchRules {
		var a genClaimBatchFlags
		f := cmd.Flags()
		f.IntVar(&a.sample, "sample", 0, "gen_claim: draw this many claims at random (with --seed)")
		f.StringSliceVar(&a.where, "where", nil, "gen_claim: only claims with these verdicts of the judge, e.g. not_grounded (several: all must hold)")
		f.StringVar(&a.system, "system", "", "gen_claim: only claims of this system's answers")
		f.StringVar(&a.condition, "condition", "", "gen_claim: only claims of answers in this condition (oracle or pipeline)")
		f.StringVar(&a.judge, "judge", "judge", "gen_claim: the system whose verdicts --where reads")
		return &a
	}
}

func (a *genClaimBatchFlags) refuse(cmd *cobra.Command) error {
	for _, name := range []string{"sample", "where", "system", "condition", "judge"} {
		if cmd.Flags().Changed(name) {
			return fmt.Errorf("--%s applies to batches of generated claims (--kind gen_claim)", name)
		}
	}
	return nil
}

func (a *genClaimBatchFlags) create(cmd *cobra.Command, g *globals, spec store.BatchSpec) error {
	f := cmd.Flags()
	s, known, err := openRuledBatch(cmd, g, &spec)
	if err != nil {
		return err
	}
	defer s.Close()
	if f.Changed("sample") && a.sample < 1 {
		return fmt.Errorf("--sample: want a whole number of claims, 1 or more, got %d", a.sample)
	}
	if a.sample > 0 && spec.Seed == nil {
		seed := clock.Now().UnixNano() % 1_000_000
		spec.Seed = &seed
	}
	b, pool, err := s.SampleGenClaims(spec, store.GenSample{Sample: a.sample, Judge: a.judge, Where: a.where, System: a.system, Condition: a.condition})
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if g.json {
		extra := map[string]any{"pool": pool, "seed": nil}
		if spec.Seed != nil {
			extra["seed"] = *spec.Seed
		}
		return writeJSON(out, batchJSON(b, extra))
	}
	what := "every"
	if b.Size < pool {
		what = "a sample of"
	}
	fmt.Fprintf(out, "batch %s: %d gen_claim item%s, %s %d claim%s matching%s, for %s\n", b.Name, b.Size, plural(b.Size), what, pool, plural(pool),
		a.sampleWhere(), batchWho(b, known))
	if b.Size < pool && !f.Changed("seed") {
		fmt.Fprintf(cmd.ErrOrStderr(), "annotate: note: drawn with seed %d: --seed %d draws the same sample\n", *spec.Seed, *spec.Seed)
	}
	return nil
}

// sampleWhere says which claims the sample was drawn among.
func (a *genClaimBatchFlags) sampleWhere() string {
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
