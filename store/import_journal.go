package store

import (
	"database/sql"
	"fmt"
	"strings"
)

// The journal of an import in steps (import_steps.go): temporary triggers
// on the import's own connection write, for every change to a table of
// record, the statement that takes it back.

// journalled reports whether the journal records a table's changes: not
// those derived from the tables of record on every write (they follow the
// undoing as they follow the writing: the current labels, and every table
// a backup leaves out as derived), nor those that say who uses the file.
func journalled(table string) bool {
	return !backupSkipped[table] && table != "current_labels"
}

// journal creates the import's temporary triggers, in its first step's
// transaction: every change its connection makes to a table of record is
// journalled.
func (st *importSteps) journal(tx *sql.Tx) error {
	var tables []string
	rows, err := tx.Query("SELECT name FROM sqlite_schema WHERE type='table' AND name NOT LIKE 'sqlite%' ORDER BY name")
	if err != nil {
		return err
	}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return err
		}
		if journalled(n) {
			tables = append(tables, n)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	// A row an INSERT OR REPLACE deletes is journalled too (its DELETE
	// trigger fires only with recursive triggers on).
	stmts := []string{"PRAGMA recursive_triggers = ON"}
	for _, t := range tables {
		ts, err := journalTriggers(tx, t, st.id)
		if err != nil {
			return fmt.Errorf("journal of %s: %w", t, err)
		}
		if t == "label_events" {
			ts = ts[1:] // its inserts are journalled a step at a time (journalEvents)
		}
		stmts = append(stmts, ts...)
	}
	for _, q := range stmts {
		if _, err := tx.Exec(q); err != nil {
			return fmt.Errorf("journal: %w", err)
		}
	}
	return nil
}

// journalTriggers are the three temporary triggers of one table: each
// journals the statement that takes its change back.
func journalTriggers(tx *sql.Tx, table string, id int64) ([]string, error) {
	var cols, pk []string
	rows, err := tx.Query("SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", table)
	if err != nil {
		return nil, err
	}
	type pkCol struct {
		n    int
		name string
	}
	var keys []pkCol
	for rows.Next() {
		var n string
		var p int
		if err := rows.Scan(&n, &p); err != nil {
			rows.Close()
			return nil, err
		}
		cols = append(cols, n)
		if p > 0 {
			keys = append(keys, pkCol{p, n})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := 1; i <= len(keys); i++ {
		for _, k := range keys {
			if k.n == i {
				pk = append(pk, k.name)
			}
		}
	}
	var sqlText string
	if err := tx.QueryRow("SELECT sql FROM sqlite_schema WHERE type='table' AND name=?", table).Scan(&sqlText); err != nil {
		return nil, err
	}
	rowid := !strings.Contains(strings.ToUpper(sqlText), "WITHOUT ROWID")
	q := quoteIdent(table)
	lit := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	// where: the row's key, as SQL text built from a row (NEW or OLD).
	where := func(row string) string {
		if rowid {
			return lit(" WHERE rowid=") + " || " + row + ".rowid"
		}
		var parts []string
		for i, k := range pk {
			sep := " AND "
			if i == 0 {
				sep = " WHERE "
			}
			parts = append(parts, lit(sep+quoteIdent(k)+" IS ")+" || quote("+row+"."+quoteIdent(k)+")")
		}
		return strings.Join(parts, " || ")
	}
	item := "NULL"
	switch {
	case table == "items":
		item = "%[1]s.id"
	case contains(cols, "item_id"):
		item = "%[1]s.item_id"
	case contains(cols, "qa_item_id"):
		item = "%[1]s.qa_item_id"
	}
	rid := "NULL"
	if rowid {
		rid = "%[1]s.rowid"
	}
	of := func(col, row string) string {
		if col == "NULL" {
			return col
		}
		return fmt.Sprintf(col, row)
	}
	insert := func(event, row, undo string) string {
		return fmt.Sprintf("CREATE TEMP TRIGGER IF NOT EXISTS %s AFTER %s ON main.%s BEGIN INSERT INTO main.import_undo(import_id, tbl, rid, item, undo) VALUES (%d, %s, %s, %s, %s); END",
			quoteIdent("import_undo_"+strings.ToLower(event)+"_"+table), event, q, id, lit(table),
			of(rid, row), of(item, row), undo)
	}
	// Inserted: delete it. Changed: set it back. Deleted: insert it again.
	del := lit("DELETE FROM main."+q) + " || " + where("NEW")
	var sets []string
	for i, c := range cols {
		sep := ", "
		if i == 0 {
			sep = " SET "
		}
		sets = append(sets, lit(sep+quoteIdent(c)+"=")+" || quote(OLD."+quoteIdent(c)+")")
	}
	upd := lit("UPDATE main."+q) + " || " + strings.Join(sets, " || ") + " || " + where("NEW")
	names := make([]string, 0, len(cols)+1)
	vals := make([]string, 0, len(cols)+1)
	if rowid {
		names = append(names, "rowid")
		vals = append(vals, "OLD.rowid")
	}
	for _, c := range cols {
		names = append(names, quoteIdent(c))
		vals = append(vals, "quote(OLD."+quoteIdent(c)+")")
	}
	ins := lit("INSERT INTO main."+q+"("+strings.Join(names, ", ")+") VALUES (") + " || " + strings.Join(vals, " || ', ' || ") + " || ')'"
	return []string{insert("INSERT", "NEW", del), insert("UPDATE", "OLD", upd), insert("DELETE", "OLD", ins)}, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
