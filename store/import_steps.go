package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/annotate-dev/annotate/internal/proc"
)

// An import in steps. An import may write millions of rows; written in one
// transaction it would keep the write lock from every annotator for the
// whole of it. So it commits every importStep of work and pauses
// importYield before going on, long enough for a writer waiting on the
// lock (a screen's save polls it every 100 ms at most) to get in. It stays
// all or nothing:
//
//   - Before it writes, the import records itself (writers, as "an
//     import"). While that row is there the import is not done: the
//     commands that read wait for it (WaitForWriters), and the screens do
//     not offer its items nor take a label on one (pendingItem).
//   - Every change a step makes to a table of record is journalled in the
//     same transaction (import_undo), as the statement that takes it back,
//     by temporary triggers of the import's own connection: the rest of
//     the program, and other processes, journal nothing. The tables
//     derived from them (current labels, kept counts, done items, the
//     work totals) are not journalled: they follow the tables of record,
//     as on every write.
//   - The last step deletes the import's writer row: the import is done,
//     all of it at once. Its journal is then cleared, in steps.
//   - A failed import is undone from its journal, from the end, in steps,
//     before the error is returned. One killed at any moment leaves its
//     writer row with a process that no longer runs: the next Open undoes
//     it. Undoing deletes the rows the import added (label events
//     included: the triggers of migration 0017 take their totals and
//     current labels back) and puts back those it changed; each step
//     recounts the families it touched, so the kept counts stay exact.
//
// Only one import runs at a time: a second one waits for the first.

// Step timings (a test makes them tiny, to commit at every chance). The
// pause is long while a screen is open (a lease is held: its saves poll
// the lock every 100 ms at most); with none, it is short, enough for a
// screen starting up to get in within a few steps.
var (
	importStep      = 300 * time.Millisecond
	importYield     = 120 * time.Millisecond
	importYieldIdle = 15 * time.Millisecond
)

// SetImportSteps sets how long a step of an import works before it commits
// and how long it then pauses, for the tests of this and other packages (a
// timing, not a choice of code: every import is written in steps); the
// returned func puts the defaults back.
func SetImportSteps(step, yield time.Duration) (restore func()) {
	was, wasYield, wasIdle := importStep, importYield, importYieldIdle
	importStep, importYield, importYieldIdle = step, yield, min(yield, importYieldIdle)
	return func() { importStep, importYield, importYieldIdle = was, wasYield, wasIdle }
}

// importSteps is the state of an import written in steps.
type importSteps struct {
	conn     *sql.Conn // one connection: its TEMP tables and triggers last the import
	id       int64     // the import's id: of its journal, and of its writers row
	recorded bool      // its writers row is written
	began    time.Time // when the current step began
	n        int       // steps committed
	// eventsFrom is the largest label event rowid when the step began: the
	// step's events are the rows above it (only the import writes while
	// its step holds the lock), journalled as one range.
	eventsFrom int64
}

// busyError is a write refused for now because of another process's work
// (an import running): IsBusy takes it as SQLITE_BUSY, and the callers try
// again, as they do when the lock is held.
type busyError struct{ msg string }

func (e *busyError) Error() string { return e.msg }
func (e *busyError) Code() int     { return sqliteBusy }

// Import runs fn as one import: all of it lands, or none (see above).
func (s *Store) Import(fn func(*Tx) error) error {
	ctx := context.Background()
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	// The connection goes when the import ends, with its TEMP tables and
	// triggers, rather than back to the pool (where the triggers would
	// journal other writes).
	defer func() {
		conn.Raw(func(any) error { return driver.ErrBadConn })
		conn.Close()
	}()
	st := &importSteps{conn: conn}
	err = s.importSteps(st, fn)
	switch {
	case err == nil:
		if st.n > 1 {
			// Done: a journal left behind (a kill now) is cleared at
			// the next open.
			s.clearJournal(st.id)
		}
		return nil
	case st.n == 0:
		return err // nothing of it was committed
	}
	if uerr := s.undoImport(st.id); uerr != nil {
		return errors.Join(err, fmt.Errorf("undoing the import: %w (it is undone when the database is next opened)", uerr))
	}
	return err
}

