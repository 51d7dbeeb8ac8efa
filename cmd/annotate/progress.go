package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/annotate-dev/annotate/exporter"
	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

// activeTimeRule says how active time is counted (one sentence for the
// card, progress, README and docs/metrics.md).
const activeTimeRule = exporter.ActiveTimeRule

// activeTimeKey is the rule as the catalog holds it, to be said in the
// reader's language (a test holds it to the exporter's English).
var activeTimeKey = lang.Key("Active time is the sum of the gaps between key presses on an item, each gap counted up to 5 minutes.")

// defaultSessionLimit is the paper's "at most two hours" per sitting, the
// default of the screens' break reminder (--session-limit) too.
const defaultSessionLimit = 2 * time.Hour

func init() {
	register(func(g *globals) *cobra.Command {
		var who string
		var sessions bool
		var limit time.Duration
		cmd := &cobra.Command{
			Use:   "progress",
			Short: "Per annotator and batch: done, remaining, active time, items per hour; --sessions: each sitting",
			Long: `progress shows, per annotator and queue (a batch, or every item of a
kind): items done and remaining, active time, items per hour of active time
and the median active seconds per finished item.

--sessions lists each annotator's sessions instead: start, length (wall
clock, from start to end; a session that was never closed, because the
program was killed or crashed or is still open, counts until its last
decision, note or flag and is marked "not closed"), active time and
decisions, and flags those longer than --session-limit (default 2h, the
paper's "at most two hours").

` + activeTimeRule,
			Example: "  annotate progress\n  annotate progress --annotator jo --json\n  annotate progress --sessions --session-limit 90m",
			Args:    cobra.NoArgs,
			RunE: g.withDB(func(cmd *cobra.Command, args []string, s *store.Store) error {
				if who != "" {
					names, err := annotatorNames(s)
					if err != nil {
						return err
					}
					if !slices.Contains(names, who) {
						return notFoundError("annotator", who, names)
					}
				}
				l := lang.New(g.language(s, g.as))
				if sessions {
					spans, err := s.SessionSpans(who)
					if err != nil {
						return err
					}
					rep := buildSessionsReport(spans, limit)
					if g.json {
						return json.NewEncoder(cmd.OutOrStdout()).Encode(rep)
					}
					return rep.writeText(cmd.OutOrStdout(), l, who)
				}
				rows, err := s.Progress(who)
				if err != nil {
					return err
				}
				out := cmd.OutOrStdout()
				if g.json {
					type row struct {
						Annotator    string   `json:"annotator"`
						Batch        string   `json:"batch"`
						Kind         string   `json:"kind"`
						Done         int      `json:"done"`
						Remaining    int      `json:"remaining"`
						Total        int      `json:"total"`
						ActiveSec    float64  `json:"active_seconds"`
						ItemsPerHour *float64 `json:"items_per_hour"`          // null without active time
						MedianSec    *float64 `json:"median_seconds_per_item"` // null without a timed finished item
					}
					js := []row{}
					for _, p := range rows {
						perHour, median := rates(p)
						js = append(js, row{p.Annotator, p.Batch, p.Kind, p.Done, p.Remaining(), p.Total,
							float64(p.ActiveMs) / 1000, perHour, median})
					}
					return json.NewEncoder(out).Encode(js)
				}
				if len(rows) == 0 {
					fmt.Fprintln(out, l.Sprintf("no annotators yet"))
					return nil
				}
				tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
				fmt.Fprintln(tw, l.Sprintf("ANNOTATOR\tQUEUE\tKIND\tDONE\tREMAINING\tACTIVE\tITEMS/H\tMEDIAN S/ITEM\t"))
				for _, p := range rows {
					queue := p.Batch
					if queue == "" {
						queue = l.Sprintf("(all items)")
					}
					perHour, median := rates(p)
					fmt.Fprintln(tw, l.Sprintf("%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t", p.Annotator, queue, p.Kind, p.Done, p.Remaining(),
						(time.Duration(p.ActiveMs)*time.Millisecond).Round(time.Second), orDash(l, perHour), orDash(l, median)))
				}
				if err := tw.Flush(); err != nil {
					return err
				}
				fmt.Fprintln(out, "\n"+l.Text(activeTimeKey))
				return nil
			}),
		}
		f := cmd.Flags()
		f.StringVar(&who, "annotator", "", "only this annotator")
		f.BoolVar(&sessions, "sessions", false, "list each annotator's sessions: start, length, active time, those over --session-limit")
		f.DurationVar(&limit, "session-limit", defaultSessionLimit, "with --sessions: flag sessions longer than this (wall clock)")
		return cmd
	})
}

// rates are a queue's items per hour and median seconds per finished item,
// nil when there is nothing to count (no active time, no timed item).
func rates(p store.Progress) (perHour, median *float64) {
	if v, ok := p.ItemsPerHour(); ok {
		perHour = &v
	}
	if p.Timed > 0 {
		m := float64(p.MedianMs) / 1000
		median = &m
	}
	return perHour, median
}

// orDash prints a statistic with one decimal, "—" when it has nothing to count.
func orDash(l *lang.Printer, x *float64) string {
	if x == nil {
		return "—"
	}
	return l.Sprintf("%.1f", *x)
}
