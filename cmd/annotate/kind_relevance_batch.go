package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

// `annotate batch create NAME --kind relevance`: a pool of (query, document)
// pairs to judge (store.CreatePool), cut from the runs' top documents of a
// stratified sample of queries.

// poolFlags are the flags only relevance batches take.
type poolFlags struct {
	runs, stratify string
	depth, queries int
	graded         bool
}

func addPoolFlags(cmd *cobra.Command) *poolFlags {
	p := &poolFlags{}
	f := cmd.Flags()
	f.StringVar(&p.runs, "runs", "", "--kind relevance: comma-separated runs whose top documents are pooled")
	f.IntVar(&p.depth, "depth", 10, "--kind relevance: each run's top documents per query")
	f.IntVar(&p.queries, "queries", 0, "--kind relevance: queries to sample (0: every query with documents left to judge)")
	f.StringVar(&p.stratify, "stratify", "", "--kind relevance: query attributes to stratify the sample by, outermost first: "+strings.Join(store.PoolAttrs, ", "))
	f.BoolVar(&p.graded, "graded", false, "--kind relevance: judgments take a grade (0 not relevant, 1 relevant, 2 highly relevant)")
	return p
}

func init() {
	batchKinds[schema.KindRelevance] = func(cmd *cobra.Command) batchRules { return addPoolFlags(cmd) }
}

// refuse names the relevance flags given to a batch of another kind.
func (p *poolFlags) refuse(cmd *cobra.Command) error {
	var given []string
	for _, n := range []string{"runs", "depth", "queries", "stratify", "graded"} {
		if cmd.Flags().Changed(n) {
			given = append(given, "--"+n)
		}
	}
	if len(given) > 0 {
		return fmt.Errorf("%s: only relevance batches take these (--kind relevance)", strings.Join(given, ", "))
	}
	return nil
}

func (p *poolFlags) create(cmd *cobra.Command, g *globals, spec store.BatchSpec) error {
	return createPool(cmd, g, spec, p)
}

// createPool runs batch create for --kind relevance.
func createPool(cmd *cobra.Command, g *globals, spec store.BatchSpec, p *poolFlags) error {
	for _, n := range []string{"size", "source", "hop", "only-correct-answers", "adjudicated", "without-qa"} {
		if cmd.Flags().Changed(n) {
			return fmt.Errorf("--%s does not apply to relevance batches: they take --runs, --depth, --queries and --stratify", n)
		}
	}
	if p.runs == "" {
		return fmt.Errorf("--kind relevance needs --runs: the runs whose top documents are pooled (annotate ir lists them)")
	}
	runs, err := parseNames("--runs", p.runs)
	if err != nil {
		return err
	}
	var strata []string
	if p.stratify != "" {
		if strata, err = parseNames("--stratify", p.stratify); err != nil {
			return err
		}
	}
	if p.queries < 0 {
		return fmt.Errorf("--queries: want %s, got %d", flagWants["queries"], p.queries)
	}
	if len(strata) > 0 && p.queries == 0 {
		return fmt.Errorf("--stratify goes with --queries N: without a sample size every query is taken")
	}
	s, err := g.openForBatch(cmd, spec.Assign)
	if err != nil {
		return err
	}
	defer s.Close()
	pool, err := s.CreatePool(store.PoolSpec{Name: spec.Name, Runs: runs, Depth: p.depth, Queries: p.queries, Stratify: strata,
		Seed: spec.Seed, Assign: spec.Assign, Overlap: spec.Overlap, Graded: p.graded, Pilot: spec.Pilot})
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if g.json {
		return json.NewEncoder(out).Encode(poolJSON(pool, strata))
	}
	who := "everyone"
	if len(pool.Batch.Assignees) > 0 {
		who = strings.Join(pool.Batch.Assignees, ", ")
	}
	fmt.Fprintf(out, "batch %s: %s of %d queries (of %d with documents left to judge), runs %s, top %d, seed %d, for %s\n",
		pool.Batch.Name, schema.Count(schema.KindRelevance, pool.Batch.Size), len(pool.Queries), pool.Eligible, strings.Join(runs, ", "), p.depth, pool.Seed, who)
	if len(strata) > 0 {
		var parts []string
		for _, st := range pool.Strata {
			parts = append(parts, fmt.Sprintf("%s %d of %d", stratumName(st.Values), st.Sampled, st.Eligible))
		}
		fmt.Fprintf(out, "sample by %s: %s\n", strings.Join(strata, ", then "), strings.Join(parts, "; "))
	}
	var parts []string
	for _, q := range pool.Queries {
		parts = append(parts, fmt.Sprintf("%s %d", q.Query, q.Left))
	}
	fmt.Fprintf(out, "pool per query (documents to judge): %s\n", strings.Join(parts, ", "))
	if len(pool.Got) > 0 {
		var got []string
		for _, a := range pool.Batch.Assignees {
			got = append(got, fmt.Sprintf("%s %d", a, pool.Got[a]))
		}
		fmt.Fprintf(out, "each query's pool goes whole to %d assignee%s: %s\n", pool.Batch.Overlap, plural(pool.Batch.Overlap), strings.Join(got, ", "))
	}
	return nil
}

func stratumName(values []string) string {
	var parts []string
	for _, v := range values {
		if v == "" {
			v = "(none)"
		}
		parts = append(parts, v)
	}
	if len(parts) == 0 {
		return "all"
	}
	return strings.Join(parts, "/")
}

func poolJSON(p store.Pool, strata []string) any {
	type stratum struct {
		Values   []string `json:"values"`
		Eligible int      `json:"eligible"`
		Sampled  int      `json:"sampled"`
	}
	type query struct {
		Query     string   `json:"query"`
		Retrieved int      `json:"retrieved"`
		Pool      int      `json:"pool"`
		Assignees []string `json:"assignees"`
	}
	out := struct {
		Batch    string         `json:"batch"`
		Items    int            `json:"items"`
		Seed     int64          `json:"seed"`
		Eligible int            `json:"eligible_queries"`
		Stratify []string       `json:"stratify"`
		Strata   []stratum      `json:"strata"`
		Queries  []query        `json:"queries"`
		Got      map[string]int `json:"assigned"`
	}{Batch: p.Batch.Name, Items: p.Batch.Size, Seed: p.Seed, Eligible: p.Eligible, Stratify: strata, Got: p.Got}
	if out.Stratify == nil {
		out.Stratify = []string{}
	}
	for _, s := range p.Strata {
		out.Strata = append(out.Strata, stratum{Values: append([]string{}, s.Values...), Eligible: s.Eligible, Sampled: s.Sampled})
	}
	for _, q := range p.Queries {
		out.Queries = append(out.Queries, query{q.Query, q.Retrieved, q.Left, append([]string{}, q.Assignees...)})
	}
	if out.Got == nil {
		out.Got = map[string]int{}
	}
	return out
}
