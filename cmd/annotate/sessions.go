package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/store"
)

// The sessions report (progress --sessions): each sitting's length against
// the session limit, and its active time.

type sessionsReport struct {
	LimitSeconds float64                       `json:"session_limit_seconds"`
	Annotators   map[string]*annotatorSessions `json:"annotators"`
	order        []string                      // annotators in creation order, for the text
}

type annotatorSessions struct {
	Sessions      []sessionRow `json:"sessions"`
	Count         int          `json:"count"`
	OverLimit     int          `json:"over_limit"`
	NotClosed     int          `json:"not_closed"`
	LengthSeconds float64      `json:"length_seconds"`
	ActiveSeconds float64      `json:"active_seconds"`
}

type sessionRow struct {
	ID            int64      `json:"id"`
	Client        string     `json:"client"`
	StartedAt     time.Time  `json:"started_at"`
	EndedAt       *time.Time `json:"ended_at"`      // null: never closed
	LastEventAt   *time.Time `json:"last_event_at"` // null: no decision, note or flag
	Closed        bool       `json:"closed"`
	LengthSeconds float64    `json:"length_seconds"`
	ActiveSeconds float64    `json:"active_seconds"`
	Decisions     int        `json:"decisions"`
	OverLimit     bool       `json:"over_limit"`
	length        time.Duration
}

// buildSessionsReport measures each session. Length is wall clock: end minus
// start; a session never closed counts until its last event (0 without
// one). A session is over the limit when its length exceeds it (limit 0:
// no limit).
func buildSessionsReport(spans []store.SessionSpan, limit time.Duration) *sessionsReport {
	rep := &sessionsReport{LimitSeconds: limit.Seconds(), Annotators: map[string]*annotatorSessions{}}
	for _, sp := range spans {
		a := rep.Annotators[sp.Annotator]
		if a == nil {
			a = &annotatorSessions{Sessions: []sessionRow{}}
			rep.Annotators[sp.Annotator] = a
			rep.order = append(rep.order, sp.Annotator)
		}
		r := sessionRow{ID: sp.ID, Client: sp.Client, StartedAt: sp.StartedAt.UTC(), Closed: !sp.EndedAt.IsZero(),
			ActiveSeconds: float64(sp.ActiveMs) / 1000, Decisions: sp.Decisions}
		end := sp.EndedAt
		if r.Closed {
			t := sp.EndedAt.UTC()
			r.EndedAt = &t
		} else {
			end = sp.LastEvent
		}
		if !sp.LastEvent.IsZero() {
			t := sp.LastEvent.UTC()
			r.LastEventAt = &t
		}
		if !end.IsZero() && end.After(sp.StartedAt) {
			r.length = end.Sub(sp.StartedAt)
		}
		r.LengthSeconds = r.length.Seconds()
		r.OverLimit = limit > 0 && r.length > limit
		a.Sessions = append(a.Sessions, r)
		a.Count++
		a.LengthSeconds += r.LengthSeconds
		a.ActiveSeconds += r.ActiveSeconds
		if r.OverLimit {
			a.OverLimit++
		}
		if !r.Closed {
			a.NotClosed++
		}
	}
	return rep
}

func (rep *sessionsReport) writeText(w io.Writer, l *lang.Printer, who string) error {
	limit := time.Duration(rep.LimitSeconds * float64(time.Second))
	if len(rep.order) == 0 {
		if who != "" {
			fmt.Fprintln(w, l.Sprintf("%s has no sessions yet", who))
		} else {
			fmt.Fprintln(w, l.Sprintf("no sessions yet"))
		}
		return nil
	}
	for i, name := range rep.order {
		a := rep.Annotators[name]
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprint(w, l.Sprintf("%s: %d sessions, %s wall clock, %s active", name, a.Count,
			short(seconds(a.LengthSeconds)), short(seconds(a.ActiveSeconds))))
		if limit > 0 {
			fmt.Fprint(w, l.Sprintf("; %d longer than %s", a.OverLimit, short(limit)))
		}
		fmt.Fprintln(w)
		var table strings.Builder
		tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  "+l.Sprintf("STARTED\tLENGTH\tACTIVE\tDECISIONS\tCLIENT\t"))
		for _, r := range a.Sessions {
			var marks string
			if !r.Closed {
				marks = l.Sprintf("not closed")
			}
			if r.OverLimit {
				if marks != "" {
					marks += ", "
				}
				marks += l.Sprintf("over %s", short(limit))
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%d\t%s\t%s\n", r.StartedAt.Local().Format("2006-01-02 15:04"), short(r.length),
				short(seconds(r.ActiveSeconds)), r.Decisions, r.Client, marks)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for _, line := range strings.SplitAfter(table.String(), "\n") {
			if line != "" {
				fmt.Fprintln(w, strings.TrimRight(line, " \n"))
			}
		}
	}
	fmt.Fprintln(w, "\n"+l.Sprintf("Length is wall clock, from start to end; a session not closed (the program was killed or crashed, or is still open) counts until its last decision, note or flag.")+
		" "+l.Text(activeTimeKey))
	return nil
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// short writes a duration as "2h05m", "45m" or "12s".
func short(d time.Duration) string {
	d = d.Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}
