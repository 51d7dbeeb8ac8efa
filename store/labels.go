package store

import (
	"database/sql"
	"errors"
	"fmt"

	"github.com/annotate-dev/annotate/schema"
)

// Label is one labelling decision to record. Every write records with it
// the version of the field's guidelines in force in its transaction
// (guidelines.go): the store decides, not the caller.
type Label struct {
	Annotator  string
	ItemID     int64
	Field      string
	Value      string
	ActiveMs   int64
	SessionID  int64 // 0: none (imported)
	Adjudicate bool  // a lead's final label
	// SuggestedBy names the system whose prediction was preselected when
	// the label was made (annotate --suggest); "": made blind.
	SuggestedBy string
	// AllowOwn: an adjudication may decide a unit in which the lead gave a
	// label (--allow-own), recorded as such; without it that is refused
	// (review.Adjudicator).
	AllowOwn bool
	// ownUnit: the adjudication decides the lead's own unit (own_unit).
	ownUnit bool
}

// Event is one row of the label log.
type Event struct {
	ID        int64
	Annotator string
	ItemID    int64
	ItemExtID string
	Field     string
	Value     string
	Role      string
	CreatedAt string
	ActiveMs  int64
	Retracts  int64
}

// Role values of label events.
const (
	RoleAnnotate   = "annotate"
	RoleAdjudicate = "adjudicate"
)

// RecordLabel appends one decision to the log and commits it before
// returning, so the screen can show it as made. It returns the event id.
func (s *Store) RecordLabel(l Label) (int64, error) {
	var id int64
	err := s.write(func(tx *wtx) error {
		var err error
		id, err = recordLabel(tx, l)
		return err
	})
	return id, err
}

// RecordLabels appends decisions to the log, in order, in one transaction:
// a screen whose decisions waited for another process's write writes them
// together once the lock is free, rather than one lock at a time.
func (s *Store) RecordLabels(ls []Label) error {
	return s.write(func(tx *wtx) error {
		for _, l := range ls {
			if _, err := recordLabel(tx, l); err != nil {
				return err
			}
		}
		return nil
	})
}

func recordLabel(tx *wtx, l Label) (int64, error) {
	if err := schema.CheckField(l.Field); err != nil {
		return 0, err
	}
	// An item of an import not done yet waits for it: the import may yet be
	// undone.
	if err := pendingItem(tx, l.ItemID); err != nil {
		return 0, err
	}
	aid, err := annotatorID(tx, l.Annotator)
	if err != nil {
		return 0, err
	}
	role := RoleAnnotate
	if l.Adjudicate {
		role = RoleAdjudicate
		if l.ownUnit, err = ownDecision(tx, l.Annotator, l.AllowOwn, l.ItemID, l.Field); err != nil {
			return 0, err
		}
	}
	id, err := insertEvent(tx, aid, role, l)
	if err != nil {
		return 0, fmt.Errorf("record %s of item %d: %w", l.Field, l.ItemID, err)
	}
	if l.SessionID != 0 && l.ActiveMs > 0 {
		if _, err := tx.Exec("UPDATE sessions SET active_ms = active_ms + ? WHERE id=?", l.ActiveMs, l.SessionID); err != nil {
			return 0, err
		}
	}
	if err := setCurrent(tx, role, aid, l.ItemID, l.Field, l.Value, id); err != nil {
		return 0, err
	}
	return id, tx.touch(l.ItemID)
}

// insertEvent appends one decision to the log.
func insertEvent(tx *wtx, aid int64, role string, l Label) (int64, error) {
	return insertEventAt(tx, aid, role, l, now())
}

