package importer

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Native JSONL lines of generated claims on lines of their own, after their
// answer, as the export writes them: {"kind":"gen_claim","id":…,"answer":…,
// "position":2,"text":…,"predictions":{…}} (the verdicts read as a
// generated answer's claims' are: kind_gen_answer.go).

// genClaimKind reads generated claims from their native lines and from
// the gen_claims config of an hf export (its predictions rebuilt from the
// verdicts by hfVerdicts).
type genClaimKind struct{}

func init() { Register(genClaimKind{}) }

func (genClaimKind) Kind() schema.Kind               { return schema.KindGenClaim }
func (genClaimKind) ReadLine(l *Line) (*Item, error) { return parseGenClaim(l.f, l.r) }
func (genClaimKind) HFConfig() string                { return "gen_claims" }

func (genClaimKind) HFColumns() map[string]string {
	return map[string]string{"answer_id": "answer", "query_id": "", "system": "", "condition": "", "verdicts": ""}
}

func (genClaimKind) HFConvert(row *Line, out map[string]any) error { return hfVerdicts(row.r, out) }

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

// hfVerdicts rebuilds a generated claim's predictions from its verdicts
// ("system/field=value").
func hfVerdicts(r *rec, out map[string]any) error {
	var vs []string
	if raw := r.m["verdicts"]; raw != nil && json.Unmarshal(raw, &vs) != nil {
		return r.errf("verdicts", "want a list of strings, got %s", kind(raw))
	}
	p := map[string]map[string]string{}
	for i, v := range vs {
		sys, rest, ok1 := strings.Cut(v, "/")
		field, value, ok2 := strings.Cut(rest, "=")
		if !ok1 || !ok2 || sys == "" || field == "" {
			return r.errf("verdicts["+strconv.Itoa(i)+"]", "want system/field=value, got %q", v)
		}
		if p[sys] == nil {
			p[sys] = map[string]string{}
		}
		p[sys][field] = value
	}
	if len(p) > 0 {
		out["predictions"] = p
	}
	return nil
}
