package storetest

import "github.com/annotate-dev/annotate/store"

// The Builder's claims: extracted, and added by an annotator.

// Claim adds an extracted claim with optional predictions (system=value).
func (b *Builder) Claim(qa, id string, preds map[string]string) {
	c := store.Claim{ID: id, QAID: qa, Triplet: [3]string{"s " + id, "p", "o"}, Predictions: preds}
	item, _, err := b.Tx.PutClaim(c, "h-"+id, "test", false)
	b.Fail(err, "claim "+id)
	b.IDs[id] = item
}

// Added adds a claim an annotator added to an answer, with its claim_added label.
func (b *Builder) Added(qa, id, who string) {
	c := store.Claim{ID: id, QAID: qa, Triplet: [3]string{"s " + id, "p", "o"}, Origin: store.OriginAnnotator, AddedBy: who}
	item, _, err := b.Tx.PutClaim(c, "h-"+id, "test", false)
	b.Fail(err, "added claim "+id)
	b.IDs[id] = item
	b.Label(who, id, "claim_added", "yes")
}
