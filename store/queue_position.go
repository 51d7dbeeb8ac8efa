package store

import (
	"database/sql"
	"errors"

	"github.com/annotate-dev/annotate/schema"
)

// An item's place in its queue: the screens' "item k of n" counts from a
// position they know.

// queueKeyed is the queue of q as SQL (queueScope.keyed), less the items
// that ask the annotator nothing.
func (s *Store) queueKeyed(q QueueQuery) (from, key, item string, args []any, err error) {
	sc, err := queueScopeOf(s.db, q)
	if err != nil {
		return "", "", "", nil, err
	}
	kind := schema.Kind(q.Kind)
	from, key, item, args = sc.keyed()
	// Claims not asked yet are not in the queue: the open queue reads only
	// those asked, the others look each one up.
	asked, aargs := askedCond(kind, item, sc.annotator)
	if sc.mode == scopeOpen && asked != "" {
		from, key, item, args = sc.askedScope()
		asked = ""
	}
	// Items that ask the annotator nothing (gated by their parent's labels)
	// are not in the queue, nor in its total.
	from += " AND NOT EXISTS (SELECT 1 FROM done_items d WHERE d.item_id=" + item + " AND d.annotator_id=? AND d.gated)"
	args = append(args, sc.annotator)
	if asked != "" {
		from += " AND " + asked
		args = append(args, aargs...)
	}
	if f, fargs := filterCond(q.Filter, item, sc.annotator); f != "" {
		from += " AND " + f
		args = append(args, fargs...)
	}
	return from, key, item, args, nil
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
