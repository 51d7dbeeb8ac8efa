package store

import (
	"iter"
)

// The exchange formats (Label Studio, Prodigy) read the current labels with
// the time they were given, and every prediction; they write one prediction
// at a time.

// TimedLabel is a current label with its item's kind and the time it was given.
type TimedLabel struct {
	ExportLabel
	Kind string
	At   string // RFC 3339, as the event log keeps it
}

// TimedLabels streams every current label of every annotator (an adjudicated
// one under who adjudicated, Role RoleAdjudicate), item by item in import
// order; field "" for every field.
func (x *Snapshot) TimedLabels(field string) iter.Seq2[TimedLabel, error] {
	return func(yield func(TimedLabel, error) bool) {
		rows, err := x.q.Query(`SELECT a.name, i.ext_id, i.kind, l.field, l.value, l.role, e.created_at
			FROM current_labels l JOIN label_events e ON e.id = l.event_id JOIN annotators a ON a.id = e.annotator_id
			JOIN items i ON i.id = l.item_id
			WHERE ? = '' OR l.field = ?
			ORDER BY l.item_id, l.field, l.role, l.annotator_id`, field, field)
		if err != nil {
			yield(TimedLabel{}, err)
			return
		}
		defer rows.Close()
		for rows.Next() {
			var l TimedLabel
			if err := rows.Scan(&l.Annotator, &l.Item, &l.Kind, &l.Field, &l.Value, &l.Role, &l.At); err != nil {
				yield(l, err)
				return
			}
			if !yield(l, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(TimedLabel{}, err)
		}
	}
}

// ExportPrediction is one system's prediction of one field of an item.
type ExportPrediction struct {
	Item, System, Field, Value string
}

// Predictions streams every prediction, item by item in import order.
func (x *Snapshot) Predictions() iter.Seq2[ExportPrediction, error] {
	return func(yield func(ExportPrediction, error) bool) {
		rows, err := x.q.Query(`SELECT i.ext_id, p.system, p.field, p.value
			FROM predictions p JOIN items i ON i.id = p.item_id ORDER BY p.item_id, p.system, p.field`)
		if err != nil {
			yield(ExportPrediction{}, err)
			return
		}
		defer rows.Close()
		for rows.Next() {
			var p ExportPrediction
			if err := rows.Scan(&p.Item, &p.System, &p.Field, &p.Value); err != nil {
				yield(p, err)
				return
			}
			if !yield(p, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(ExportPrediction{}, err)
		}
	}
}

// AddPrediction sets one system's prediction of one field of an item,
// keeping the other systems' (PutPredictions replaces them all). It reports
// whether anything changed.
func (t *Tx) AddPrediction(item int64, system, field, value string) (bool, error) {
	if err := t.tx.step(); err != nil {
		return false, err
	}
	if err := t.tx.flush(stagePredictions); err != nil {
		return false, err
	}
	t.tx.notePredictions(item, field)
	res, err := t.tx.Exec(`INSERT INTO predictions(item_id, system, field, value) VALUES (?, ?, ?, ?)
		ON CONFLICT(item_id, system, field) DO UPDATE SET value = excluded.value WHERE value <> excluded.value`,
		item, system, field, value)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	if err != nil || n == 0 {
		return false, err
	}
	return true, t.tx.touch(item)
}
