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

// reviewKind runs the review of a kind with a review of its own (the gold
// answers of answer tasks); handled is false for --kind "" (the
// adjudication of disagreements).
func reviewKind(cmd *cobra.Command, g *globals, s *store.Store, kind, batch string) (handled bool, err error) {
	switch schema.Kind(kind) {
	case "":
		return false, nil
	case schema.KindAnswerTask:
	default:
		return true, fmt.Errorf("--kind %q: the review of a kind of its own is for answer_task%s (without --kind: the adjudication of disagreements)", kind, suggest.Hint(kind, []string{"answer_task"}))
	}
	for _, name := range []string{"annotators", "field", "system", "annotator", "adjudicated", "accept", "single"} {
		if cmd.Flags().Changed(name) {
			return true, fmt.Errorf("--%s does not apply to --kind answer_task", name)
		}
	}
	if g.json {
		units, err := s.AnswerUnits(batch)
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
		}
		out := []unit{}
		pending := 0
		for _, u := range units {
			j := unit{Item: u.ExtID, Query: u.Task.QueryID, Annotator: u.Annotator, Review: u.Review, Chars: utf8.RuneCountInString(u.Answer), Citations: u.Citations}
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
	lock, err := reviewLock(s, g.as)
	if err != nil {
		return true, err
	}
	defer lock.Release()
	if err := needTerminal(); err != nil {
		return true, err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	return true, tui.Run(ctx, tui.Options{Store: s, Annotator: g.as, Start: tui.AnswerReview(adjudicate.AnswerOptions{Store: s, Lead: g.as, Batch: batch}), Lang: g.language(s, g.as)})
}
