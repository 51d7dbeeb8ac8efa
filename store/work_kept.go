package store

// The work totals of migration 0014 (active_hours, work_tasks, work_items,
// work_groups, session_events, session_tasks) are derived from the label
// log by triggers. A backup leaves them out; a restore rebuilds them from
// the restored log, as the migration built them.

// workKeptTables are the derived tables, children before parents (deleting
// work_groups updates work_tasks).
var workKeptTables = []string{"work_groups", "work_items", "work_tasks", "active_hours", "session_events", "session_tasks"}

// rebuildWorkKeptSQL recomputes them as migration 0014 first built them:
// one statement a table, the counts of work items and groups grouped, not
// counted one row at a time by the triggers on their insert (which
// rebuildWorkKept drops meanwhile: workCountingTriggers).
var rebuildWorkKeptSQL = []string{
	`INSERT INTO active_hours(annotator_id, hour, ms)
	   SELECT annotator_id, substr(created_at, 1, 13), SUM(active_ms) FROM label_events
	   WHERE active_ms <> 0 GROUP BY 1, 2`,
	`INSERT INTO work_items(item_id, annotator_id, task)
	   SELECT DISTINCT e.item_id, e.annotator_id, CASE WHEN e.role = 'adjudicate' THEN 'review' ELSE i.kind END
	   FROM label_events e JOIN items i ON i.id = e.item_id WHERE e.retracts IS NULL`,
	`INSERT INTO work_groups(parent_id, annotator_id, task, n)
	   SELECT i.parent_id, w.annotator_id, w.task, COUNT(*) FROM work_items w JOIN items i ON i.id = w.item_id
	   WHERE i.parent_id IS NOT NULL GROUP BY 1, 2, 3`,
	`INSERT INTO work_tasks(annotator_id, task, items, groups_, ms)
	   SELECT e.annotator_id, CASE WHEN e.role = 'adjudicate' THEN 'review' ELSE i.kind END, 0, 0, SUM(e.active_ms)
	   FROM label_events e JOIN items i ON i.id = e.item_id WHERE e.retracts IS NULL GROUP BY 1, 2`,
	`UPDATE work_tasks SET
	   items = (SELECT COUNT(*) FROM work_items w WHERE w.annotator_id = work_tasks.annotator_id AND w.task = work_tasks.task),
	   groups_ = (SELECT COUNT(*) FROM work_groups g WHERE g.annotator_id = work_tasks.annotator_id AND g.task = work_tasks.task)`,
	`INSERT INTO session_events(session_id, last, ms, n)
	   SELECT session_id, MAX(created_at), SUM(active_ms), COUNT(*) FROM label_events
	   WHERE session_id IS NOT NULL GROUP BY session_id`,
	`INSERT INTO session_tasks(session_id, task, ms)
	   SELECT e.session_id, CASE WHEN e.role = 'adjudicate' THEN 'review' ELSE i.kind END, SUM(e.active_ms)
	   FROM label_events e JOIN items i ON i.id = e.item_id
	   WHERE e.retracts IS NULL AND e.session_id IS NOT NULL GROUP BY 1, 2`,
}

// workCountingTriggers count work items and groups into their parents as
// each is inserted; a rebuild counts them whole instead.
var workCountingTriggers = []string{"work_items_new", "work_groups_new"}

func init() {
	for _, t := range workKeptTables {
		backupSkipped[t] = true
	}
}

// rebuildWorkKept recomputes the work totals from the label log.
func rebuildWorkKept(tx *wtx) error {
	triggers, err := dropTriggers(tx, workCountingTriggers...)
	if err != nil {
		return err
	}
	for _, t := range workKeptTables {
		if _, err := tx.Tx.Exec("DELETE FROM " + t); err != nil {
			return err
		}
	}
	for _, q := range rebuildWorkKeptSQL {
		if _, err := tx.Tx.Exec(q); err != nil {
			return err
		}
	}
	return triggers.create(tx)
}
