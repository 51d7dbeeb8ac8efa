package store

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/annotate-dev/annotate/schema"
)

// Item is the one read model of an item for screens, review and export: what
// every kind has, and the kind's own payload (*QAPair, *Claim, ...).
type Item struct {
	ItemRef
	ParentID int64 // 0: none
	Source   string
	Payload  any
}

// aside is what the item's kind shows beside it (Aside; nil: nothing).
func aside(q querier, it *Item) (any, error) {
	if a, ok := kinds.Get(schema.Kind(it.Kind)).(Aside); ok {
		return a.Aside(q, it.ItemID)
	}
	return nil, nil
}

// loadItems reads items with their payloads: one query for what they share
// and one per kind present.
func loadItems(q querier, ids []int64) (map[int64]*Item, error) {
	out := make(map[int64]*Item, len(ids))
	byKind := map[schema.Kind][]int64{}
	for _, chunk := range chunks(ids, 500) {
		err := eachRow(q, `SELECT i.id, i.ext_id, i.kind, COALESCE(i.parent_id, 0), COALESCE(s.name, '')
			FROM items i LEFT JOIN sources s ON s.id = i.source_id WHERE i.id IN (SELECT value FROM json_each(?))`, []any{jsonInts(chunk)},
			func(sc func(...any) error) error {
				it := &Item{}
				if err := sc(&it.ItemID, &it.ExtID, &it.Kind, &it.ParentID, &it.Source); err != nil {
					return err
				}
				out[it.ItemID] = it
				byKind[schema.Kind(it.Kind)] = append(byKind[schema.Kind(it.Kind)], it.ItemID)
				return nil
			})
		if err != nil {
			return nil, err
		}
	}
	for k, kids := range byKind {
		kind := kinds.Get(k)
		if kind == nil {
			continue
		}
		slices.Sort(kids)
		for _, chunk := range chunks(kids, 500) {
			ps, err := kind.Payloads(q, chunk)
			if err != nil {
				return nil, fmt.Errorf("%s items: %w", k, err)
			}
			for id, p := range ps {
				out[id].Payload = p
			}
		}
	}
	return out, nil
}

// Items reads items with their payloads, keyed by id.
func (rx *ReadTx) Items(ids []int64) (map[int64]*Item, error) { return loadItems(rx.q, ids) }

// FamilyOf returns the ids of an item's family, root first then its
// children in position order (import order for kinds without one).
func familyOf(q querier, id int64) ([]int64, error) {
	var root int64
	if err := q.QueryRow("SELECT COALESCE(parent_id, id) FROM items WHERE id=?", id).Scan(&root); err != nil {
		return nil, fmt.Errorf("item %d: %w", id, err)
	}
	kids, err := int64s(q, "SELECT id FROM items WHERE parent_id=? ORDER BY id", root)
	return append([]int64{root}, kids...), err
}

// ItemView is everything an annotation screen shows of one item and its
// family, for one annotator, read in one snapshot. It never holds system
// predictions nor another annotator's labels.
type ItemView struct {
	Item     *Item
	Parent   *Item   // the item's parent (a claim's QA pair), nil for none
	Siblings []*Item // the parent's children the annotator works on: extracted ones, in order
	// Mine are the children of the parent (or of the item itself, when it
	// is the root) that this annotator added and that stand.
	Mine []*Item
	// Labels are the annotator's current labels by item id, for the item
	// and its family.
	Labels map[int64]map[string]string
	IsLast bool   // the last of its siblings (the missed-claims step follows)
	Note   string // the annotator's current notes, one a line (ItemNote)
	// FieldNotes is the annotator's current note per field ("" : the item
	// as a whole), never nil.
	FieldNotes map[string]string
	Flagged    bool
	Aside      any // what the kind shows beside the item (store.Aside), nil for most
	// NotAsked says why the item asks this annotator nothing although it
	// has fields: its kind waits for the parent's labels and they do not
	// ask it ("answer_correctness=incorrect", "answer_correctness
	// unlabelled"); "" when it is asked.
	NotAsked string
}

// LabelsOf returns the annotator's labels on an item of the view (never nil).
func (v *ItemView) LabelsOf(id int64) map[string]string {
	if l := v.Labels[id]; l != nil {
		return l
	}
	return map[string]string{}
}

// ItemView loads one item's view for an annotator.
func (rx *ReadTx) ItemView(annotator string, id int64) (*ItemView, error) {
	ids, err := familyOf(rx.q, id)
	if err != nil {
		return nil, err
	}
	items, err := loadItems(rx.q, ids)
	if err != nil {
		return nil, err
	}
	v := &ItemView{Item: items[id], Labels: map[int64]map[string]string{}}
	if v.Item == nil {
		return nil, notFound("item", fmt.Sprint("#", id))
	}
	aid, known, _ := lookupAnnotator(rx.q, annotator) // an unknown annotator has no labels
	if known {
		err := eachRow(rx.q, `SELECT item_id, field, value FROM current_labels WHERE role='annotate' AND annotator_id=?
			AND item_id IN (SELECT value FROM json_each(?))`, []any{aid, jsonInts(ids)}, func(sc func(...any) error) error {
			var item int64
			var f, val string
			if err := sc(&item, &f, &val); err != nil {
				return err
			}
			if v.Labels[item] == nil {
				v.Labels[item] = map[string]string{}
			}
			v.Labels[item][f] = val
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	root := items[ids[0]]
	if root.ItemID != id {
		v.Parent = root
	}
	for _, kid := range ids[1:] {
		it := items[kid]
		if ad, ok := kinds.Get(schema.Kind(it.Kind)).(AddedItems); ok {
			if by, added := ad.AddedBy(it.Payload); added {
				if by == annotator && v.LabelsOf(kid)[ad.AddedMarker()] == "yes" {
					v.Mine = append(v.Mine, it)
				}
				continue
			}
		}
		v.Siblings = append(v.Siblings, it)
	}
	slices.SortStableFunc(v.Siblings, func(a, b *Item) int { return positionOf(a) - positionOf(b) })
	v.IsLast = len(v.Siblings) > 0 && v.Siblings[len(v.Siblings)-1].ItemID == id
	if at, args := atOnceCond(schema.Kind(v.Item.Kind), strconv.FormatInt(id, 10), aid); at != "" && v.Parent != nil {
		var given bool
		if err := rx.q.QueryRow("SELECT "+at, args...).Scan(&given); err != nil {
			return nil, err
		}
		if ok, why := schema.Offered(schema.Kind(v.Item.Kind), v.LabelsOf(v.Parent.ItemID), given); !ok {
			v.NotAsked = why
		}
	}
	if v.Aside, err = aside(rx.q, v.Item); err != nil {
		return nil, err
	}
	if v.Note, v.Flagged, err = itemNote(rx.q, annotator, id); err != nil {
		return nil, err
	}
	v.FieldNotes, err = fieldNotes(rx.q, annotator, id)
	return v, err
}

// positionOf is an item's place among its siblings, for kinds that have one.
func positionOf(it *Item) int {
	if c, ok := it.Payload.(*Claim); ok {
		return c.Position
	}
	return 0
}
