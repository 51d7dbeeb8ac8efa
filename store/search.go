package store

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"

	"modernc.org/sqlite"

	"github.com/annotate-dev/annotate/internal/textfold"
	"github.com/annotate-dev/annotate/schema"
)

// Search and filters of the annotation queues: the text of an item's own
// fields (its question and answer, its claim, its query, its document's title
// and text…) searched in SQL, and the conditions that narrow a queue to the
// flagged, noted, disagreed or skipped items, or to one source.

// foldFunc is the SQL function that folds a text for search: lower case
// and accents stripped, for every script (SQLite's own lower() folds ASCII
// only), so "Données" matches "donnees" and "ÉTAT" matches "état".
const foldFunc = "annotate_fold"

func init() {
	if err := sqlite.RegisterDeterministicScalarFunction(foldFunc, 1, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		switch v := args[0].(type) {
		case string:
			return Fold(v), nil
		case []byte:
			return Fold(string(v)), nil
		case nil:
			return "", nil
		default:
			return Fold(fmt.Sprint(v)), nil
		}
	}); err != nil {
		panic(err)
	}
}

// Fold is textfold.Fold: the queue search folds as the screens do.
func Fold(s string) string { return textfold.Fold(s) }

// SearchHit is the item a queue search lands on: the match and where it
// stands among the queue's matches (1-based), and how many there are.
type SearchHit struct {
	QueueEntry
	Match, Matches int
}

// SearchQueue finds, in the queue of q (every item of it, done or not, under
// q.Filter), the next item in queue order whose own text or id contains
// term, ignoring case and accents: the first after the item of order key
// from (before it, when backward), wrapping round at the end (the start).
// from 0 searches from the start. false: nothing in the queue matches.
func (rx *ReadTx) SearchQueue(q QueueQuery, term string, from int64, backward bool) (SearchHit, bool, error) {
	folded := Fold(strings.TrimSpace(term))
	if folded == "" {
		return SearchHit{}, false, errors.New("nothing to search for")
	}
	base, key, col, args, err := rx.queueKeyed(q)
	if err != nil {
		return SearchHit{}, false, err
	}
	text := "(SELECT ext_id FROM items WHERE id = " + col + ")"
	if t := searchSQL(schema.Kind(q.Kind)); t != "" {
		text += " || ' ' || COALESCE(" + strings.ReplaceAll(t, "%[1]s", col) + ", '')"
	}
	matching := base + " AND instr(" + foldFunc + "(" + text + "), ?) > 0"
	margs := append(append([]any(nil), args...), folded)
	pick := "SELECT " + key + ", " + col + ", (SELECT ext_id FROM items WHERE id = " + col + "), (SELECT kind FROM items WHERE id = " + col + ") FROM " + matching
	// The next match past from, else (wrapping) the first from the other end.
	tries := []struct{ cond, order string }{{key + " > ?", " ORDER BY " + key + " LIMIT 1"}, {key + " <= ?", " ORDER BY " + key + " LIMIT 1"}}
	if backward {
		tries = []struct{ cond, order string }{{key + " < ?", " ORDER BY " + key + " DESC LIMIT 1"}, {key + " >= ?", " ORDER BY " + key + " DESC LIMIT 1"}}
	}
	var h SearchHit
	found := false
	for _, t := range tries {
		err := rx.q.QueryRow(pick+" AND "+t.cond+t.order, append(margs, from)...).Scan(&h.Key, &h.ItemID, &h.ExtID, &h.Kind)
		if err == nil {
			found = true
			break
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return SearchHit{}, false, err
		}
	}
	if !found {
		return SearchHit{}, false, nil
	}
	h.Batch = q.Batch
	if err := rx.q.QueryRow("SELECT COUNT(*), COUNT(CASE WHEN "+key+" <= ? THEN 1 END) FROM "+matching, append([]any{h.Key}, margs...)...).
		Scan(&h.Matches, &h.Match); err != nil {
		return SearchHit{}, false, err
	}
	return h, true, nil
}

// ItemIDs lists the items of a kind (of every kind: ""), in import order:
// the ids a fuzzy go-to ranks. It reads every id of the kind (a go-to that
// matched no id nor the start of one is rare).
func (rx *ReadTx) ItemIDs(kind string) ([]ItemRef, error) {
	// Not the items of an import in progress (pendingItemSQL).
	if kind == "" {
		return rx.itemRefs("SELECT id, ext_id, kind FROM items WHERE NOT " + pendingItemSQL("id") + " ORDER BY id")
	}
	return rx.itemRefs("SELECT id, ext_id, kind FROM items WHERE kind = ? AND NOT "+pendingItemSQL("id")+" ORDER BY id", kind)
}
