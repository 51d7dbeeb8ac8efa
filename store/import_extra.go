package store

import (
	"database/sql"
	"errors"
	"fmt"

	"github.com/annotate-dev/annotate/schema"
)

// PutLabels records imported labels as PutLabel does, in order, with its
// statements prepared once: an import writes thousands of labels, and
// preparing every statement anew was most of its time. It reports which
// labels appended an event; on error the slice holds the results of the
// labels before the failing one, so len(result) is the failing index.
func (t *Tx) PutLabels(ls []Label) ([]bool, error) {
	out := make([]bool, 0, len(ls))
	cur, err := t.tx.Prepare("SELECT value FROM current_labels WHERE role=? AND annotator_id=? AND item_id=? AND field=?")
	if err != nil {
		return out, err
	}
	defer cur.Close()
	ins, err := t.tx.Prepare(`INSERT INTO label_events(annotator_id,item_id,field,value,role,created_at,active_ms,guidelines_version)
		VALUES (?,?,?,?,?,?,?,?)`)
	if err != nil {
		return out, err
	}
	defer ins.Close()
	set, err := t.tx.Prepare("INSERT OR REPLACE INTO current_labels(role,annotator_id,item_id,field,value,event_id) VALUES (?,?,?,?,?,?)")
	if err != nil {
		return out, err
	}
	defer set.Close()
	aids := map[string]int64{}
	for _, l := range ls {
		aid, ok := aids[l.Annotator]
		if !ok {
			if aid, err = annotatorID(t.tx, l.Annotator); err != nil {
				return out, err
			}
			aids[l.Annotator] = aid
		}
		role, keyAID := RoleAnnotate, aid
		if l.Adjudicate {
			role, keyAID = RoleAdjudicate, 0
		}
		var v string
		err := cur.QueryRow(role, keyAID, l.ItemID, l.Field).Scan(&v)
		if err == nil && v == l.Value {
			out = append(out, false)
			continue
		}
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return out, err
		}
		res, err := ins.Exec(aid, l.ItemID, l.Field, l.Value, role, now(), l.ActiveMs, l.GuidelinesVersion)
		if err != nil {
			return out, err
		}
		id, _ := res.LastInsertId()
		// The event just appended is the latest of its key and retracts
		// nothing, so it is what refreshCurrent would pick.
		if _, err := set.Exec(role, keyAID, l.ItemID, l.Field, l.Value, id); err != nil {
			return out, err
		}
		if role == RoleAnnotate {
			t.touched[[2]int64{aid, l.ItemID}] = true
		}
		out = append(out, true)
	}
	return out, nil
}

// RefreshDone brings done_items up to date for every (annotator, item) whose
// labels this import changed, as Import does when fn returns, but with its
// statements prepared once (with thousands of imported labels, preparing them
// per item took most of the import). Call it last in fn: the done state of a
// claim depends on which claim of its answer is last. It follows the rule of
// refreshDone (labels.go); TestRefreshDoneMatchesStore in importer checks the
// two agree.
func (t *Tx) RefreshDone() error {
	d := &doneStmts{last: map[int64]int64{}}
	defer d.close()
	for _, p := range []struct {
		dst   **sql.Stmt
		query string
	}{
		{&d.item, "SELECT kind, parent_id FROM items WHERE id=?"},
		{&d.labels, "SELECT field, value FROM current_labels WHERE role='annotate' AND annotator_id=? AND item_id=?"},
		{&d.lastQ, `SELECT c.item_id FROM claims c JOIN items i ON i.id=c.item_id
			WHERE i.parent_id=? AND c.origin='extracted' ORDER BY c.position DESC, c.item_id DESC LIMIT 1`},
		{&d.ins, "INSERT OR IGNORE INTO done_items(annotator_id,item_id,kind) VALUES (?,?,?)"},
		{&d.del, "DELETE FROM done_items WHERE annotator_id=? AND item_id=?"},
	} {
		st, err := t.tx.Prepare(p.query)
		if err != nil {
			return err
		}
		*p.dst = st
	}
	for k := range t.touched {
		if err := d.refresh(k[0], k[1]); err != nil {
			return err
		}
	}
	t.touched = map[[2]int64]bool{}
	return nil
}

type doneStmts struct {
	item, labels, lastQ, ins, del *sql.Stmt
	last                          map[int64]int64 // QA item -> its last extracted claim
}

func (d *doneStmts) close() {
	for _, st := range []*sql.Stmt{d.item, d.labels, d.lastQ, d.ins, d.del} {
		if st != nil {
			st.Close()
		}
	}
}

func (d *doneStmts) refresh(aid, item int64) error {
	var kind string
	var parent sql.NullInt64
	if err := d.item.QueryRow(item).Scan(&kind, &parent); err != nil {
		return fmt.Errorf("item %d: %w", item, err)
	}
	cur, err := d.labelsOf(aid, item)
	if err != nil {
		return err
	}
	done := schema.Complete(schema.Kind(kind), cur)
	if kind == string(schema.KindClaim) && done && parent.Valid {
		last, err := d.lastClaim(parent.Int64)
		if err != nil {
			return err
		}
		if last == item {
			pl, err := d.labelsOf(aid, parent.Int64)
			if err != nil {
				return err
			}
			done = pl[schema.MissedClaimsChecked] != ""
		}
	}
	if done {
		_, err = d.ins.Exec(aid, item, kind)
	} else {
		_, err = d.del.Exec(aid, item)
	}
	if err != nil {
		return err
	}
	if kind == string(schema.KindQA) {
		last, err := d.lastClaim(item)
		if err != nil || last == 0 {
			return err
		}
		return d.refresh(aid, last)
	}
	return nil
}

func (d *doneStmts) labelsOf(aid, item int64) (map[string]string, error) {
	rows, err := d.labels.Query(aid, item)
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

func (d *doneStmts) lastClaim(qa int64) (int64, error) {
	if id, ok := d.last[qa]; ok {
		return id, nil
	}
	var id int64
	err := d.lastQ.QueryRow(qa).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		err = nil
	}
	d.last[qa] = id
	return id, err
}
