package store

import (
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// The claim kind's rows: claims (a triple or a text, its position in the
// answer, who added it).

func init() {
	registerAttrs(schema.KindClaim, kindAttrs{
		names: []string{tally.AttrOrigin, tally.AttrAddedBy, tally.AttrPosition},
		sql:   "SELECT item_id, origin, COALESCE(added_by, 0), position FROM claims WHERE item_id IN (SELECT value FROM json_each(?))",
	})
}

func init() {
	registerPayload(schema.KindClaim, loadClaims)
}

// loadClaims reads claims without their system predictions: what the
// annotation screens load cannot show a prediction.
func loadClaims(q querier, ids []int64) (map[int64]any, error) {
	out := map[int64]any{}
	err := eachRow(q, `SELECT i.id, i.ext_id, COALESCE(p.ext_id,''), c.position, c.subject, c.predicate, c.object, c.text, c.origin,
			COALESCE(a.name,''), COALESCE(src.name,'')
		FROM items i JOIN claims c ON c.item_id=i.id LEFT JOIN items p ON p.id=i.parent_id
		LEFT JOIN annotators a ON a.id=c.added_by LEFT JOIN sources src ON src.id=i.source_id
		WHERE i.id IN (SELECT value FROM json_each(?))`, []any{jsonInts(ids)}, func(sc func(...any) error) error {
		c := &Claim{}
		if err := sc(&c.ItemID, &c.ID, &c.QAID, &c.Position, &c.Triplet[0], &c.Triplet[1], &c.Triplet[2], &c.Text, &c.Origin, &c.AddedBy, &c.Source); err != nil {
			return err
		}
		out[c.ItemID] = c
		return nil
	})
	return out, err
}

func init() {
	registerSQL(schema.KindClaim, kindSQL{
		// An annotator-added claim lives inside the missed-claims step.
		queueable: "EXISTS (SELECT 1 FROM claims c WHERE c.item_id = i.id AND c.origin = 'extracted')",
		hop:       "(SELECT hop FROM qa_pairs WHERE item_id = i.parent_id)",
		answer:    "i.parent_id",
	})
}
