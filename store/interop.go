package store

import (
	"iter"
)

// The exchange formats (Label Studio, Prodigy) read the current labels with
// the time they were given, and the predictions, either as one stream in
// item order or for a batch of items at a time (the items of a kind stream
// past, and each batch fetches its labels by primary key): memory holds a
// batch, never every label. They write one prediction at a time.

// TimedLabel is a current label with its item's kind and the time it was given.
type TimedLabel struct {
	ExportLabel
	ItemID int64
	Kind   string
	At     string // RFC 3339, as the event log keeps it
}

// timedLabelSQL reads TimedLabels (scanTimed) in the order of the key of
// current_labels: item, field, role, annotator.
const timedLabelSQL = `SELECT a.name, l.item_id, i.ext_id, i.kind, l.field, l.value, l.role, e.created_at
	FROM current_labels l JOIN label_events e ON e.id = l.event_id JOIN annotators a ON a.id = e.annotator_id
	JOIN items i ON i.id = l.item_id`

func scanTimed(sc func(...any) error) (TimedLabel, error) {
	var l TimedLabel
	err := sc(&l.Annotator, &l.ItemID, &l.Item, &l.Kind, &l.Field, &l.Value, &l.Role, &l.At)
	return l, err
}

// TimedLabels streams every current label of every annotator (an adjudicated
// one under who adjudicated, Role RoleAdjudicate), item by item in import
// order; field "" for every field.
func (x *Snapshot) TimedLabels(field string) iter.Seq2[TimedLabel, error] {
	return func(yield func(TimedLabel, error) bool) {
		rows, err := x.q.Query(timedLabelSQL+` WHERE ? = '' OR l.field = ?
			ORDER BY l.item_id, l.field, l.role, l.annotator_id`, field, field)
		if err != nil {
			yield(TimedLabel{}, err)
			return
		}
		defer rows.Close()
		for rows.Next() {
			l, err := scanTimed(rows.Scan)
			if err != nil {
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

// TimedLabelsOf reads the current labels of a batch of items (a few
// hundred), by item id, each item's in the order TimedLabels streams them.
func (x *Snapshot) TimedLabelsOf(ids []int64) (map[int64][]TimedLabel, error) {
	out := make(map[int64][]TimedLabel, len(ids))
	err := eachRow(x.q, timedLabelSQL+` WHERE l.item_id IN (SELECT value FROM json_each(?))
		ORDER BY l.item_id, l.field, l.role, l.annotator_id`, []any{jsonInts(ids)}, func(sc func(...any) error) error {
		l, err := scanTimed(sc)
		out[l.ItemID] = append(out[l.ItemID], l)
		return err
	})
	return out, err
}

// LabelAnnotators lists, by name, who gave a current label (an adjudicated
// one under who adjudicated): the names TimedLabels streams.
func (x *Snapshot) LabelAnnotators() ([]string, error) {
	// Each annotator's events by index, until one is a current label: no
	// scan of every label.
	return x.strings(`SELECT a.name FROM annotators a WHERE EXISTS (SELECT 1 FROM label_events e JOIN current_labels l
		ON l.item_id = e.item_id AND l.field = e.field AND l.role = e.role AND l.event_id = e.id
		AND l.annotator_id = CASE e.role WHEN ? THEN 0 ELSE e.annotator_id END
		WHERE e.annotator_id = a.id) ORDER BY a.name`, RoleAdjudicate)
}

// ExportPrediction is one system's prediction of one field of an item.
type ExportPrediction struct {
	Item, System, Field, Value string
}

// PredictionsOf reads the predictions of a batch of items, by item id, each
// item's in the order Predictions streams them (system, field).
func (x *Snapshot) PredictionsOf(ids []int64) (map[int64][]ExportPrediction, error) {
	out := make(map[int64][]ExportPrediction, len(ids))
	err := eachRow(x.q, `SELECT p.item_id, i.ext_id, p.system, p.field, p.value
		FROM predictions p JOIN items i ON i.id = p.item_id WHERE p.item_id IN (SELECT value FROM json_each(?))
		ORDER BY p.item_id, p.system, p.field`, []any{jsonInts(ids)}, func(sc func(...any) error) error {
		var id int64
		var p ExportPrediction
		err := sc(&id, &p.Item, &p.System, &p.Field, &p.Value)
		out[id] = append(out[id], p)
		return err
	})
	return out, err
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
