package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"unicode/utf8"

	"github.com/annotate-dev/annotate/internal/suggest"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui"
	"github.com/annotate-dev/annotate/tui/adjudicate"
	"github.com/spf13/cobra"
)

// reviewKinds are the kinds with a review of their own (review --kind).
var reviewKinds = []string{string(schema.KindAnswerTask)}

// checkReviewKind checks --kind and the flags that go with it before
// anything is opened: "" (the adjudication of disagreements) or
// answer_task, which takes none of the adjudication's flags.
func checkReviewKind(cmd *cobra.Command, kind string) error {
	switch schema.Kind(kind) {
	case "":
		return nil
	case schema.KindAnswerTask:
	default:
		return fmt.Errorf("--kind %q: the review of a kind of its own is for answer_task%s (without --kind: the adjudication of disagreements)", kind, suggest.Hint(kind, reviewKinds))
	}
	for _, name := range []string{"annotators", "field", "system", "annotator", "adjudicated", "accept", "single"} {
		if cmd.Flags().Changed(name) {
			return fmt.Errorf("--%s does not apply to --kind answer_task", name)
		}
	}
	return nil
}

// reviewKind runs the review of a kind with a review of its own (the gold
// answers of answer tasks); handled is false for --kind "" (the
// adjudication of disagreements).
func reviewKind(cmd *cobra.Command, g *globals, s *store.Store, o *reviewFlags) (handled bool, err error) {
	if o.kind == "" {
		return false, nil
	}
	batch := o.batch
	if g.json {
		units, err := store.ReadValue(s, func(rx *store.ReadTx) ([]store.AnswerUnit, error) { return rx.AnswerUnitsOf(batch, g.as) })
		if err != nil {
			return true, err
		}
		type unit struct {
			Item      string   `json:"item"`
			Query     string   `json:"query"`
			Annotator string   `json:"annotator"`
			Review    string   `json:"review"` // pending, accepted, rejected, other
			Reason    *string  `json:"reject_reason"`
			Chars     int      `json:"answer_chars"`
			Citations []string `json:"citations"`
			Own       bool     `json:"own"` // the lead's own answer: its review needs --allow-own
		}
		out := []unit{}
		pending := 0
		for _, u := range units {
			j := unit{Item: u.ExtID, Query: u.Task.QueryID, Annotator: u.Annotator, Review: u.Review, Chars: utf8.RuneCountInString(u.Answer), Citations: u.Citations, Own: u.Own}
			if j.Review == store.ReviewPending {
				j.Review, pending = "pending", pending+1
			}
			if u.Reason != "" {
				j.Reason = &u.Reason
			}
			out = append(out, j)
		}
		return true, json.NewEncoder(cmd.OutOrStdout()).Encode(map[string]any{"lead": g.as, "batch": batch, "answers": out, "pending": pending})
	}
	lock, err := reviewLock(cmd, g, s, g.as)
	if err != nil {
		return true, err
	}
	defer lock.Release()
	if err := needTerminal(); err != nil {
		return true, err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	return true, tui.Run(ctx, tui.Options{Store: s, Annotator: g.as, Start: tui.AnswerReview(adjudicate.AnswerOptions{Store: s, Lead: g.as, Batch: batch, AllowOwn: o.allowOwn}), Lang: g.language(s, g.as)})
}
