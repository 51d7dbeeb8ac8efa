package importer

import (
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Claims: a claim of a QA pair, written as soon as its pair is in (else it
// waits for every pair), counted under "claims" in the summary. Native
// claims sit in their pair's line (kind_claim_native.go); hf rows are under
// data/claims (kind_claim_hf.go); ClaimRAG-LAW and RefChecker have files of
// their own; the write path is kind_claim_write.go.

func init() {
	registerRows(rowKind{kind: schema.KindClaim, counts: func(s *FileSummary) *Counts { return &s.Claims },
		staged: (*writer).writeStagedClaims})
}

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
	if err := printable(at, "added_by", "the annotator name", c.AddedBy); err != nil {
		return err
	}
	for sys := range c.Predictions {
		if err := printable(at, field+".predictions", "the system name", sys); err != nil {
			return err
		}
	}
	return f.out.claim(f, &claimRec{at: at, field: field, idField: idField, pairField: pairField, c: c, hash: claimHash(c)})
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
