package store

import (
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// Kept counts. Every write transaction notes the items it changes (touch);
// before it commits, finish reloads each touched family (a root item and its
// children: a QA pair and its claims) twice, as it was when the transaction
// began and as it is now, asks package tally for both contributions, and
// adds the difference to kept_counts; done_items follows the same way. The
// state "as it began" is read through a second connection in a read
// transaction: under WAL it sees the last commit, which is the state this
// write transaction started from, since it holds the write lock. A family
// whose root an import created had no state before it: it is read once.
// Families load on the transaction's goroutine and are counted on another.

// familyChunk is how many families finish loads per query.
const familyChunk = 256

// touch notes items whose families must be recounted before commit.
func (t *wtx) touch(ids ...int64) error {
	for _, id := range ids {
		if id < 0 {
			return fmt.Errorf("kept counts: item id %d", id)
		}
		t.touched.add(id)
	}
	return nil
}

// chunkCounts is what the counts of one chunk of families change.
type chunkCounts struct {
	delta                 map[tally.Key]int
	members               []int64 // items of the families, before or after
	skipBefore, after     map[int64][]tally.Skip
	askedBefore, askedNow map[int64][]int64
}

// countChunk computes the old and new contributions of a chunk of families.
func countChunk(before, after map[int64]*tally.Family) chunkCounts {
	c := chunkCounts{delta: map[tally.Key]int{}, skipBefore: map[int64][]tally.Skip{}, after: map[int64][]tally.Skip{},
		askedBefore: map[int64][]int64{}, askedNow: map[int64][]int64{}}
	seen := map[int64]bool{}
	member := func(f *tally.Family) {
		for _, id := range append([]int64{f.Root.ID}, childIDs(f)...) {
			if !seen[id] {
				seen[id] = true
				c.members = append(c.members, id)
			}
		}
	}
	for _, f := range before {
		res := tally.Compute(f)
		for k, n := range res.Counts {
			c.delta[k] -= n
		}
		for id, who := range res.Skip {
			c.skipBefore[id] = who
		}
		maps.Copy(c.askedBefore, res.Asked)
		member(f)
	}
	for _, f := range after {
		res := tally.Compute(f)
		for k, n := range res.Counts {
			c.delta[k] += n
		}
		for id, who := range res.Skip {
			c.after[id] = who
		}
		maps.Copy(c.askedNow, res.Asked)
		member(f)
	}
	slices.Sort(c.members)
	return c
}

func childIDs(f *tally.Family) []int64 {
	out := make([]int64, len(f.Children))
	for i := range f.Children {
		out[i] = f.Children[i].ID
	}
	return out
}

// finish recounts the touched families; the write commits only if it
// succeeds. The families are loaded here, a chunk at a time, and counted on
// another goroutine while the next chunk loads.
func (t *wtx) finish() error {
	if err := t.flushAll(); err != nil {
		return err
	}
	if t.touched.empty() && t.roots.empty() {
		return nil
	}
	var old *readConn
	defer func() {
		if old != nil {
			old.close()
		}
	}()
	type loaded struct{ before, after map[int64]*tally.Family }
	work := make(chan loaded, 2)
	done := make(chan chunkCounts, 2)
	go func() {
		defer close(done)
		for l := range work {
			done <- countChunk(l.before, l.after)
		}
	}()
	delta := map[tally.Key]int{}
	pending := 0
	apply := func(c chunkCounts) error {
		pending--
		for k, n := range c.delta {
			delta[k] += n
		}
		if err := t.syncSkips(c.members, c.skipBefore, c.after); err != nil {
			return err
		}
		return t.syncAsked(c.members, c.askedBefore, c.askedNow)
	}
	err := t.eachRootChunk(func(roots []int64) error {
		// A root created by this transaction has no family before it.
		var was []int64
		for _, r := range roots {
			if !t.itemsKnown || r <= t.rootsBefore {
				was = append(was, r)
			}
		}
		before := map[int64]*tally.Family{}
		if len(was) > 0 {
			if old == nil {
				var err error
				if old, err = t.store.openReadConn(); err != nil {
					return err
				}
			}
			var err error
			if before, err = loadFamilies(old, was); err != nil {
				return fmt.Errorf("kept counts: families before: %w", err)
			}
		}
		after, err := loadFamilies(t, roots)
		if err != nil {
			return fmt.Errorf("kept counts: families after: %w", err)
		}
		work <- loaded{before, after}
		pending++
		if pending > 1 {
			return apply(<-done)
		}
		return nil
	})
	close(work)
	for c := range done {
		if err == nil {
			err = apply(c)
		}
	}
	if err != nil {
		return err
	}
	if err := t.applyDelta(delta); err != nil {
		return err
	}
	t.touched, t.roots = idSet{}, idSet{}
	return t.flushAll()
}

// eachRootChunk hands over the roots of the touched families in id order,
// familyChunk at a time: an item's root is its parent when it has one.
func (t *wtx) eachRootChunk(fn func(roots []int64) error) error {
	roots := t.roots
	err := t.touched.each(500, func(ids []int64) error {
		rows, err := t.Query("SELECT COALESCE(parent_id, id) FROM items WHERE id IN (SELECT value FROM json_each(?))", jsonInts(ids))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r int64
			if err := rows.Scan(&r); err != nil {
				return err
			}
			roots.add(r)
		}
		return rows.Err()
	})
	if err != nil {
		return err
	}
	return roots.each(familyChunk, fn)
}

