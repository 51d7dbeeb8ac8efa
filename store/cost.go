package store

import (
	"database/sql"
	"fmt"
	"time"
)

// What the cost report reads (annotate cost): each annotator's hourly rate,
// currency and role (annotate annotator set), and their work per task kind:
// active time from the label log, wall-clock session time shared out among
// the kinds a session's decisions were on, in proportion to their active
// time.

// AnnotatorRate is what an annotator is paid.
type AnnotatorRate struct {
	Name     string
	Rate     *float64 // per hour; nil: not set
	Currency string
	Role     string
}

// SetAnnotator sets (creating the annotator if needed) the fields given:
// rate (nil: unchanged), currency and role ("" : unchanged), after check,
// when not nil, accepted every annotator's role as it stands in the same
// write transaction (who may make a lead is decided on the roles no other
// process is changing).
func (s *Store) SetAnnotator(check func(roles []AnnotatorRate) error, name string, rate *float64, currency, role string) (AnnotatorRate, error) {
	var out AnnotatorRate
	err := s.write(func(tx *wtx) error {
		if check != nil {
			rs, err := roles(tx)
			if err != nil {
				return err
			}
			if err := check(rs); err != nil {
				return err
			}
		}
		id, err := annotatorID(tx, name)
		if err != nil {
			return err
		}
		if rate != nil {
			if _, err := tx.Exec("UPDATE annotators SET rate=? WHERE id=?", *rate, id); err != nil {
				return err
			}
		}
		if currency != "" {
			if _, err := tx.Exec("UPDATE annotators SET currency=? WHERE id=?", currency, id); err != nil {
				return err
			}
		}
		if role != "" {
			if _, err := tx.Exec("UPDATE annotators SET role=? WHERE id=?", role, id); err != nil {
				return err
			}
		}
		out, err = rateOf(tx, id)
		return err
	})
	return out, err
}

func rateOf(q querier, id int64) (AnnotatorRate, error) {
	var a AnnotatorRate
	var rate sql.NullFloat64
	err := q.QueryRow("SELECT name, rate, currency, role FROM annotators WHERE id=?", id).Scan(&a.Name, &rate, &a.Currency, &a.Role)
	if rate.Valid {
		a.Rate = &rate.Float64
	}
	return a, err
}

// KindWork is one annotator's work on one task kind ("review" for the
// lead's adjudications of any kind).
type KindWork struct {
	Annotator string
	Kind      string
	Items     int     // distinct items with a decision of theirs
	Groups    int     // distinct parents of those items (a claim's QA pair), 0 for kinds without a parent
	Queries   int     // distinct queries of those items, for a kind that is QueryGrouped (a relevance judgment's query), else 0
	ActiveMs  int64   // active time of the decisions
	SessionMs float64 // wall-clock session time shared out by active time
}

// ReviewKind names the lead's adjudications in KindWork.
const ReviewKind = "review"

// CostWork reads every annotator's rate and work per kind. A session's length
// is wall clock: end minus start, or until its last decision, note or flag
// when it was never ended (killed, or still open).
func (rx *ReadTx) CostWork() ([]AnnotatorRate, []KindWork, error) {
	var rates []AnnotatorRate
	var work []KindWork
	spans, err := rx.SessionSpans("")
	if err != nil {
		return nil, nil, err
	}
	err = func() error {
		err := eachRow(rx.q, "SELECT id FROM annotators ORDER BY id", nil, func(sc func(...any) error) error {
			var id int64
			if err := sc(&id); err != nil {
				return err
			}
			a, err := rateOf(rx.q, id)
			rates = append(rates, a)
			return err
		})
		if err != nil {
			return err
		}
		byKey := map[[2]string]*KindWork{}
		var keys [][2]string
		get := func(who, kind string) *KindWork {
			k := [2]string{who, kind}
			if byKey[k] == nil {
				byKey[k] = &KindWork{Annotator: who, Kind: kind}
				keys = append(keys, k)
			}
			return byKey[k]
		}
		// The kept totals (migration 0014): one row per annotator and task,
		// one per session and task, rather than the label log.
		err = eachRow(rx.q, `SELECT a.name, w.task, w.items, w.groups_, w.ms
			FROM work_tasks w JOIN annotators a ON a.id=w.annotator_id ORDER BY a.id, w.task`, nil, func(sc func(...any) error) error {
			var who, kind string
			var items, groups int
			var ms int64
			if err := sc(&who, &kind, &items, &groups, &ms); err != nil {
				return err
			}
			w := get(who, kind)
			w.Items, w.Groups, w.ActiveMs = items, groups, ms
			return nil
		})
		if err != nil {
			return err
		}
		// The queries of a QueryGrouped kind's work items: few (a pool's
		// judgments), read from the work items rather than kept.
		for _, k := range kinds.All() {
			qg, ok := k.(QueryGrouped)
			if !ok {
				continue
			}
			err = eachRow(rx.q, `SELECT a.name, COUNT(DISTINCT `+fmt.Sprintf(qg.QuerySQL(), "w.item_id")+`)
				FROM work_items w JOIN annotators a ON a.id = w.annotator_id WHERE w.task = ? GROUP BY a.id`, []any{string(k.Kind())},
				func(sc func(...any) error) error {
					var who string
					var n int
					if err := sc(&who, &n); err != nil {
						return err
					}
					get(who, string(k.Kind())).Queries = n
					return nil
				})
			if err != nil {
				return err
			}
		}
		// Per session: its length, and its active time per kind.
		type share struct {
			who, kind string
			ms        int64
		}
		bySession := map[int64][]share{}
		err = eachRow(rx.q, `SELECT t.session_id, a.name, t.task, t.ms
			FROM session_tasks t JOIN sessions s ON s.id=t.session_id JOIN annotators a ON a.id=s.annotator_id
			ORDER BY t.session_id, t.task`, nil, func(sc func(...any) error) error {
			var sid, ms int64
			var sh share
			if err := sc(&sid, &sh.who, &sh.kind, &ms); err != nil {
				return err
			}
			sh.ms = ms
			bySession[sid] = append(bySession[sid], sh)
			return nil
		})
		if err != nil {
			return err
		}
		for _, sp := range spans {
			length := SpanLength(sp)
			var total int64
			for _, sh := range bySession[sp.ID] {
				total += sh.ms
			}
			for _, sh := range bySession[sp.ID] {
				w := get(sh.who, sh.kind)
				if total > 0 {
					w.SessionMs += float64(length.Milliseconds()) * float64(sh.ms) / float64(total)
				} else {
					// Decisions without active time (an import): shared evenly.
					w.SessionMs += float64(length.Milliseconds()) / float64(len(bySession[sp.ID]))
				}
			}
		}
		for _, k := range keys {
			work = append(work, *byKey[k])
		}
		return nil
	}()
	return rates, work, err
}

// SessionHours is the wall-clock time of every session of each annotator.
func (rx *ReadTx) SessionHours() (map[string]float64, error) {
	out := map[string]float64{}
	spans, err := rx.SessionSpans("")
	for _, sp := range spans {
		out[sp.Annotator] += float64(SpanLength(sp).Milliseconds()) / 3.6e6 // as CostWork shares it out
	}
	return out, err
}

// SpanLength is a session's wall-clock length: end minus start, or, for a
// session never ended, until its last decision, note or flag (0 if none).
func SpanLength(sp SessionSpan) time.Duration {
	end := sp.EndedAt
	if end.IsZero() {
		end = sp.LastEvent
	}
	if end.IsZero() || end.Before(sp.StartedAt) {
		return 0
	}
	return end.Sub(sp.StartedAt)
}
