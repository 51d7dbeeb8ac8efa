package store

import (
	"database/sql"
	"errors"
)

// What a streaming import reads of the claims it wrote, inside its
// transaction (import_scratch.go).

// StoredClaim reads a claim as the database holds it, inside the import.
func (t *Tx) StoredClaim(extID string) (Claim, error) {
	var c Claim
	if err := t.tx.flush(stageClaims, stagePredictions); err != nil {
		return c, err
	}
	err := t.tx.QueryRow(`SELECT i.id, i.ext_id, p.ext_id, c.position, c.subject, c.predicate, c.object, c.text, c.origin,
		COALESCE(a.name, ''), c.extractor FROM items i JOIN claims c ON c.item_id=i.id JOIN items p ON p.id=i.parent_id
		LEFT JOIN annotators a ON a.id=c.added_by WHERE i.ext_id=? AND i.kind='claim'`, extID).Scan(&c.ItemID, &c.ID, &c.QAID,
		&c.Position, &c.Triplet[0], &c.Triplet[1], &c.Triplet[2], &c.Text, &c.Origin, &c.AddedBy, &c.Extractor)
	if errors.Is(err, sql.ErrNoRows) {
		return c, notFound("claim", extID)
	}
	if err != nil {
		return c, err
	}
	c.Predictions, err = t.storedPredictions(c.ItemID)
	return c, err
}