// syncSkips brings done_items in step for the members of recounted
// families (in id order): the rows the old contributions implied go, the
// new ones come.
func (t *wtx) syncSkips(members []int64, before, after map[int64][]tally.Skip) error {
	for _, id := range members {
		was, now := before[id], after[id]
		for _, a := range was {
			if !slices.Contains(now, a) {
				// The row may be staged (a claim moved between families
				// recounted in this transaction).
				if err := t.flush(stageDone); err != nil {
					return err
				}
				if _, err := t.Exec("DELETE FROM done_items WHERE item_id=? AND annotator_id=?", id, a.Annotator); err != nil {
					return err
				}
			}
		}
		for _, a := range now {
			if !slices.Contains(was, a) {
				if err := t.stage(stageDone, id, a.Annotator, a.Gated); err != nil {
					return fmt.Errorf("kept counts: done_items out of step: %w", err)
				}
			}
		}
	}
	return nil
}

// applyDelta adds the differences to kept_counts. A count that would go
// below zero means the kept counts were not what the families imply: say so
// and write nothing rather than keep a wrong number.
func (t *wtx) applyDelta(delta map[tally.Key]int) error {
	for k, d := range delta {
		if d == 0 {
			continue
		}
		var n int64
		err := t.QueryRow(`INSERT INTO kept_counts(name, rater, source_id, a, b, n) VALUES (?,?,?,?,?,?)
			ON CONFLICT(name, rater, source_id, a, b) DO UPDATE SET n = n + excluded.n RETURNING n`,
			k.Name, k.Rater, k.Source, k.A, k.B, d).Scan(&n)
		if err != nil {
			return err
		}
		switch {
		case n < 0:
			return fmt.Errorf("kept counts: %s/%d/%d/%s/%s would be %d: the counts are out of step with the labels (reopen with a build that recounts, or report a bug)",
				k.Name, k.Rater, k.Source, k.A, k.B, n)
		case n == 0:
			if _, err := t.Exec("DELETE FROM kept_counts WHERE name=? AND rater=? AND source_id=? AND a=? AND b=?", k.Name, k.Rater, k.Source, k.A, k.B); err != nil {
				return err
			}
		}
	}
	return nil
}

