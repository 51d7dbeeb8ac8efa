package store

import "strings"

// A restore writes the label log whole, then rebuilds what triggers keep
// from it (the dashboard's days, the work totals: work_kept.go) in one
// statement a table. Fired once an event, the triggers would count every
// event on its way in, which the rebuild then counts again: with them, the
// label events took half a restore. So the triggers that only count are
// dropped while the tables are written and created again, as they were,
// before the checks; a trigger not named here is left to fire.

// restoreRebuilt are the triggers on label_events whose tables a restore
// rebuilds (rebuildLabelDays, rebuildWorkKept), dropped by dropTriggers.
var restoreRebuilt = []string{"label_days_insert", "label_events_active_hours", "label_events_work", "label_events_session"}

// droppedTriggers are the statements that create the triggers again.
type droppedTriggers []string

// dropTriggers drops the named triggers and returns their SQL, in the
// order they were made.
func dropTriggers(tx *wtx, names ...string) (droppedTriggers, error) {
	var found []string
	var out droppedTriggers
	err := eachRow(tx, "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND name IN ('"+
		strings.Join(names, "', '")+"') ORDER BY rowid", nil, func(sc func(...any) error) error {
		var name, sql string
		err := sc(&name, &sql)
		found, out = append(found, name), append(out, sql)
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, name := range found {
		if _, err := tx.Tx.Exec("DROP TRIGGER " + quoteIdent(name)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// create makes the dropped triggers again.
func (d droppedTriggers) create(tx *wtx) error {
	for _, q := range d {
		if _, err := tx.Tx.Exec(q); err != nil {
			return err
		}
	}
	return nil
}

// rebuildLabelDays recounts label_days from the label log, as migration
// 0013 first filled it.
func rebuildLabelDays(tx *wtx) error {
	for _, q := range []string{"DELETE FROM label_days",
		`INSERT INTO label_days(day, annotator_id, labels, active_ms)
		   SELECT substr(created_at, 1, 10), annotator_id, SUM(retracts IS NULL), SUM(active_ms)
		   FROM label_events GROUP BY 1, 2`} {
		if _, err := tx.Tx.Exec(q); err != nil {
			return err
		}
	}
	return nil
}
