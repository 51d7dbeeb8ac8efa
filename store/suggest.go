package store

import (
	"github.com/annotate-dev/annotate/schema"
)

// The suggestion pass (annotate --suggest SYSTEM): a system's predictions
// shown preselected, and the labels made so, which the reports keep apart
// from the blind ones (an annotator shown a system's answer tends to agree
// with it: scoring the system against those labels overstates it).

// LoadSuggestedItemView is ItemView with, in the same snapshot, the
// predictions of system on the item by field, normalised to the field's
// values; a prediction outside them is left out (nothing to preselect).
func (rx *ReadTx) LoadSuggestedItemView(annotator string, id int64, system string) (*ItemView, map[string]string, error) {
	var v *ItemView
	preds := map[string]string{}
	err := func() error {
		var err error
		if v, err = rx.ItemView(annotator, id); err != nil {
			return err
		}
		rows, err := rx.q.Query("SELECT field, value FROM predictions WHERE item_id = ? AND system = ?", id, system)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var field, value string
			if err := rows.Scan(&field, &value); err != nil {
				return err
			}
			if norm, ok := schema.Normalize(field, value); ok {
				preds[field] = norm
			}
		}
		return rows.Err()
	}()
	return v, preds, err
}

// SuggestedCount is how many current labels were made with a system's
// prediction preselected: per rater (annotator name, or "" for the lead's
// adjudications), system and field.
type SuggestedCount struct {
	Annotator, System, Field string
	N                        int
}

// SuggestedLabels counts the current labels made with a suggestion, by
// annotator, system and field (sorted so). It reads only the suggested
// events (a partial index) and checks each is still current.
func (x *ReadTx) SuggestedLabels() ([]SuggestedCount, error) {
	rows, err := x.q.Query(`SELECT CASE c.role WHEN '` + RoleAdjudicate + `' THEN '' ELSE a.name END, e.suggested_by, e.field, COUNT(*)
		FROM label_events e INDEXED BY label_events_suggested
		JOIN current_labels c ON c.item_id = e.item_id AND c.field = e.field AND c.role = e.role
			AND c.annotator_id = CASE e.role WHEN '` + RoleAdjudicate + `' THEN 0 ELSE e.annotator_id END AND c.event_id = e.id
		JOIN annotators a ON a.id = e.annotator_id
		WHERE e.suggested_by IS NOT NULL
		GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []SuggestedCount
	for rows.Next() {
		var c SuggestedCount
		if err := rows.Scan(&c.Annotator, &c.System, &c.Field, &c.N); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

func nullText(s string) any {
	if s == "" {
		return nil
	}
	return s
}
