package store

import (
	"fmt"
	"time"
)

// Reads for the command line's reports on sessions and for explaining why a
// batch would be empty. SQL only: the interpretation (lengths, limits,
// messages) is the command's.

// SessionSpan is one sitting as the log records it.
type SessionSpan struct {
	ID        int64
	Annotator string
	Client    string
	StartedAt time.Time
	EndedAt   time.Time // zero: never ended (killed, crashed, or still open)
	LastEvent time.Time // latest decision, note or flag of the session; zero: none
	ActiveMs  int64     // active time of its decisions
	Decisions int       // label events (undos included)
}

// SessionSpans lists the sessions of one annotator ("" : every annotator),
// by annotator (creation order) then start. The label log's side is kept per
// session (session_events); notes and flags are each scanned once,
// grouped by session, rather than once per session.
func (rx *ReadTx) SessionSpans(annotator string) ([]SessionSpan, error) {
	return sessionSpansIn(rx.q, annotator)
}

// sessionSpansIn is SessionSpans on db: the pool, or a snapshot (the dashboard).
func sessionSpansIn(db querier, annotator string) ([]SessionSpan, error) {
	filter, args := "", []any{}
	if annotator != "" {
		filter, args = "WHERE a.name = ?", append(args, annotator)
	}
	// Stamps are RFC 3339 UTC text: MAX compares them as text, which is
	// their time order except within one second (a fraction is written
	// without trailing zeros), a difference the report does not show.
	rows, err := db.Query(`
		WITH ev AS (SELECT session_id, last, ms, n FROM session_events), -- kept by migration 0014's triggers
		     nt AS (SELECT session_id, MAX(created_at) AS last FROM notes WHERE session_id IS NOT NULL GROUP BY session_id),
		     fl AS (SELECT session_id, MAX(created_at) AS last FROM flags WHERE session_id IS NOT NULL GROUP BY session_id)
		SELECT s.id, a.name, s.client, s.started_at, COALESCE(s.ended_at, ''),
		       COALESCE(ev.last, ''), COALESCE(nt.last, ''), COALESCE(fl.last, ''),
		       COALESCE(ev.ms, 0), COALESCE(ev.n, 0)
		FROM sessions s JOIN annotators a ON a.id = s.annotator_id
		LEFT JOIN ev ON ev.session_id = s.id
		LEFT JOIN nt ON nt.session_id = s.id
		LEFT JOIN fl ON fl.session_id = s.id
		`+filter+`
		ORDER BY a.id, s.started_at, s.id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []SessionSpan
	for rows.Next() {
		var sp SessionSpan
		var started, ended, lastLabel, lastNote, lastFlag string
		if err := rows.Scan(&sp.ID, &sp.Annotator, &sp.Client, &started, &ended, &lastLabel, &lastNote, &lastFlag,
			&sp.ActiveMs, &sp.Decisions); err != nil {
			return nil, err
		}
		if sp.StartedAt, err = parseStamp(started); err != nil {
			return nil, fmt.Errorf("session %d: started_at: %w", sp.ID, err)
		}
		if sp.EndedAt, err = parseStamp(ended); err != nil {
			return nil, fmt.Errorf("session %d: ended_at: %w", sp.ID, err)
		}
		for _, ts := range []string{lastLabel, lastNote, lastFlag} {
			t, err := parseStamp(ts)
			if err != nil {
				return nil, fmt.Errorf("session %d: event time: %w", sp.ID, err)
			}
			if t.After(sp.LastEvent) {
				sp.LastEvent = t
			}
		}
		out = append(out, sp)
	}
	return out, rows.Err()
}

// parseStamp reads a stored time; "" is the zero time.
func parseStamp(ts string) (time.Time, error) {
	if ts == "" {
		return time.Time{}, nil
	}
	return time.Parse(time.RFC3339Nano, ts)
}
