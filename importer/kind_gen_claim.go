package importer

import (
	"strconv"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Native JSONL lines of generated claims on lines of their own, after their
// answer, as the export writes them: {"kind":"gen_claim","id":…,"answer":…,
// "position":2,"text":…,"predictions":{…}} (the verdicts read as a
// generated answer's claims' are: kind_gen_answer.go).

func init() {
	registerNative(schema.KindGenClaim, parseGenClaim)
}

func parseGenClaim(f *fileData, r *rec) (*itemRec, error) {
	var c store.GenClaim
	var err error
	if c.ID, err = r.needID("id"); err != nil {
		return nil, err
	}
	if c.AnswerID, err = r.needID("answer"); err != nil {
		return nil, err
	}
	if raw := r.get("position"); raw != nil {
		if c.Position, err = strconv.Atoi(string(raw)); err != nil || c.Position < 1 {
			return nil, r.errf("position", "want the claim's place in its answer, 1 or more, got %s", raw)
		}
	}
	if c.Text, err = r.need("text"); err != nil {
		return nil, err
	}
	if c.Predictions, err = f.verdicts(r, "predictions"); err != nil {
		return nil, err
	}
	if _, err := f.itemRest(r, c.ID, schema.KindGenClaim); err != nil {
		return nil, err
	}
	return &itemRec{idField: "id", kind: schema.KindGenClaim, id: c.ID, hash: store.GenClaimHash(c),
		needs: []need{{"answer", c.AnswerID}},
		put: func(tx *store.Tx, hash, file string, update bool) (int64, store.PutResult, error) {
			return tx.PutGenClaim(c, hash, file, update)
		}}, nil
}