// recountAll rebuilds kept_counts, done_items and asked_items from the
// labels, family by family, and records the rules that computed them.
func (t *wtx) recountAll() error {
	if err := t.flushAll(); err != nil {
		return err
	}
	// The rules count the fields the transaction sees (a restore may
	// have brought declared ones).
	if err := t.syncDeclared(); err != nil {
		return err
	}
	for _, q := range []string{"DELETE FROM kept_counts", "DELETE FROM done_items", "DELETE FROM asked_items"} {
		if _, err := t.Tx.Exec(q); err != nil {
			return err
		}
	}
	delta := map[tally.Key]int{}
	after := int64(-1 << 62)
	for {
		roots, err := int64s(t, "SELECT id FROM items WHERE parent_id IS NULL AND id > ? ORDER BY id LIMIT ?", after, familyChunk)
		if err != nil {
			return err
		}
		if len(roots) == 0 {
			break
		}
		fams, err := loadFamilies(t, roots)
		if err != nil {
			return err
		}
		for _, f := range fams {
			res := tally.Compute(f)
			for k, n := range res.Counts {
				delta[k] += n
			}
			for id, who := range res.Skip {
				for _, a := range who {
					if err := t.stage(stageDone, id, a.Annotator, a.Gated); err != nil {
						return err
					}
				}
			}
			for id, who := range res.Asked {
				for _, a := range who {
					if err := t.stage(stageAsked, a, id); err != nil {
						return err
					}
				}
			}
		}
		after = roots[len(roots)-1]
	}
	if err := t.applyDelta(delta); err != nil {
		return err
	}
	_, err := t.Exec("INSERT OR REPLACE INTO meta(key, value) VALUES ('tally_version', ?)", t.store.keptVersion())
	return err
}

