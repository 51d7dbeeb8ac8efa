package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/annotate-dev/annotate/adjudication"
	"github.com/annotate-dev/annotate/internal/names"
	"github.com/annotate-dev/annotate/internal/suggest"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui"
	"github.com/annotate-dev/annotate/tui/adjudicate"
)

func init() {
	register(func(g *globals) *cobra.Command {
		var o reviewFlags
		cmd := &cobra.Command{
			Use:   "review",
			Short: "Adjudicate disagreements between annotators; browse expert-versus-system disagreements",
			Long: `review opens the lead's review screens.

Adjudication (default): the items where the annotators disagree, field by
field in schema order. A field is compared only among the annotators it is
asked for, given their own labels. The screen shows each annotator's label
and note, the item and its context; 1-9 (y/n on two-way fields) stores the
final label as an adjudication by --as, then the next disagreement comes.
u undoes the last adjudication, A (then y) accepts every agreement at once,
←/→ browse, s skips, f flags, m writes a note, v opens the system view.
A field one annotator answered and the others were not asked (by their
own labels: sam judged the answer incorrect, so its claims asked him
nothing) is a single-label unit: it waits for a decision from the start,
marked as such, and S (then y) accepts the agreements and the single
labels that are ready. The screen opens a session of client "review" and
records its active time as the annotation screens do (each gap between
keys counted up to 5 minutes): progress --sessions and cost show it.

System view (--system NAME, or v): the claims where the system's entailment
prediction differs from the expert's label, by class pair (rows expert,
columns system, as "annotate metrics"), most claims first; enter walks the
claims of a pair. The expert labels are --annotator NAME or --adjudicated
(default: the only annotator with labels); e switches between them.

With --json nothing opens: the units (or the class pairs) are printed.
--kind answer_task reviews the experts' gold answers instead: y accepts an
answer (it becomes the gold answer of its query, as it is now), n rejects it
and asks the reason (off_target, wrong_law, incomplete, other); u undoes the
last review, ←/→ browse. A rejected answer is never gold; an answer changed
after its review waits for a review again.

With --accept nothing opens either: every agreement ready to accept is
accepted, as A does on the screen, and the count printed (repeat it after
deciding the disagreements that agreements wait on); --accept --single
accepts the single labels that are ready too, as S does.

Review is the lead's: --as names an annotator with the role lead
(annotate annotator add NAME --lead). A lead never adjudicates a unit in
which they gave a label: such units are shown, marked as theirs, and their
decision is refused with the reason (bulk accepts leave them for another
lead); --allow-own decides them anyway, and the decision is recorded as
the lead's on their own unit (agreement and the dataset card count them).`,
			Example: `  annotate review --as lead
  annotate review --as lead --annotators jo,sam --field entailment --batch pilot
  annotate review --as lead --system refchecker --annotator jo
  annotate review --json --as lead
  annotate review --accept --as lead
  annotate review --accept --single --as lead
  annotate review --accept --allow-own --as lead
  annotate review --kind answer_task --as lead`,
			Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				if err := checkReviewKind(cmd, o.kind); err != nil {
					return err
				}
				s, err := g.openExisting()
				if err != nil {
					return err
				}
				defer s.Close()
				// Checked once the database is open: its declared fields
				// are fields too.
				if o.field != "" {
					if err := schema.CheckField(o.field); err != nil {
						return err
					}
				}
				// Every form of review is the lead's: the screen and --accept
				// record decisions, and --json lists what waits for them.
				if _, err := g.needLead(s, "annotate review"); err != nil {
					return err
				}
				if err := s.WaitForWriters(cmd.Context(), g.sayWaiting(cmd, s)); err != nil {
					return err
				}
				if handled, err := reviewKind(cmd, g, s, &o); handled {
					return err
				}
				return o.run(cmd, g, s)
			},
		}
		f := cmd.Flags()
		f.StringSliceVar(&o.annotators, "annotators", nil, "compare these annotators (default: every annotator with labels)")
		f.StringVar(&o.field, "field", "", "only this field (and, for A, the fields it depends on)")
		f.StringVar(&o.batch, "batch", "", "only the items of this batch")
		f.StringVar(&o.system, "system", "refchecker", "system view: the system whose predictions are compared")
		f.StringVar(&o.annotator, "annotator", "", "system view: the expert's labels are this annotator's")
		f.BoolVar(&o.adjudicated, "adjudicated", false, "system view: the expert labels are the adjudicated ones")
		f.BoolVar(&o.accept, "accept", false, "accept every agreement that is ready (as A on the screen), print how many, open nothing")
		f.BoolVar(&o.single, "single", false, "with --accept: accept the single-label units that are ready too (as S on the screen)")
		f.StringVar(&o.kind, "kind", "", "answer_task: review the experts' gold answers (accept, or reject with a reason)")
		f.BoolVar(&o.allowOwn, "allow-own", false, "decide the units in which you gave a label too (refused without it), recorded as such")
		return cmd
	})
}

