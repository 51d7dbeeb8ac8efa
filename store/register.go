package store

import "github.com/annotate-dev/annotate/schema"

// What a kind registered from outside this package (a test package's toy
// kind: internal/toykind) needs of the store. A kind of the product
// registers from a file of this package instead, with a table of its own.

// BareItem is the payload of a bare kind: the item is its id alone (no
// table of its own; what the store keeps of it is its items row).
type BareItem struct {
	ID     string
	ItemID int64
}

// RegisterBareKind registers a kind whose items are their id alone: its
// payload is a *BareItem read from the items row, its queue and batches
// need nothing special.
func RegisterBareKind(k schema.Kind) {
	registerPayload(k, func(q querier, ids []int64) (map[int64]any, error) {
		out := map[int64]any{}
		err := eachRow(q, `SELECT id, ext_id FROM items WHERE id IN (SELECT value FROM json_each(?))`, []any{jsonInts(ids)}, func(sc func(...any) error) error {
			v := &BareItem{}
			if err := sc(&v.ItemID, &v.ID); err != nil {
				return err
			}
			out[v.ItemID] = v
			return nil
		})
		return out, err
	})
	registerSQL(k, kindSQL{})
}