// importSteps runs fn over the steps of st. The first step takes the id of
// the import and sets up its journal; a step that commits before the end
// records the import in writers (in its own transaction: an import that is
// one step long, a small one, is never recorded, and one that fails then,
// or changes nothing, leaves the file as it was, byte for byte); the last
// step deletes that row, and with it, for an import of one step, its
// journal.
func (s *Store) importSteps(st *importSteps, fn func(*Tx) error) error {
	w := s.newWtx(&wtx{steps: st})
	if err := w.beginStep(); err != nil {
		return err
	}
	defer func() { w.closeStmts() }()
	fail := func(err error) error {
		w.Tx.Rollback()
		return err
	}
	if who, ok, err := liveImport(w.Tx); err != nil {
		return fail(err)
	} else if ok {
		// One import at a time: Retry waits for the other one.
		return fail(&busyError{msg: who + " is writing to the database"})
	}
	if err := w.Tx.QueryRow(`SELECT 1 + MAX(COALESCE((SELECT MAX(id) FROM writers), 0), COALESCE((SELECT MAX(import_id) FROM import_undo), 0))`).Scan(&st.id); err != nil {
		return fail(err)
	}
	if err := st.journal(w.Tx); err != nil {
		return fail(err)
	}
	// Items with a larger id are this import's: they have no label yet
	// but those it writes (PutLabel), and no family before it (finish).
	w.itemsBefore, w.itemsKnown = w.rootsBefore, true
	for _, p := range importPragmas {
		if _, err := w.Tx.Exec(p); err != nil {
			return fail(err)
		}
	}
	err := fn(&Tx{tx: w, sources: map[string]int64{}})
	if err == nil || w.checkErr() != nil {
		err = w.settle()
	}
	if err == nil && st.recorded {
		// The import is done: every row of it at once.
		_, err = w.Tx.Exec("DELETE FROM writers WHERE id=?", st.id)
	}
	if err == nil && !st.recorded {
		_, err = w.Tx.Exec("DELETE FROM import_undo WHERE import_id=?", st.id)
	}
	if err != nil {
		return fail(err)
	}
	if err := w.Tx.Commit(); err != nil {
		return err
	}
	st.n++
	return nil
}

// beginStep opens the transaction of the next step.
func (t *wtx) beginStep() error {
	st := t.steps
	tx, err := st.conn.BeginTx(context.Background(), nil)
	if err != nil {
		return err
	}
	t.Tx, t.stmts, t.guideVersions = tx, map[string]*sql.Stmt{}, nil
	st.began = time.Now()
	if err := tx.QueryRow("SELECT COALESCE(MAX(rowid), 0) FROM label_events").Scan(&st.eventsFrom); err != nil {
		return err
	}
	return tx.QueryRow("SELECT COALESCE(MAX(id), 0) FROM items").Scan(&t.rootsBefore)
}

// journalEvents journals the label events the step added, as one range
// (the bulk of an import: one journal row a step, not one an event).
func (t *wtx) journalEvents() error {
	st := t.steps
	var upto int64
	if err := t.Tx.QueryRow("SELECT COALESCE(MAX(rowid), 0) FROM label_events").Scan(&upto); err != nil {
		return err
	}
	if upto <= st.eventsFrom {
		return nil
	}
	_, err := t.Tx.Exec(`INSERT INTO import_undo(import_id, tbl, rid, upto, undo) VALUES (?, 'label_events', ?, ?, ?)`,
		st.id, st.eventsFrom, upto, fmt.Sprintf(`DELETE FROM main."label_events" WHERE rowid > %d AND rowid <= %d`, st.eventsFrom, upto))
	return err
}

