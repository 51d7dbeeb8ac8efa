package store

import (
	"strings"
)

// The filters of an annotation queue.
const (
	FilterFlagged   = "flagged"   // the annotator's flag is up
	FilterNoted     = "noted"     // the annotator wrote a note on it
	FilterDisagreed = "disagreed" // two annotators' labels on one field differ
	FilterSkipped   = "skipped"   // passed over in this run (QueueFilter.Items)
)

// Filters lists the filters a queue can be narrowed to, in the order the
// screens offer them.
var Filters = []string{FilterFlagged, FilterSkipped, FilterNoted, FilterDisagreed}

// QueueFilter narrows a queue: to one of Filters (Only), to the items of
// one source (Source), or both. The zero value keeps every item.
type QueueFilter struct {
	Only   string
	Source string
	Items  []int64 // FilterSkipped: the items skipped, which the store does not record
}

// Active reports whether the filter narrows anything.
func (f QueueFilter) Active() bool { return f.Only != "" || f.Source != "" }

// String names the filter as the queue's header shows it ("flagged",
// "source ClaimRAG-LAW", "noted · source X").
func (f QueueFilter) String() string {
	var parts []string
	if f.Only != "" {
		parts = append(parts, f.Only)
	}
	if f.Source != "" {
		parts = append(parts, "source "+f.Source)
	}
	return strings.Join(parts, " · ")
}

// filterCond is the SQL condition that the item whose id is the expression
// item passes the filter, for the annotator of id aid, with its arguments;
// "" when the filter keeps every item.
func filterCond(f QueueFilter, item string, aid int64) (string, []any) {
	var conds []string
	var args []any
	switch f.Only {
	case FilterFlagged:
		// The latest flag row of (annotator, item) wins.
		conds = append(conds, "COALESCE((SELECT fl.flagged FROM flags fl WHERE fl.item_id = "+item+" AND fl.annotator_id = ? ORDER BY fl.id DESC LIMIT 1), 0) = 1")
		args = append(args, aid)
	case FilterNoted:
		// The latest note of each field wins; an empty one cleared it.
		conds = append(conds, "EXISTS (SELECT 1 FROM notes n WHERE n.id IN (SELECT MAX(id) FROM notes WHERE item_id = "+item+" AND annotator_id = ? GROUP BY field) AND n.text <> '')")
		args = append(args, aid)
	case FilterDisagreed:
		conds = append(conds, `EXISTS (SELECT 1 FROM current_labels c1 JOIN current_labels c2 ON c2.item_id = c1.item_id AND c2.field = c1.field
			AND c2.role = '`+RoleAnnotate+`' AND c2.annotator_id <> c1.annotator_id AND c2.value <> c1.value
			WHERE c1.item_id = `+item+` AND c1.role = '`+RoleAnnotate+`')`)
	case FilterSkipped:
		if len(f.Items) == 0 {
			conds = append(conds, "0")
		} else {
			conds = append(conds, item+" IN ("+strings.TrimSuffix(strings.Repeat("?,", len(f.Items)), ",")+")")
			for _, id := range f.Items {
				args = append(args, id)
			}
		}
	}
	if f.Source != "" {
		// A claim has its QA pair's source when it has none of its own.
		conds = append(conds, `EXISTS (SELECT 1 FROM items fi JOIN sources so ON so.id = COALESCE(fi.source_id, (SELECT fp.source_id FROM items fp WHERE fp.id = fi.parent_id))
			WHERE fi.id = `+item+` AND so.name = ?)`)
		args = append(args, f.Source)
	}
	return strings.Join(conds, " AND "), args
}

// KindSources names the sources of the items of a kind, in name order: the
// choices of the source filter.
func (rx *ReadTx) KindSources(kind string) ([]string, error) {
	rows, err := rx.q.Query(`SELECT DISTINCT so.name FROM items i
		JOIN sources so ON so.id = COALESCE(i.source_id, (SELECT p.source_id FROM items p WHERE p.id = i.parent_id))
		WHERE i.kind = ? ORDER BY so.name`, kind)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// QueueFilteredCounts counts the items of a filtered queue (done or not)
// and those of them the annotator has finished: the kept counts know
// nothing of filters, so these are read from the queue itself.
func (rx *ReadTx) QueueFilteredCounts(q QueueQuery) (total, done int, err error) {
	from, _, col, args, err := rx.queueKeyed(q)
	if err != nil {
		return 0, 0, err
	}
	err = rx.q.QueryRow(`SELECT COUNT(*), COUNT(CASE WHEN EXISTS (SELECT 1 FROM done_items d WHERE d.item_id = `+col+`
		AND d.annotator_id = (SELECT id FROM annotators WHERE name = ?) AND NOT d.gated) THEN 1 END) FROM `+from,
		append([]any{q.Annotator}, args...)...).Scan(&total, &done)
	return total, done, err
}
