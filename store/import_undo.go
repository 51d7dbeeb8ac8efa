package store

import (
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/annotate-dev/annotate/internal/proc"
)

// An import taken back from its journal (import_journal.go): a failed one at
// once, one killed before it was done at the next Open; and the items of an
// import not done yet, which the screens leave out.

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
