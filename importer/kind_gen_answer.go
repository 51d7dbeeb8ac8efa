package importer

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Native JSONL lines of generated answers (docs/formats.md,
// native), their atomic claims inside with an automatic judge's verdicts:
// {"kind":"gen_answer","id":…,"query":…,"system":…,"condition":"oracle"|"pipeline",
//  "answer":…,"documents":[…],"claims":[{"id":…,"text":…,
//   "predictions":{"judge":{"accuracy_support":…,"grounded":…}},"labels":{…}}]}
// The query must be in the database or in the import; the documents need
// not be (the screen names those it cannot show).
// As the export writes them, claims may also come on lines of their own
// (kind_gen_claim.go).

// genClaimsKey holds a generated answer's claims in its native line (the
// release's generation outputs build that line too).
const genClaimsKey = "claims"

// genAnswerKind reads generated answers from their native lines and from
// the gen_answers config of an hf export.
type genAnswerKind struct{}

func init() { Register(genAnswerKind{}) }

func (genAnswerKind) Kind() schema.Kind               { return schema.KindGenAnswer }
func (genAnswerKind) ReadLine(l *Line) (*Item, error) { return parseGenAnswer(l.f, l.r) }
func (genAnswerKind) HFConfig() string                { return "gen_answers" }
func (genAnswerKind) HFColumns() map[string]string    { return map[string]string{"query_id": "query"} }

var conditions = []string{schema.ConditionOracle, schema.ConditionPipeline}

func parseGenAnswer(f *fileData, r *rec) (*itemRec, error) {
	var a store.GenAnswer
	var err error
	if a.ID, err = r.needID("id"); err != nil {
		return nil, err
	}
	if a.Query, err = r.needID("query"); err != nil {
		return nil, err
	}
	if a.System, err = r.need("system"); err != nil {
		return nil, err
	}
	if err := printable(r.at, "system", "the system name", a.System); err != nil {
		return nil, err
	}
	if a.Condition, err = r.need("condition"); err != nil {
		return nil, err
	}
	if !slices.Contains(conditions, a.Condition) {
		return nil, r.errf("condition", "want \"oracle\" or \"pipeline\", got %q", a.Condition)
	}
	if a.Answer, err = r.need("answer"); err != nil {
		return nil, err
	}
	if a.Documents, err = r.strings("documents"); err != nil {
		return nil, err
	}
	for i, d := range a.Documents {
		if err := printable(r.at, fmt.Sprintf("documents[%d]", i), "the document id", d); err != nil {
			return nil, err
		}
	}
	claims, err := r.array(genClaimsKey)
	if err != nil {
		return nil, err
	}
	type labelled struct {
		c    *rec
		id   string
		path string
	}
	var withLabels []labelled
	seen := map[string]int{}
	for i, raw := range claims {
		field := fmt.Sprintf("claims[%d]", i)
		c, err := r.sub(field, raw)
		if err != nil {
			return nil, err
		}
		cl := store.GenClaim{Position: i + 1}
		if cl.ID, err = c.id("id"); err != nil {
			return nil, err
		}
		idField := field + ".id"
		if cl.ID == "" {
			cl.ID, idField = a.ID+"-c"+strconv.Itoa(i+1), field
		}
		if err := printable(r.at, idField, "the id", cl.ID); err != nil {
			return nil, err
		}
		if prev, dup := seen[cl.ID]; dup {
			return nil, r.errf(idField, "claim id %q is also the id of claims[%d]", cl.ID, prev)
		}
		seen[cl.ID] = i
		if cl.Text, err = c.need("text"); err != nil {
			return nil, err
		}
		if cl.Predictions, err = f.verdicts(c, "predictions"); err != nil {
			return nil, err
		}
		if c.has("labels") {
			withLabels = append(withLabels, labelled{c, cl.ID, idField})
		}
		keys, _ := c.unknown()
		f.unknownKeys("claims.", keys)
		a.Claims = append(a.Claims, cl)
	}
	r.get("kind")
	labels := r.has("labels")
	keys, extra := r.unknown()
	f.unknownKeys("", keys)
	a.Extra = extra
	if labels {
		return nil, r.errf("labels", "a generated answer is not annotated: labels go on its claims")
	}
	for _, l := range withLabels {
		if err := f.labelsObject(l.c, "labels", l.id, l.path, schema.KindGenClaim); err != nil {
			return nil, err
		}
	}
	head := a
	head.Claims = nil // each claim has a hash of its own (store.GenClaimHash)
	return &itemRec{idField: "id", kind: schema.KindGenAnswer, id: a.ID, hash: contentHash(head),
		needs: []need{{"query", a.Query}},
		put: func(tx *store.Tx, hash, file string, update bool) (int64, store.PutResult, error) {
			return tx.PutGenAnswer(a, hash, file, update)
		}}, nil
}

// verdicts reads {"system": {"field": "value"}}: a judge's verdicts on the
// fields of a generated claim, normalised like labels (an unknown value is
// kept and counted in a warning).
func (f *fileData) verdicts(r *rec, key string) (map[string]map[string]string, error) {
	obj, err := r.object(key)
	if err != nil || len(obj) == 0 {
		return nil, err
	}
	out := map[string]map[string]string{}
	for _, sys := range sortedKeys(obj) {
		if err := printable(r.at, r.path+key, "the system name", sys); err != nil {
			return nil, err
		}
		fields, dup, dupAt, err := decodeObject(obj[sys])
		if err != nil || fields == nil {
			return nil, r.errf(key+"."+sys, "want an object {\"accuracy_support\": …, \"grounded\": …}, got %s", kind(obj[sys]))
		}
		if dupAt >= 0 {
			return nil, r.errf(key+"."+sys+"."+dup, "%s", duplicateKey)
		}
		for _, name := range sortedKeys(fields) {
			if name != schema.AccuracySupport && name != schema.Grounded {
				return nil, r.errf(key+"."+sys+"."+name, "a judge's verdicts are on accuracy_support and grounded")
			}
			var v string
			if json.Unmarshal(fields[name], &v) != nil {
				return nil, r.errf(key+"."+sys+"."+name, "want a string, got %s", kind(fields[name]))
			}
			n, known := schema.Normalize(name, v)
			if n == "" {
				continue
			}
			if !known {
				f.sum.count(&f.sum.UnknownPredictions, sys, n)
			}
			if out[sys] == nil {
				out[sys] = map[string]string{}
			}
			out[sys][name] = n
		}
	}
	return out, nil
}