type reviewFlags struct {
	kind                 string
	annotators           []string
	field, batch, system string
	annotator            string
	adjudicated          bool
	accept, single       bool
	allowOwn             bool
}

func (o *reviewFlags) run(cmd *cobra.Command, g *globals, s *store.Store) error {
	systemView := cmd.Flags().Changed("system") || o.annotator != "" || o.adjudicated
	opt, err := o.options(cmd, s, g.as, systemView)
	if err != nil {
		return err
	}
	if systemView {
		if g.json {
			rev, err := store.ReadWith(s, (*store.ReadTx).SystemDisagreements, store.SystemQuery{System: o.system, Labels: opt.Experts[0], Batch: o.batch})
			if err != nil {
				return err
			}
			return printSystemReview(cmd.OutOrStdout(), rev)
		}
	} else {
		if o.accept {
			return acceptAll(cmd.OutOrStdout(), g, s, opt.Query, o.single, o.allowOwn)
		}
		if o.single {
			return errors.New("--single goes with --accept (on the screen: S)")
		}
		if g.json {
			rev, err := store.ReadWith(s, (*store.ReadTx).Adjudication, opt.Query)
			if err != nil {
				return err
			}
			return printReview(cmd.OutOrStdout(), g.as, opt.Query, rev)
		}
	}
	lock, err := reviewLock(cmd, g, s, g.as)
	if err != nil {
		return err
	}
	defer lock.Release()
	if err := needTerminal(); err != nil {
		return err
	}
	// Decisions are committed as they are made: a signal just ends the screen.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	return tui.Run(ctx, tui.Options{Store: s, Annotator: g.as, Start: tui.Review(opt), Lang: g.language(s, g.as)})
}

// options resolves what the review screen compares, as the flags say:
// the system view's expert label sets (the first one shown first), or the
// annotators whose disagreements are adjudicated. The dashboard opens
// review through it too.
func (o *reviewFlags) options(cmd *cobra.Command, s *store.Store, lead string, systemView bool) (adjudicate.Options, error) {
	q := store.AdjudicationQuery{Annotators: o.annotators, Field: o.field, Batch: o.batch, Lead: lead}
	opt := adjudicate.Options{Store: s, Lead: lead, Query: q, System: o.system, StartSystem: systemView, AllowOwn: o.allowOwn}
	labelled, err := store.ReadValue(s, (*store.ReadTx).LabelledAnnotators)
	if err != nil {
		return opt, err
	}
	if systemView {
		first, err := o.expert(labelled)
		if err != nil {
			return opt, err
		}
		opt.Experts = expertSets(first, labelled)
		return opt, nil
	}
	if opt.Query.Annotators, err = store.ReadWith(s, (*store.ReadTx).ComparedAnnotators, q); err != nil {
		return opt, err
	}
	opt.Experts = expertSets(store.LabelSet{Adjudicated: true}, labelled)
	return opt, nil
}

// expert resolves the system view's expert labels as the reports do:
// --annotator or --adjudicated, else the only annotator with labels.
func (o *reviewFlags) expert(labelled []string) (store.LabelSet, error) {
	switch {
	case o.annotator != "" && o.adjudicated:
		return store.LabelSet{}, errors.New("choose --annotator NAME or --adjudicated, not both")
	case o.adjudicated:
		return store.LabelSet{Adjudicated: true}, nil
	case o.annotator != "" && !slices.Contains(labelled, o.annotator):
		return store.LabelSet{}, fmt.Errorf("no annotator %q with labels%s (annotators with labels: %s)", o.annotator, suggest.Hint(o.annotator, labelled), strings.Join(labelled, ", "))
	case o.annotator != "":
		return store.LabelSet{Annotator: o.annotator}, nil
	case len(labelled) == 1:
		return store.LabelSet{Annotator: labelled[0]}, nil
	case len(labelled) == 0:
		return store.LabelSet{}, errors.New("no annotator has labels yet: nothing to compare with the system")
	}
	return store.LabelSet{}, fmt.Errorf("%d annotators have labels: choose --annotator NAME (%s) or --adjudicated",
		len(labelled), strings.Join(labelled, ", "))
}

// expertSets lists what the system view's e cycles through: first, then
// every annotator with labels and the adjudicated labels.
func expertSets(first store.LabelSet, labelled []string) []store.LabelSet {
	out := []store.LabelSet{first}
	for _, n := range labelled {
		if first.Adjudicated || n != first.Annotator {
			out = append(out, store.LabelSet{Annotator: n})
		}
	}
	if !first.Adjudicated {
		out = append(out, store.LabelSet{Adjudicated: true})
	}
	return out
}