// insertEventAt appends an event with the time given (the events of one
// step share theirs). It records the version of the field's guidelines in
// force in the transaction (guidelines.go).
func insertEventAt(tx *wtx, aid int64, role string, l Label, at string) (int64, error) {
	gv, err := tx.guidelinesVersion(l.Field)
	if err != nil {
		return 0, err
	}
	res, err := tx.Exec(`INSERT INTO label_events(annotator_id,item_id,field,value,role,created_at,active_ms,session_id,guidelines_version,suggested_by,own_unit)
		VALUES (?,?,?,?,?,?,?,?,?,?,?)`, aid, l.ItemID, l.Field, l.Value, role, at, l.ActiveMs, nullID(l.SessionID), gv, nullText(l.SuggestedBy), l.ownUnit)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// setCurrent makes a just-appended event the current label of its key: being
// the newest event and retracting nothing, it is what refreshCurrent would pick.
func setCurrent(tx *wtx, role string, aid, item int64, field, value string, event int64) error {
	if role == RoleAdjudicate {
		aid = 0
	}
	_, err := tx.Exec("INSERT OR REPLACE INTO current_labels(role,annotator_id,item_id,field,value,event_id) VALUES (?,?,?,?,?,?)",
		role, aid, item, field, value, event)
	return err
}

// refreshCurrent recomputes one row of current_labels from the log: the
// latest event that is neither a retraction nor retracted. For adjudication the
// latest adjudicator wins, so the row is kept under annotator 0.
func refreshCurrent(tx *wtx, role string, aid, item int64, field string) error {
	keyAID := aid
	who := "e.annotator_id=? AND"
	args := []any{aid, item, field, role}
	if role == RoleAdjudicate {
		keyAID = 0
		who = ""
		args = args[1:]
	}
	if _, err := tx.Exec("DELETE FROM current_labels WHERE role=? AND annotator_id=? AND item_id=? AND field=?", role, keyAID, item, field); err != nil {
		return err
	}
	_, err := tx.Exec(`INSERT INTO current_labels(role,annotator_id,item_id,field,value,event_id)
		SELECT e.role, `+fmt.Sprint(keyAID)+`, e.item_id, e.field, e.value, e.id FROM label_events e
		WHERE `+who+` e.item_id=? AND e.field=? AND e.role=? AND e.retracts IS NULL
		  AND NOT EXISTS (SELECT 1 FROM label_events r WHERE r.retracts=e.id)
		ORDER BY e.id DESC LIMIT 1`, args...)
	return err
}

// labelsOf returns the current labels of one annotator on one item.
func labelsOf(q querier, aid, item int64) (map[string]string, error) {
	rows, err := q.Query("SELECT field, value FROM current_labels WHERE role='annotate' AND annotator_id=? AND item_id=?", aid, item)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cur := map[string]string{}
	for rows.Next() {
		var f, v string
		if err := rows.Scan(&f, &v); err != nil {
			return nil, err
		}
		cur[f] = v
	}
	return cur, rows.Err()
}

// Undo retracts the annotator's latest standing decision (role annotate) and
// returns the event it retracted and, read in the same transaction, the item
// to show again: the item of the retracted decision, or the one its kind
// names instead (UndoesBack). ErrNothingToUndo when there is none.
func (s *Store) Undo(annotator string) (Event, ItemRef, error) {
	var ev Event
	var back ItemRef
	err := s.write(func(tx *wtx) error {
		aid, err := annotatorID(tx, annotator)
		if err != nil {
			return err
		}
		err = tx.QueryRow(`SELECT e.id, e.item_id, i.ext_id, e.field, e.value, e.created_at, e.active_ms, e.session_id
			FROM label_events e JOIN items i ON i.id=e.item_id
			WHERE e.annotator_id=? AND e.role='annotate' AND e.retracts IS NULL
			  AND NOT EXISTS (SELECT 1 FROM label_events r WHERE r.retracts=e.id)
			ORDER BY e.id DESC LIMIT 1`, aid).Scan(&ev.ID, &ev.ItemID, &ev.ItemExtID, &ev.Field, &ev.Value, &ev.CreatedAt, &ev.ActiveMs, new(sql.NullInt64))
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNothingToUndo
		}
		if err != nil {
			return err
		}
		ev.Annotator, ev.Role = annotator, RoleAnnotate
		if _, err := tx.Exec(`INSERT INTO label_events(annotator_id,item_id,field,value,role,created_at,retracts)
			VALUES (?,?,?,NULL,'annotate',?,?)`, aid, ev.ItemID, ev.Field, now(), ev.ID); err != nil {
			return err
		}
		if err := refreshCurrent(tx, RoleAnnotate, aid, ev.ItemID, ev.Field); err != nil {
			return err
		}
		var kind string
		if err := tx.QueryRow("SELECT kind FROM items WHERE id=?", ev.ItemID).Scan(&kind); err != nil {
			return err
		}
		back = ItemRef{ItemID: ev.ItemID, ExtID: ev.ItemExtID, Kind: kind}
		if u, ok := kinds.Get(schema.Kind(kind)).(UndoesBack); ok {
			id, err := u.UndoBack(tx, ev)
			if err != nil {
				return err
			}
			if id != 0 && id != ev.ItemID {
				back.ItemID = id
				if err := tx.QueryRow("SELECT ext_id, kind FROM items WHERE id=?", id).Scan(&back.ExtID, &back.Kind); err != nil {
					return err
				}
			}
		}
		return tx.touch(ev.ItemID)
	})
	return ev, back, err
}