// step commits the import's work so far once its step has lasted
// importStep, lets waiting writers in, and goes on in a new transaction.
// The import's methods call it before they write, when no statement of
// theirs is under way.
func (t *wtx) step() error {
	st := t.steps
	if st == nil || time.Since(st.began) < importStep {
		return nil
	}
	if err := t.settle(); err != nil {
		return err
	}
	if err := t.journalEvents(); err != nil {
		return err
	}
	if !st.recorded {
		// From now on the import is in the database before it is done:
		// it says so (the commands that read wait for it).
		me := proc.Self()
		if _, err := t.Tx.Exec("INSERT INTO writers(id, what, host, boot, pid, pid_start, since) VALUES (?,?,?,?,?,?,?)",
			st.id, whatImport, me.Host, me.Boot, me.PID, me.Start, now()); err != nil {
			return err
		}
		st.recorded = true
	}
	var screens bool
	if err := t.Tx.QueryRow("SELECT EXISTS (SELECT 1 FROM screen_leases)").Scan(&screens); err != nil {
		return err
	}
	t.closeStmts()
	if err := t.Tx.Commit(); err != nil {
		return err
	}
	st.n++
	if afterStep != nil {
		afterStep(st.n)
	}
	if screens {
		time.Sleep(importYield)
	} else {
		time.Sleep(importYieldIdle)
	}
	return t.beginStep()
}

// afterStep, when set (a test), is called after each step commits.
var afterStep func(n int)

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

// whatImport is how an import names itself in writers.
const whatImport = ImportWriter

// liveImport reports an import in progress: a writer row of an import whose
// process runs.
func liveImport(q querier) (string, bool, error) {
	ws, err := writerRows(q)
	if err != nil {
		return "", false, err
	}
	for _, w := range ws {
		if w.what == whatImport && proc.Alive(w.ID) {
			return fmt.Sprintf("%s (pid %d)", w.what, w.PID), true, nil
		}
	}
	return "", false, nil
}

// importRunning reports whether an import is in progress (for the
// commands that wait for it).
func (s *Store) importRunning() (bool, error) {
	var ok bool
	err := s.Read(func(rx *ReadTx) (err error) {
		_, ok, err = liveImport(rx.q)
		return err
	})
	return ok, err
}

// undoStepRows bounds the journal rows one step of an undo takes back.
const undoStepRows = 20000

// undoImport takes an import back from its journal, from the end, in
// steps; then its writer row goes.
func (s *Store) undoImport(id int64) error {
	for {
		left := false
		err := s.write(func(tx *wtx) error {
			began := time.Now()
			type change struct {
				seq             int64
				tbl, undo       string
				rid, upto, item sql.NullInt64
			}
			var cs []change
			err := eachRow(tx, "SELECT seq, tbl, rid, upto, item, undo FROM import_undo WHERE import_id=? ORDER BY seq DESC LIMIT ?",
				[]any{id, undoStepRows}, func(sc func(...any) error) error {
					var c change
					err := sc(&c.seq, &c.tbl, &c.rid, &c.upto, &c.item, &c.undo)
					cs = append(cs, c)
					return err
				})
			if err != nil {
				return err
			}
			left = len(cs) == undoStepRows
			for i, c := range cs {
				if c.upto.Valid {
					// A range of label events: their items' families.
					items, err := int64s(tx, "SELECT DISTINCT item_id FROM label_events WHERE rowid > ? AND rowid <= ?", c.rid.Int64, c.upto.Int64)
					if err != nil {
						return err
					}
					for _, it := range items {
						var root int64
						if err := tx.Tx.QueryRow("SELECT COALESCE(parent_id, id) FROM items WHERE id=?", it).Scan(&root); err == nil {
							tx.roots.add(root)
						}
						tx.touch(it)
					}
				}
				if c.item.Valid {
					// The family the item is in before the change (an item
					// the import added is gone after it), and, through the
					// item, the one it is in after.
					var root int64
					err := tx.Tx.QueryRow("SELECT COALESCE(parent_id, id) FROM items WHERE id=?", c.item.Int64).Scan(&root)
					switch {
					case err == nil:
						tx.roots.add(root)
					case !errors.Is(err, sql.ErrNoRows):
						return err
					}
					if err := tx.touch(c.item.Int64); err != nil {
						return err
					}
				}
				if _, err := tx.Tx.Exec(c.undo); err != nil {
					return fmt.Errorf("undoing change %d of the import (%s): %w", c.seq, c.tbl, err)
				}
				if _, err := tx.Tx.Exec("DELETE FROM import_undo WHERE seq=?", c.seq); err != nil {
					return err
				}
				if time.Since(began) > importStep && i+1 < len(cs) {
					left = true
					break
				}
			}
			if !left {
				_, err = tx.Exec("DELETE FROM writers WHERE id=?", id)
			}
			return err
		})
		if err != nil || !left {
			return err
		}
		time.Sleep(importYield)
	}
}

