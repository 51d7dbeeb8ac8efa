package store

import (
	"slices"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// The items of a kind that waits for its parent's labels (claims: asked
// once their answer is judged correct), by whom they are asked of:
// asked_items, kept like done_items from what package tally says of each
// family (tally.Result.Asked). The claim queue walks it in item order, an
// index range per rater (everyone, and the annotator), where reading the
// asked-when rule from the labels would read every claim of the database
// (or every label of the annotator's) for each page of the queue and each
// position counted; a new annotator, asked nothing yet, has no rows at all.
// TestAskedQueuesEqualTheRule holds the queues read this way equal to the
// rule read from the labels.

// stageAsked writes asked_items in bulk (import_staging.go).
var stageAsked = registerStage("asked_items", "INSERT INTO asked_items(annotator_id, item_id) VALUES ", 2)

func init() {
	// Derived from the other tables: a backup leaves it out, and the
	// restore's recount rebuilds it.
	backupSkipped["asked_items"] = true
}

// syncAsked brings asked_items in step for the members of recounted
// families, as syncSkips does done_items.
func (t *wtx) syncAsked(members []int64, before, now map[int64][]int64) error {
	for _, id := range members {
		was, is := before[id], now[id]
		for _, a := range was {
			if !slices.Contains(is, a) {
				if err := t.flush(stageAsked); err != nil {
					return err
				}
				if _, err := t.Exec("DELETE FROM asked_items WHERE annotator_id=? AND item_id=?", a, id); err != nil {
					return err
				}
			}
		}
		for _, a := range is {
			if !slices.Contains(was, a) {
				if err := t.stage(stageAsked, a, id); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// askedCond is, for a kind that waits for its parent's labels, the SQL
// condition that the item whose id is the expression item is asked of the
// annotator of id aid (two lookups of asked_items' key); "" for other
// kinds. The parent gate (an answer judged incorrect) is left to
// done_items.
func askedCond(kind schema.Kind, item string, aid int64) (string, []any) {
	if !schema.WaitsForParent(kind) {
		return "", nil
	}
	return "EXISTS (SELECT 1 FROM asked_items x WHERE x.annotator_id IN (?, ?) AND x.item_id = " + item + ")", []any{tally.Anyone, aid}
}

// askedScope is, for the open queue of a kind that waits for its parent's
// labels, the queue as queueScope.keyed gives it (every item of the
// queue, done or not) read from asked_items: the items asked of everyone
// or of the annotator, the order key the asked row's item id, so that a
// range of keys is a range of asked_items' key for each of the two.
func (sc queueScope) askedScope() (from, key, item string, args []any) {
	return "asked_items x CROSS JOIN items i ON i.id = x.item_id WHERE x.annotator_id IN (?, ?) AND i.kind = ? AND " + queueable(sc.kind) +
			" AND NOT " + pendingItemSQL("i.id"),
		"x.item_id", "i.id", []any{tally.Anyone, sc.annotator, sc.kind}
}
