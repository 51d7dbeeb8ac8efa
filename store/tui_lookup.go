package store

import (
	"database/sql"
	"errors"
	"strings"

	"github.com/annotate-dev/annotate/schema"
)

// Reads the annotation screens need beyond the queue itself: go-to by a
// typed id, an item's position in its queue, and the queue an annotator
// last worked in.

// FindItems finds the items a typed id names, best first: the item with
// exactly that id; else the items whose id equals it ignoring case; else
// those whose id starts with it ignoring case (ASCII letters, as SQL LIKE
// does), in id order. It returns at most limit+1 items, so that one item
// means a match and more than limit means "and more". An exact id is one
// index lookup; the others read the ids of every item (a go-to is rare).
func (s *Store) FindItems(typed string, limit int) ([]ItemRef, error) {
	if typed == "" {
		return nil, nil
	}
	var r ItemRef
	err := s.db.QueryRow("SELECT id, ext_id, kind FROM items WHERE ext_id=?", typed).Scan(&r.ItemID, &r.ExtID, &r.Kind)
	if err == nil {
		return []ItemRef{r}, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	refs, err := s.itemRefs("SELECT id, ext_id, kind FROM items WHERE ext_id=? COLLATE NOCASE ORDER BY ext_id LIMIT ?", typed, limit+1)
	if err != nil || len(refs) > 0 {
		return refs, err
	}
	pattern := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(typed) + "%"
	return s.itemRefs(`SELECT id, ext_id, kind FROM items WHERE ext_id LIKE ? ESCAPE '\' ORDER BY ext_id LIMIT ?`, pattern, limit+1)
}

func (s *Store) itemRefs(q string, args ...any) ([]ItemRef, error) {
	rows, err := s.db.Query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ItemRef
	for rows.Next() {
		var r ItemRef
		if err := rows.Scan(&r.ItemID, &r.ExtID, &r.Kind); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// queueKeyed is the queue of q as SQL: a FROM/WHERE selecting every item of
// the queue, done or not, the expression of its order key (the key Queue
// returns as QueueEntry.Key) and the item id column, with their arguments.
func (s *Store) queueKeyed(q QueueQuery) (from, key, item string, args []any, err error) {
	var aid int64
	err = s.db.QueryRow("SELECT id FROM annotators WHERE name=?", q.Annotator).Scan(&aid)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", "", "", nil, err
	}
	from, key, item, args, err = s.queueFrom(q, aid)
	// Items that ask the annotator nothing (gated by their parent's labels)
	// are not in the queue, nor in its total; nor are claims not asked yet.
	from += " AND NOT EXISTS (SELECT 1 FROM done_items d WHERE d.item_id=" + item + " AND d.annotator_id=? AND d.gated)"
	args = append(args, aid)
	if offered, oargs := offeredCond(schema.Kind(q.Kind), item, aid); offered != "" {
		from += " AND " + offered
		args = append(args, oargs...)
	}
	if f, fargs := filterCond(q.Filter, item, aid); f != "" {
		from += " AND " + f
		args = append(args, fargs...)
	}
	return from, key, item, args, err
}

func (s *Store) queueFrom(q QueueQuery, aid int64) (from, key, item string, args []any, err error) {
	switch {
	case q.Batch != "":
		var bid int64
		var assigned bool
		err := s.db.QueryRow("SELECT id, EXISTS(SELECT 1 FROM batch_assignees WHERE batch_id=batches.id) FROM batches WHERE name=?", q.Batch).Scan(&bid, &assigned)
		if errors.Is(err, sql.ErrNoRows) {
			return "", "", "", nil, notFound("batch", q.Batch)
		}
		if err != nil {
			return "", "", "", nil, err
		}
		if assigned {
			return "batch_items b JOIN assignments a ON a.batch_id=b.batch_id AND a.item_id=b.item_id WHERE b.batch_id=? AND a.annotator_id=?",
				"b.position", "b.item_id", []any{bid, aid}, nil
		}
		return "batch_items b WHERE b.batch_id=?", "b.position", "b.item_id", []any{bid}, nil
	case s.hasAssignments(aid, q.Kind):
		return "assignments a JOIN batch_items b ON b.batch_id=a.batch_id AND b.item_id=a.item_id JOIN batches bt ON bt.id=a.batch_id WHERE a.annotator_id=? AND bt.kind=?",
			"((b.batch_id<<32)|b.position)", "a.item_id", []any{aid, q.Kind}, nil
	}
	// Every item of the kind that has a queue of its own (as Queue): of
	// claims the extracted ones, of relevance pairs the pooled ones.
	queueable := "1"
	if k := sqlOf[schema.Kind(q.Kind)]; k.queueable != "" {
		queueable = k.queueable
	}
	return "items i WHERE i.kind=? AND " + queueable, "i.id", "i.id", []any{q.Kind}, nil
}

// QueueRank counts the items of a queue, done or not, whose order key is in
// (after, upTo]: with after 0, the position of the item of key upTo. The
// screens count from a position they know, so each count is short.
func (s *Store) QueueRank(q QueueQuery, after, upTo int64) (int, error) {
	from, key, _, args, err := s.queueKeyed(q)
	if err != nil {
		return 0, err
	}
	var n int
	err = s.db.QueryRow("SELECT COUNT(*) FROM "+from+" AND "+key+">? AND "+key+"<=?", append(args, after, upTo)...).Scan(&n)
	return n, err
}

// QueueKey is the order key of an item in a queue; false when the item is
// not in it.
func (s *Store) QueueKey(q QueueQuery, item int64) (int64, bool, error) {
	from, key, col, args, err := s.queueKeyed(q)
	if err != nil {
		return 0, false, err
	}
	var k int64
	err = s.db.QueryRow("SELECT "+key+" FROM "+from+" AND "+col+"=? LIMIT 1", append(args, item)...).Scan(&k)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return k, err == nil, err
}

// LastWorked is the item of the annotator's latest decision (zero when
// there is none) and the batches that hold it. It looks among the latest
// events of the log first (a short scan however long the log), then at
// every event of the annotator.
func (s *Store) LastWorked(annotator string) (ItemRef, []string, error) {
	var aid int64
	err := s.db.QueryRow("SELECT id FROM annotators WHERE name=?", annotator).Scan(&aid)
	if errors.Is(err, sql.ErrNoRows) {
		return ItemRef{}, nil, nil
	}
	if err != nil {
		return ItemRef{}, nil, err
	}
	var ev sql.NullInt64
	err = s.db.QueryRow(`SELECT e.id FROM label_events e WHERE e.id > (SELECT COALESCE(MAX(id), 0) - 10000 FROM label_events)
		AND +e.annotator_id=? AND e.role=? ORDER BY e.id DESC LIMIT 1`, aid, RoleAnnotate).Scan(&ev)
	if errors.Is(err, sql.ErrNoRows) {
		// The annotator's latest by time, read backwards on label_events_time.
		err = s.db.QueryRow("SELECT id FROM label_events WHERE annotator_id=? AND role=? ORDER BY created_at DESC, id DESC LIMIT 1", aid, RoleAnnotate).Scan(&ev)
		if errors.Is(err, sql.ErrNoRows) {
			return ItemRef{}, nil, nil
		}
	}
	if err != nil || !ev.Valid {
		return ItemRef{}, nil, err
	}
	var r ItemRef
	if err := s.db.QueryRow("SELECT i.id, i.ext_id, i.kind FROM label_events e JOIN items i ON i.id=e.item_id WHERE e.id=?", ev.Int64).
		Scan(&r.ItemID, &r.ExtID, &r.Kind); err != nil {
		return r, nil, err
	}
	rows, err := s.db.Query("SELECT b.name FROM batch_items bi JOIN batches b ON b.id=bi.batch_id WHERE bi.item_id=? ORDER BY b.id", r.ItemID)
	if err != nil {
		return r, nil, err
	}
	defer rows.Close()
	var batches []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return r, nil, err
		}
		batches = append(batches, name)
	}
	return r, batches, rows.Err()
}
