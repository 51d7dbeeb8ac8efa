package importer

import (
	"encoding/json"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

func (f *fileData) hfClaim(r *rec) error {
	c := store.Claim{}
	var err error
	if c.ID, err = r.needID("id"); err != nil {
		return err
	}
	if c.QAID, err = r.needID("qa_id"); err != nil {
		return err
	}
	if raw := r.get("position"); raw != nil {
		if json.Unmarshal(raw, &c.Position) != nil {
			return r.errf("position", "want an integer, got %s", kind(raw))
		}
	}
	if err := f.claimContent(r, &c, "a claim row"); err != nil {
		return err
	}
	for _, k := range []string{"source", "language", "question", "answer", "contexts", "notes"} {
		r.get(k) // the pair's, repeated on each claim row
	}
	if err := f.addClaim(r.at, "", "id", "qa_id", c); err != nil {
		return err
	}
	// An added claim stands while its claim_added label does: give it back
	// to who added it.
	if c.Origin == store.OriginAnnotator && c.AddedBy != "" {
		l := labelRec{at: r.at, field: "added_by", itemField: "id", annotator: c.AddedBy, item: c.ID, name: schema.ClaimAdded, value: "yes"}
		if err := f.addLabel(l, schema.KindClaim); err != nil {
			return err
		}
	}
	return f.hfLabels(r, c.ID, schema.KindClaim, fieldNames(schema.KindClaim))
}
