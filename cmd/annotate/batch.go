package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/annotate-dev/annotate/internal/clock"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

func init() {
	register(func(g *globals) *cobra.Command {
		cmd := &cobra.Command{Use: "batch", Short: "Cut and list batches of items"}
		cmd.AddCommand(newBatchCreateCmd(g), newBatchListCmd(g))
		return cmd
	})
}

func newBatchCreateCmd(g *globals) *cobra.Command {
	var spec store.BatchSpec
	var assign, overlap string
	var seed int64
	var rules map[schema.Kind]batchRules
	cmd := &cobra.Command{
		Use:   "create NAME",
		Short: "Cut a batch from the items in no batch yet",
		Example: `  annotate batch create pilot --kind qa --size 20 --pilot
  annotate batch create qa-1 --kind qa --size 90 --assign jo,sam,lea --overlap 2 --seed 7
  annotate batch create claims-1 --kind claim --only-correct-answers --assign jo,sam
  annotate batch create claims-2 --kind claim --without-qa --assign kim
  annotate batch create rel-1 --kind relevance --runs qwen,gemma,gemini,kanon --depth 10 --queries 30 --stratify jurisdiction,issue --seed 1 --assign jo,sam
  annotate batch create answers-1 --kind answer_task --size 8 --assign jo,sam
  annotate batch create gemma-ungrounded --kind gen_claim --sample 25 --where not_grounded --system gemma --seed 1 --assign jo`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			spec.Name = args[0]
			if err := checkName("batch name", spec.Name); err != nil {
				return err
			}
			if spec.Size < 0 {
				return fmt.Errorf("--size: want %s, got %d", flagWants["size"], spec.Size)
			}
			if err := checkClaimBatchFlags(spec); err != nil {
				return err
			}
			if cmd.Flags().Changed("assign") {
				var err error
				if spec.Assign, err = parseAnnotators("--assign", assign); err != nil {
					return err
				}
			}
			switch overlap {
			case "", "all":
				spec.Overlap = 0
			default:
				n, err := strconv.Atoi(overlap)
				if err != nil || n < 1 {
					return fmt.Errorf("--overlap: want a whole number of annotators per item, or all, got %q", overlap)
				}
				if len(spec.Assign) == 0 {
					return fmt.Errorf("--overlap needs --assign")
				}
				if n > len(spec.Assign) {
					return fmt.Errorf("--overlap: want a number between 1 and the number of assignees (%d), got %d", len(spec.Assign), n)
				}
				spec.Overlap = n
			}
			if cmd.Flags().Changed("seed") {
				spec.Seed = &seed
			}
			if handled, err := kindBatch(cmd, g, spec, rules); handled {
				return err
			}
			s, err := g.openForBatch(cmd, spec.Assign)
			if err != nil {
				return err
			}
			defer s.Close()
			if err := checkBatchPool(s, spec); err != nil {
				return err
			}
			known, err := annotatorNames(s)
			if err != nil {
				return err
			}
			b, err := s.CreateBatch(spec)
			if err != nil {
				return err
			}
			if g.json {
				return writeJSON(cmd.OutOrStdout(), batchJSON(b, nil))
			}
			who := "everyone"
			if len(b.Assignees) > 0 {
				who = strings.Join(b.Assignees, ", ") + newAnnotators(b.Assignees, known)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "batch %s: %d %s item%s, for %s\n", b.Name, b.Size, b.Kind, plural(b.Size), who)
			if b.Got != nil {
				var parts []string
				for _, a := range b.Assignees {
					parts = append(parts, fmt.Sprintf("%s %d", a, b.Got[a]))
				}
				fmt.Fprintf(cmd.OutOrStdout(), "each gets the claims of answers they judged correct: %s\n", strings.Join(parts, ", "))
			}
			if b.AtOnce {
				fmt.Fprintf(cmd.OutOrStdout(), "its claims are asked at once, without judging their answers first\n")
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&spec.Kind, "kind", "qa", "the kind of items: "+strings.Join(schema.KindNames(), ", "))
	f.IntVar(&spec.Size, "size", 0, "number of items (0: every remaining item)")
	f.BoolVar(&spec.Pilot, "pilot", false, "mark as a pilot batch")
	f.StringVar(&spec.Source, "source", "", "only items of this source")
	f.StringVar(&assign, "assign", "", "comma-separated annotators")
	f.StringVar(&overlap, "overlap", "", "annotators per item (a number, or all)")
	f.Int64Var(&seed, "seed", 0, "shuffle the items reproducibly with this seed")
	f.BoolVar(&spec.OnlyCorrectAnswers, "only-correct-answers", false, "claim batches: each assignee gets only claims of answers they judged correct")
	f.BoolVar(&spec.Adjudicated, "adjudicated", false, "with --only-correct-answers: answers the lead adjudicated correct (the claims are asked at once)")
	f.BoolVar(&spec.WithoutQA, "without-qa", false, "claim batches: ask the claims at once, without the assignees judging their answers first")
	f.StringVar(&spec.Hop, "hop", "", "only items of single-hop or multi-hop pairs (single or multi)")
	rules = addBatchRules(cmd)
	return cmd
}

func newBatchListCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Short:   "List batches with kind, size, assignees and progress",
		Example: "  annotate batch list\n  annotate batch list --json",
		Args:    cobra.NoArgs,
		RunE: g.withDB(func(cmd *cobra.Command, args []string, s *store.Store) error {
			var bs []store.Batch
			var prog []store.Progress
			err := s.Read(func(rx *store.ReadTx) (err error) {
				if bs, err = rx.Batches(); err != nil {
					return err
				}
				prog, err = rx.Progress("", clock.Now())
				return err
			})
			if err != nil {
				return err
			}
			type row struct {
				Name      string         `json:"name"`
				Kind      string         `json:"kind"`
				Pilot     bool           `json:"pilot"`
				Size      int            `json:"size"`
				Overlap   int            `json:"overlap"`
				Assignees []string       `json:"assignees"`
				Done      map[string]int `json:"done"`
			}
			var rows []row
			for _, b := range bs {
				r := row{Name: b.Name, Kind: b.Kind, Pilot: b.Pilot, Size: b.Size, Overlap: b.Overlap, Assignees: b.Assignees, Done: map[string]int{}}
				if r.Assignees == nil {
					r.Assignees = []string{}
				}
				for _, p := range prog {
					if p.Batch == b.Name {
						r.Done[p.Annotator] = p.Done
					}
				}
				rows = append(rows, r)
			}
			out := cmd.OutOrStdout()
			if g.json {
				if rows == nil {
					rows = []row{}
				}
				return json.NewEncoder(out).Encode(rows)
			}
			if len(rows) == 0 {
				fmt.Fprintln(out, "no batches yet (annotate batch create NAME --kind qa --size N)")
				return nil
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "BATCH\tKIND\tSIZE\tPILOT\tASSIGNEES\tDONE")
			for _, r := range rows {
				var done []string
				for _, p := range prog {
					if p.Batch == r.Name {
						done = append(done, fmt.Sprintf("%s %d/%d", p.Annotator, p.Done, p.Total))
					}
				}
				if len(done) == 0 {
					done = []string{"none yet"} // an open batch nobody has started
				}
				who := strings.Join(r.Assignees, ",")
				if who == "" {
					who = "everyone"
				}
				fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", r.Name, r.Kind, r.Size, yesNo(r.Pilot), who, strings.Join(done, "  "))
			}
			return tw.Flush()
		}),
	}
}