// reviewUnitJSON is one unit of `annotate review --json`.
type reviewUnitJSON struct {
	Item     string            `json:"item"`
	Kind     string            `json:"kind"`
	Field    string            `json:"field"`
	Labels   map[string]string `json:"labels"`
	Final    *string           `json:"final"`
	State    string            `json:"state"`
	FollowUp bool              `json:"follow_up"`
	Single   bool              `json:"single"` // one label, the other annotators not asked
	Own      bool              `json:"own"`    // the lead gave a label in it: their decision needs --allow-own
}

func printReview(w io.Writer, lead string, q store.AdjudicationQuery, rev store.Adjudication) error {
	units := []reviewUnitJSON{}
	for _, u := range rev.Units {
		j := reviewUnitJSON{Item: u.ExtID, Kind: u.Kind, Field: u.Field, Labels: u.Labels, State: u.State.String(), FollowUp: u.FollowUp, Single: u.Single, Own: u.Own}
		if u.Final != "" {
			j.Final = &u.Final
		}
		units = append(units, j)
	}
	pending, done, moot := rev.Counts("")
	return json.NewEncoder(w).Encode(map[string]any{
		"lead": lead, "annotators": rev.Annotators, "field": q.Field, "batch": q.Batch,
		"units": units, "pending": pending, "done": done, "not_asked": moot, "single": rev.Singles(""),
		"agreements":   map[string]int{"open": rev.Agreeing, "ready": rev.Ready, "accepted": rev.Accepted},
		"ready_single": rev.ReadySingle - rev.Ready,
	})
}

func printSystemReview(w io.Writer, rev store.SystemConfusion) error {
	type cell struct {
		Expert string   `json:"expert"`
		System string   `json:"system"`
		Count  int      `json:"count"`
		Items  []string `json:"items"`
	}
	cells := []cell{}
	for _, c := range rev.Cells {
		ids := make([]string, len(c.Items))
		for i, it := range c.Items {
			ids[i] = it.ExtID
		}
		cells = append(cells, cell{c.Expert, c.System, len(c.Items), ids})
	}
	return json.NewEncoder(w).Encode(map[string]any{
		"system": rev.System, "expert": rev.Expert, "n": rev.N, "agree": rev.Agree,
		"confusion": rev.Confusion, "cells": cells,
	})
}

// acceptAll accepts every ready agreement, as A does on the review screen
// (with single, the ready single labels too, as S does).
func acceptAll(w io.Writer, g *globals, s *store.Store, q store.AdjudicationQuery, single, allowOwn bool) error {
	acc, err := s.AcceptReady(g.as, q, store.AcceptOptions{Single: single, AllowOwn: allowOwn})
	if err != nil {
		return err
	}
	n := acc.N
	rev, err := store.ReadWith(s, (*store.ReadTx).Adjudication, q)
	if err != nil {
		return err
	}
	pending, _, _ := rev.Counts("")
	singles := rev.Singles("")
	if g.json {
		return json.NewEncoder(w).Encode(map[string]any{"accepted": n, "pending": pending, "single": singles,
			"ready": rev.Ready, "ready_single": rev.ReadySingle - rev.Ready, "held_own": acc.Held})
	}
	what := "agreements"
	if single {
		what = "labels (agreements and single labels)"
	}
	fmt.Fprintf(w, "accepted %d %s as %s; %d units wait for a decision", n, what, g.as, pending)
	if singles > 0 {
		fmt.Fprintf(w, ", %d of them single-label (one annotator's label, the others not asked)", singles)
	}
	fmt.Fprintf(w, " (annotate review --as %s)\n", names.ShellWord(g.as))
	if acc.Held > 0 {
		fmt.Fprintln(w, adjudication.HeldMessage(g.as, acc.Held))
	}
	switch {
	case rev.Ready > 0:
		fmt.Fprintf(w, "%d more agreements became ready: run --accept again\n", rev.Ready)
	case single && rev.ReadySingle > 0:
		fmt.Fprintf(w, "%d more labels became ready: run --accept --single again\n", rev.ReadySingle)
	}
	if !single && rev.ReadySingle > rev.Ready {
		fmt.Fprintf(w, "%d single labels are ready: --accept --single accepts them\n", rev.ReadySingle-rev.Ready)
	}
	return nil
}

// reviewLock keeps one review screen per lead and database, as the
// annotation screens are kept one per annotator: two would adjudicate the
// same disagreement twice.
func reviewLock(cmd *cobra.Command, g *globals, s *store.Store, lead string) (*store.ScreenLease, error) {
	return acquireScreen(cmd, g, s, lead, "review")
}