// ErrNothingToUndo is returned by Undo when the annotator has no decision left.
var ErrNothingToUndo = errors.New("nothing to undo")

// CurrentLabels returns the annotator's current labels on an item (field -> value),
// including fields that are no longer asked; schema.Counted filters those.
func (rx *ReadTx) CurrentLabels(annotator string, item int64) (map[string]string, error) {
	aid, ok, err := lookupAnnotator(rx.q, annotator)
	if err != nil {
		return nil, err
	}
	if !ok {
		return map[string]string{}, nil
	}
	return labelsOf(rx.q, aid, item)
}

// History returns every event of the log for an item, oldest first.
func (rx *ReadTx) History(item int64) ([]Event, error) {
	rows, err := rx.q.Query(`SELECT e.id, a.name, e.item_id, i.ext_id, e.field, COALESCE(e.value,''), e.role, e.created_at, e.active_ms, COALESCE(e.retracts,0)
		FROM label_events e JOIN annotators a ON a.id=e.annotator_id JOIN items i ON i.id=e.item_id WHERE e.item_id=? ORDER BY e.id`, item)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		var e Event
		if err := rows.Scan(&e.ID, &e.Annotator, &e.ItemID, &e.ItemExtID, &e.Field, &e.Value, &e.Role, &e.CreatedAt, &e.ActiveMs, &e.Retracts); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// LastWorked is the item of the annotator's latest decision (zero when
// there is none) and the batches that hold it. It looks among the latest
// events of the log first (a short scan however long the log), then at
// every event of the annotator.
func (rx *ReadTx) LastWorked(annotator string) (ItemRef, []string, error) {
	aid, ok, err := lookupAnnotator(rx.q, annotator)
	if err != nil || !ok {
		return ItemRef{}, nil, err
	}
	var ev sql.NullInt64
	err = rx.q.QueryRow(`SELECT e.id FROM label_events e WHERE e.id > (SELECT COALESCE(MAX(id), 0) - 10000 FROM label_events)
		AND +e.annotator_id=? AND e.role=? ORDER BY e.id DESC LIMIT 1`, aid, RoleAnnotate).Scan(&ev)
	if errors.Is(err, sql.ErrNoRows) {
		// The annotator's latest by time, read backwards on label_events_time.
		err = rx.q.QueryRow("SELECT id FROM label_events WHERE annotator_id=? AND role=? ORDER BY created_at DESC, id DESC LIMIT 1", aid, RoleAnnotate).Scan(&ev)
		if errors.Is(err, sql.ErrNoRows) {
			return ItemRef{}, nil, nil
		}
	}
	if err != nil || !ev.Valid {
		return ItemRef{}, nil, err
	}
	var r ItemRef
	if err := rx.q.QueryRow("SELECT i.id, i.ext_id, i.kind FROM label_events e JOIN items i ON i.id=e.item_id WHERE e.id=?", ev.Int64).
		Scan(&r.ItemID, &r.ExtID, &r.Kind); err != nil {
		return r, nil, err
	}
	rows, err := rx.q.Query("SELECT b.name FROM batch_items bi JOIN batches b ON b.id=bi.batch_id WHERE bi.item_id=? ORDER BY b.id", r.ItemID)
	if err != nil {
		return r, nil, err
	}
	defer rows.Close()
	var batches []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return r, nil, err
		}
		batches = append(batches, name)
	}
	return r, batches, rows.Err()
}