// checkBatchPool says why a batch would be empty, by its real cause: an
// unknown source (or one in another case), no items of the kind, every item
// already in a batch, no answer judged correct yet.
func checkBatchPool(s *store.Store, spec store.BatchSpec) error {
	where := ""
	if spec.Source != "" {
		x, err := s.Snapshot()
		if err != nil {
			return err
		}
		srcs, err := x.SourceInfos()
		x.Close()
		if err != nil {
			return err
		}
		var names []string
		for _, src := range srcs {
			names = append(names, src.Name)
		}
		if !slices.Contains(names, spec.Source) {
			return notFoundError("source", spec.Source, names)
		}
		where = " of source " + spec.Source
	}
	if spec.OnlyCorrectAnswers && !spec.Adjudicated && len(spec.Assign) == 0 {
		return fmt.Errorf("--only-correct-answers takes each assignee's own answer labels: name them with --assign, or use --adjudicated for the lead's")
	}
	p, err := store.ReadWith(s, (*store.ReadTx).BatchPool, spec)
	if err != nil {
		return err
	}
	switch {
	case p.Items == 0:
		return fmt.Errorf("no %s%s to put in batch %q: import them first", strings.ToLower(schema.SpecOf(schema.Kind(spec.Kind)).Title), where, spec.Name)
	case p.Free == 0:
		return fmt.Errorf("no %s items left%s for batch %q: every one (%d) is in a batch already (annotate batch list)", spec.Kind, where, spec.Name, p.Items)
	case spec.OnlyCorrectAnswers && p.CorrectAnswers == 0:
		by := "by " + strings.Join(spec.Assign, " or ")
		if spec.Adjudicated {
			by = "by the lead"
		}
		return fmt.Errorf("no answer%s is judged correct %s yet: --only-correct-answers takes the claims of answers labelled answer_correctness=correct", where, by)
	case spec.OnlyCorrectAnswers && p.FreeOfCorrect == 0:
		return fmt.Errorf("the claims of the %d answer%s judged correct%s are all in batches already", p.CorrectAnswers, plural(p.CorrectAnswers), where)
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return ""
}

// batchJSON is batch create's --json result: the batch, and what its kind
// adds (extra).
func batchJSON(b store.Batch, extra map[string]any) map[string]any {
	assignees := b.Assignees
	if assignees == nil {
		assignees = []string{}
	}
	m := map[string]any{"batch": b.Name, "kind": b.Kind, "items": b.Size, "pilot": b.Pilot,
		"assignees": assignees, "overlap": b.Overlap, "at_once": b.AtOnce}
	if b.Got != nil {
		m["got"] = b.Got
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}