// clearStepRows bounds the journal rows one step of clearJournal deletes
// (a few tens of milliseconds).
const clearStepRows = 10_000

// clearJournal deletes the journal of an import that is done, in steps.
func (s *Store) clearJournal(id int64) error {
	for {
		var n int64
		err := s.write(func(tx *wtx) error {
			res, err := tx.Exec("DELETE FROM import_undo WHERE seq IN (SELECT seq FROM import_undo WHERE import_id=? ORDER BY seq LIMIT ?)", id, clearStepRows)
			if err == nil {
				n, err = res.RowsAffected()
			}
			return err
		})
		if err != nil || n == 0 {
			return err
		}
		time.Sleep(importYield)
	}
}

// recoverImports undoes the imports killed before they were done (their
// writer's process is gone) and clears the journals of those that were
// done; Open runs it.
func (s *Store) recoverImports() error {
	type journalled struct {
		id     int64
		writer bool // its writer row is there (not done)
		w      writerRow
	}
	var js []journalled
	err := s.Read(func(rx *ReadTx) error {
		ws, err := writerRows(rx.q)
		if err != nil {
			return err
		}
		byID := map[int64]writerRow{}
		for _, w := range ws {
			byID[w.id] = w
		}
		return eachRow(rx.q, "SELECT DISTINCT import_id FROM import_undo", nil, func(sc func(...any) error) error {
			var j journalled
			if err := sc(&j.id); err != nil {
				return err
			}
			j.w, j.writer = byID[j.id]
			js = append(js, j)
			return nil
		})
	})
	if err != nil {
		return err
	}
	for _, j := range js {
		switch {
		case !j.writer:
			err = s.clearJournal(j.id)
		case !proc.Alive(j.w.ID):
			err = s.undoImport(j.id)
		}
		if err != nil {
			return fmt.Errorf("undoing an import killed before it was done (%s): %w", j.w.ID, err)
		}
	}
	return nil
}

// pendingItemSQL is the condition that the item whose id is col belongs to
// an import not done yet: the screens leave such items out.
func pendingItemSQL(col string) string {
	return "EXISTS (SELECT 1 FROM import_undo u WHERE u.tbl = 'items' AND u.rid = " + col +
		" AND u.import_id IN (SELECT id FROM writers))"
}

// pendingItem refuses, for now, a label on an item of an import not done
// yet (a busyError: the caller tries again once the import is done, or
// undone).
func pendingItem(q querier, item int64) error {
	var pending bool
	if err := q.QueryRow("SELECT " + pendingItemSQL(strconv.FormatInt(item, 10))).Scan(&pending); err != nil {
		return err
	}
	if pending {
		return &busyError{msg: fmt.Sprintf("item %d belongs to an import still being written", item)}
	}
	return nil
}
