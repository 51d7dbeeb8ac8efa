package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
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

// Step timings (the store's tests make them tiny, to commit at every
// chance: SetImportSteps in export_test.go). The pause is long while a
// screen is open (a lease is held: its saves poll the lock every 100 ms at
// most); with none, it is short, enough for a screen starting up to get in
// within a few steps.
var (
	importStep      = 300 * time.Millisecond
	importYield     = 120 * time.Millisecond
	importYieldIdle = 15 * time.Millisecond
)

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
