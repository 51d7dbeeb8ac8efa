package importer

import (
	"encoding/json"
	"strconv"

	"github.com/annotate-dev/annotate/internal/names"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Claims, a kind of records of its own (kinds_rows.go): a claim of a QA
// pair, written as soon as its pair is in (else it waits for every pair),
// counted under "claims" in the summary. Here: the record, a native claim
// (inside its pair's line) and an hf row of data/claims; ClaimRAG-LAW and
// RefChecker have files of their own; the write path is
// kind_claim_write.go.

// claimKind is the importer's claim: records of its own, staged after the
// waiting items.
type claimKind struct{}

func init() { Register(claimKind{}) }

func (claimKind) Kind() schema.Kind               { return schema.KindClaim }
func (claimKind) counts(s *FileSummary) *Counts   { return &s.Claims }
func (claimKind) writeStaged(w *writer) error     { return w.writeStagedClaims() }
func (claimKind) HFConfig() string                { return "claims" }
func (claimKind) hfRow(f *fileData, r *rec) error { return f.hfClaim(r) }

// claimSummary is the claims' part of a file summary.
type claimSummary struct {
	Claims Counts `json:"claims"`
}

type claimRec struct {
	at      loc
	field   string // names the claim in errors, e.g. "claims[2]"
	idField string // names its id: "claims[2].id", "id", or the claim itself when the id is derived
	// pairField names the reference to the QA pair when it may be unknown
	// (a ClaimRAG-LAW claims record without the pair, an hf claim row).
	pairField string
	c         store.Claim
	hash      string
}

func (f *fileData) addClaim(at loc, field, idField, pairField string, c store.Claim) error {
	if err := printable(at, idField, "the id", c.ID); err != nil {
		return err
	}
	if c.AddedBy != "" {
		if err := names.Check(c.AddedBy); err != nil {
			return at.errf("added_by", "the annotator's name: %v", err)
		}
	}
	for sys := range c.Predictions {
		if err := printable(at, field+".predictions", "the system name", sys); err != nil {
			return err
		}
	}
	return f.out.row(f, &claimRec{at: at, field: field, idField: idField, pairField: pairField, c: c, hash: claimHash(c)})
}

// prediction normalises a system's verdict like an entailment label.
func (f *fileData) prediction(system, value string) string {
	v, known := normalize(schema.Entailment, value)
	if !known && v != "" {
		f.sum.count(&f.sum.UnknownPredictions, system, v)
	}
	return v
}

func claimHash(c store.Claim) string {
	return hash(struct {
		Kind, ID, QAID      string
		Position            int
		Triplet             [3]string
		Text, Origin, Added string
		Predictions         map[string]string
		Extractor           string `json:",omitempty"`
	}{"claim", c.ID, c.QAID, c.Position, c.Triplet, c.Text, c.Origin, c.AddedBy, c.Predictions, c.Extractor})
}

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
// triplet or text, the origin, who added it, the extractor, and the system
// predictions.
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
	if c.Extractor, err = r.str("extractor"); err != nil {
		return err
	}
	c.Predictions, err = f.predictions(r, "predictions")
	return err
}

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
		l := labelRec{at: r.at, field: "added_by", itemField: "id", annotator: c.AddedBy, who: "added_by", item: c.ID, name: schema.ClaimAdded, value: "yes"}
		if err := f.addLabel(l, schema.KindClaim); err != nil {
			return err
		}
	}
	return f.hfLabels(r, c.ID, schema.KindClaim, fieldNames(schema.KindClaim))
}
