package importer

import (
	"strconv"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// nativeClaim reads claims[n-1] of pair qa; c's path names it in errors.
func (f *fileData) nativeClaim(c *rec, qa string, n int) error {
	field := c.path[:len(c.path)-1]
	cl := store.Claim{QAID: qa, Position: n}
	var err error
	if cl.ID, err = c.id("id"); err != nil {
		return err
	}
	idField := field + ".id"
	if cl.ID == "" {
		cl.ID, idField = qa+"-c"+strconv.Itoa(n), field
	}
	if err := f.claimContent(c, &cl, "a claim"); err != nil {
		return err
	}
	labels := c.get("labels") != nil
	keys, _ := c.unknown()
	f.unknownKeys("claims.", keys)
	if err := f.addClaim(c.at, field, idField, "", cl); err != nil {
		return err
	}
	if labels {
		return f.labelsObject(c, "labels", cl.ID, idField, schema.KindClaim)
	}
	return nil
}

// claimContent reads what a native claim and an exported claim row share: the
// triplet or text, the origin, who added it, and the system predictions.
func (f *fileData) claimContent(r *rec, c *store.Claim, what string) error {
	var err error
	trip, text := r.get("triplet"), r.get("text")
	switch {
	case trip != nil && text != nil:
		return r.errf("triplet", "a claim has a triplet or a text, not both")
	case trip != nil:
		if c.Triplet, err = triplet(r, "triplet", trip); err != nil {
			return err
		}
	case text != nil:
		if c.Text, err = r.need("text"); err != nil {
			return err
		}
	default:
		return r.errf("triplet", "missing: %s needs a \"triplet\" [subject, predicate, object] or a \"text\"", what)
	}
	if c.Origin, err = r.str("origin"); err != nil {
		return err
	}
	if c.Origin != "" && c.Origin != store.OriginExtracted && c.Origin != store.OriginAnnotator {
		return r.errf("origin", "want %q or %q, got %q", store.OriginExtracted, store.OriginAnnotator, c.Origin)
	}
	if c.AddedBy, err = r.str("added_by"); err != nil {
		return err
	}
	c.Predictions, err = f.predictions(r, "predictions")
	return err
}