// ensureKeptCounts recounts when the file's counts were kept by other rules
// than this build's (or by none: a file just migrated).
func (s *Store) ensureKeptCounts() error {
	var v string
	err := s.db.QueryRow("SELECT value FROM meta WHERE key='tally_version'").Scan(&v)
	if err == nil && v == s.keptVersion() {
		return nil
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	return s.write(func(tx *wtx) error { return tx.recountAll() })
}

// loadFamilies loads the families of the given roots that exist in what q
// sees, keyed by root id: their members, then the members' attributes,
// labels, predictions and batches.
func loadFamilies(q querier, roots []int64) (map[int64]*tally.Family, error) {
	out, members, err := familyMembers(q, roots)
	if err != nil || len(members) == 0 {
		return out, err
	}
	var ids []int64
	byKind := map[schema.Kind][]int64{}
	for id, m := range members {
		ids = append(ids, id)
		byKind[m.Kind] = append(byKind[m.Kind], id)
		m.Attrs = map[string]string{}
		m.Labels = map[int64]map[string]string{}
	}
	if err := loadAttrs(q, members, byKind); err != nil {
		return nil, err
	}
	// The members' rows by item id: for a run of consecutive ids (the
	// families an import wrote) one range of each table, else a list.
	in, inArgs := membersOf(ids)
	for _, load := range []func(querier, map[int64]*tally.Member, string, []any) error{loadLabels, loadPredictions, loadQueues} {
		if err := load(q, members, in, inArgs); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// familyMembers reads the roots and their children: the families keyed by
// root id, and each member by item id.
func familyMembers(q querier, roots []int64) (map[int64]*tally.Family, map[int64]*tally.Member, error) {
	type row struct {
		id, src, parent int64
		kind            string
	}
	var all []row
	err := eachRow(q, `SELECT id, kind, COALESCE(source_id,0), COALESCE(parent_id,0) FROM items WHERE id IN (SELECT value FROM json_each(?1))
		UNION ALL SELECT id, kind, COALESCE(source_id,0), parent_id FROM items WHERE parent_id IN (SELECT value FROM json_each(?1))
		ORDER BY 1`, []any{jsonInts(roots)}, func(sc func(...any) error) error {
		var r row
		err := sc(&r.id, &r.kind, &r.src, &r.parent)
		all = append(all, r)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	isRoot := map[int64]bool{}
	for _, r := range roots {
		isRoot[r] = true
	}
	out := map[int64]*tally.Family{}
	for _, r := range all {
		if isRoot[r.id] && out[r.id] == nil {
			out[r.id] = &tally.Family{Root: tally.Member{ID: r.id, Kind: schema.Kind(r.kind), Source: r.src}}
		}
	}
	members := map[int64]*tally.Member{}
	for _, r := range all {
		switch {
		case isRoot[r.id]:
			members[r.id] = &out[r.id].Root
		case out[r.parent] != nil:
			f := out[r.parent]
			f.Children = append(f.Children, tally.Member{ID: r.id, Kind: schema.Kind(r.kind), Source: r.src})
		}
	}
	// Children were appended by value: point at them now that they stay put.
	for _, f := range out {
		for i := range f.Children {
			members[f.Children[i].ID] = &f.Children[i]
		}
	}
	return out, members, nil
}

// loadAttrs reads the attributes each member's kind declares (Attributed).
func loadAttrs(q querier, members map[int64]*tally.Member, byKind map[schema.Kind][]int64) error {
	for k, kids := range byKind {
		a, ok := kinds.Get(k).(Attributed)
		if !ok {
			continue
		}
		names, query := a.Attrs()
		vals := make([]sql.NullString, len(names))
		dest := []any{new(int64)}
		for i := range vals {
			dest = append(dest, &vals[i])
		}
		err := eachRow(q, query, []any{jsonInts(kids)}, func(sc func(...any) error) error {
			if err := sc(dest...); err != nil {
				return err
			}
			m := members[*dest[0].(*int64)]
			for i, n := range names {
				m.Attrs[n] = vals[i].String
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("attributes of %s: %w", k, err)
		}
	}
	return nil
}

// loadLabels reads the members' current labels by rater (tally.Adjudicated
// for the lead's adjudications).
func loadLabels(q querier, members map[int64]*tally.Member, in string, inArgs []any) error {
	return eachRow(q, "SELECT item_id, field, role, annotator_id, value FROM current_labels WHERE item_id "+in, inArgs,
		func(sc func(...any) error) error {
			var item, aid int64
			var field, role, value string
			if err := sc(&item, &field, &role, &aid, &value); err != nil {
				return err
			}
			rater := aid
			if role == RoleAdjudicate {
				rater = tally.Adjudicated
			}
			m := members[item]
			if m.Labels[rater] == nil {
				m.Labels[rater] = map[string]string{}
			}
			m.Labels[rater][field] = value
			return nil
		})
}

// loadPredictions reads the systems' predictions on the members.
func loadPredictions(q querier, members map[int64]*tally.Member, in string, inArgs []any) error {
	return eachRow(q, "SELECT item_id, system, field, value FROM predictions WHERE item_id "+in+" ORDER BY item_id, system, field", inArgs,
		func(sc func(...any) error) error {
			var item int64
			var p tally.Prediction
			if err := sc(&item, &p.System, &p.Field, &p.Value); err != nil {
				return err
			}
			members[item].Predictions = append(members[item].Predictions, p)
			return nil
		})
}

// loadQueues reads the batches that hold each member: open or assigned
// (to whom), asking at once or not.
func loadQueues(q querier, members map[int64]*tally.Member, in string, inArgs []any) error {
	return eachRow(q, `SELECT bi.item_id, bi.batch_id, NOT EXISTS (SELECT 1 FROM batch_assignees x WHERE x.batch_id = bi.batch_id),
			COALESCE(a.annotator_id, 0), (SELECT asks_at_once FROM batches WHERE id = bi.batch_id)
		FROM batch_items bi LEFT JOIN assignments a ON a.item_id = bi.item_id AND a.batch_id = bi.batch_id
		WHERE bi.item_id `+in+` ORDER BY bi.item_id, bi.batch_id, a.annotator_id`, inArgs,
		func(sc func(...any) error) error {
			var item, batch, aid int64
			var open, atOnce bool
			if err := sc(&item, &batch, &open, &aid, &atOnce); err != nil {
				return err
			}
			m := members[item]
			n := len(m.Queues)
			if n == 0 || m.Queues[n-1].Batch != batch {
				m.Queues = append(m.Queues, tally.Queue{Batch: batch, Open: open, AtOnce: atOnce})
				n++
			}
			if aid != 0 {
				m.Queues[n-1].Assigned = append(m.Queues[n-1].Assigned, aid)
			}
			return nil
		})
}

// membersOf is the condition on an item id that selects exactly ids, with
// its arguments: a range when the ids are consecutive, else a list.
func membersOf(ids []int64) (string, []any) {
	lo, hi := slices.Min(ids), slices.Max(ids)
	if hi-lo+1 == int64(len(ids)) {
		return "BETWEEN ? AND ?", []any{lo, hi}
	}
	return "IN (SELECT value FROM json_each(?))", []any{jsonInts(ids)}
}

// eachRow runs a query and calls fn with a scanner for each row.
func eachRow(q querier, query string, args []any, fn func(scan func(...any) error) error) error {
	rows, err := q.Query(query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows.Scan); err != nil {
			return err
		}
	}
	return rows.Err()
}
