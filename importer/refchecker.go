package importer

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// RefChecker and RAGChecker files number their records per file, so their
// ids are prefixed with the file's base name (dolly_gpt4_answers/12646), and
// that base name is also the source: two files never collide by accident.

// HumanAnnotator owns the labels of RefChecker's human annotations.
const HumanAnnotator = "refchecker-human"

// RefCheckerSystem is the system name of RefChecker's checker predictions.
const RefCheckerSystem = "refchecker"

// arrayRecords reads a file that is a JSON array of objects and calls fn on each.
func arrayRecords(f *fileData, data []byte, fn func(i int, r *rec) error) error {
	doc, err := document(f.name, data)
	if err != nil {
		return err
	}
	records, err := elements(fileLoc(f.name), "", doc)
	if err != nil {
		return err
	}
	return eachObject(f.name, records, fn)
}

func eachObject(name string, records []json.RawMessage, fn func(i int, r *rec) error) error {
	for i, raw := range records {
		at := recLoc(name, i)
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil || m == nil {
			return at.errf("", "want a JSON object, got %s", kind(raw))
		}
		if err := fn(i, newRec(at, "", m)); err != nil {
			return err
		}
	}
	return nil
}

// parseChecker reads RefChecker checker output:
// [{"question","response","reference","claims":[[h,r,t]…],"ys":[…]}].
func parseChecker(f *fileData, data []byte) error {
	base := baseName(f.name)
	return arrayRecords(f, data, func(i int, r *rec) error {
		id, err := r.id("id")
		if err != nil {
			return err
		}
		if id == "" {
			id = strconv.Itoa(i)
		}
		q := store.QAPair{ID: base + "/" + id, Source: base}
		if q.Question, err = r.need("question"); err != nil {
			return err
		}
		if q.Answer, err = r.need("response"); err != nil {
			return err
		}
		refs, err := r.strings("reference")
		if err != nil {
			return err
		}
		for n, text := range refs {
			cid := q.ID + "/ref"
			if len(refs) > 1 {
				cid += strconv.Itoa(n + 1)
			}
			q.Contexts = append(q.Contexts, store.Context{ID: cid, Text: text})
		}
		claims, err := r.array("claims")
		if err != nil {
			return err
		}
		ys, err := r.array("ys")
		if err != nil {
			return err
		}
		if ys != nil && len(ys) != len(claims) {
			return r.errf("ys", "has %d verdicts for %d claims", len(ys), len(claims))
		}
		keys, extra := r.unknown()
		f.unknownKeys("", keys)
		q.Extra = extra
		if err := f.addPair(r.at, "id", q, false); err != nil {
			return err
		}
		for n, raw := range claims {
			cl, err := claimValue(r, fmt.Sprintf("claims[%d]", n), raw)
			if err != nil {
				return err
			}
			cl.ID, cl.QAID, cl.Position = q.ID+"-c"+strconv.Itoa(n+1), q.ID, n+1
			if ys != nil {
				v, err := verdict(r, fmt.Sprintf("ys[%d]", n), ys[n])
				if err != nil {
					return err
				}
				if v = f.prediction(RefCheckerSystem, v); v != "" {
					cl.Predictions = map[string]string{RefCheckerSystem: v}
				}
			}
			if err := f.addClaim(r.at, fmt.Sprintf("claims[%d]", n), "", cl); err != nil {
				return err
			}
		}
		return nil
	})
}

// claimValue reads a claim given as [h, r, t] or, from sub-sentence
// extractors, as a string.
func claimValue(r *rec, field string, raw json.RawMessage) (store.Claim, error) {
	var c store.Claim
	var text string
	if json.Unmarshal(raw, &text) == nil {
		if strings.TrimSpace(text) == "" {
			return c, r.errf(field, "empty claim")
		}
		c.Text = text
		return c, nil
	}
	var err error
	c.Triplet, err = triplet(r, field, raw)
	return c, err
}

// verdict reads one element of ys: a label, or a list whose first element is
// the label (RefChecker writes one verdict per reference).
func verdict(r *rec, field string, raw json.RawMessage) (string, error) {
	var v string
	if json.Unmarshal(raw, &v) == nil {
		return v, nil
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		if len(list) == 0 {
			return "", nil
		}
		return verdict(r, field+"[0]", list[0])
	}
	if kind(raw) == "null" {
		return "", nil
	}
	return "", r.errf(field, "want a string or a list of strings, got %s", kind(raw))
}

// parseHuman reads RefChecker's human annotations
// (benchmark/human_annotations_v1): [{"id","response","<model>_response_kg":
// [{"triplet":[h,r,t],"human_label"}]}]. Each triplet becomes a claim with one
// entailment label of HumanAnnotator; there is no question text and no context.
func parseHuman(f *fileData, data []byte) error {
	base := baseName(f.name)
	return arrayRecords(f, data, func(i int, r *rec) error {
		id, err := r.needID("id")
		if err != nil {
			return err
		}
		q := store.QAPair{ID: base + "/" + id, Source: base}
		if q.Question, err = r.str("question"); err != nil {
			return err
		}
		if q.Answer, err = r.need("response"); err != nil {
			return err
		}
		var kgs []string
		for _, k := range sortedKeys(r.m) {
			if strings.HasSuffix(k, "_response_kg") {
				kgs = append(kgs, k)
			}
		}
		if len(kgs) == 0 {
			return r.errf("<model>_response_kg", "missing: no key ending in _response_kg")
		}
		lists := make([][]json.RawMessage, len(kgs))
		for n, k := range kgs {
			if lists[n], err = r.array(k); err != nil {
				return err
			}
		}
		keys, extra := r.unknown()
		f.unknownKeys("", keys)
		q.Extra = extra
		if err := f.addPair(r.at, "id", q, false); err != nil {
			return err
		}
		pos := 0
		for n, k := range kgs {
			for j, raw := range lists[n] {
				pos++
				c, err := r.sub(fmt.Sprintf("%s[%d]", k, j), raw)
				if err != nil {
					return err
				}
				if err := f.humanClaim(c, q.ID, pos); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

func (f *fileData) humanClaim(c *rec, qa string, pos int) error {
	field := strings.TrimSuffix(c.path, ".")
	raw := c.get("triplet")
	if raw == nil {
		return c.errf("triplet", "missing (required)")
	}
	t, err := triplet(c, "triplet", raw)
	if err != nil {
		return err
	}
	label, err := c.str("human_label")
	if err != nil {
		return err
	}
	keys, _ := c.unknown()
	f.unknownKeys("<model>_response_kg.", keys)
	cl := store.Claim{ID: qa + "-c" + strconv.Itoa(pos), QAID: qa, Position: pos, Triplet: t}
	if err := f.addClaim(c.at, field, "", cl); err != nil {
		return err
	}
	return f.addLabel(c.at, field+".human_label", HumanAnnotator, cl.ID, schema.Entailment, label, schema.KindClaim)
}

// ragcheckerKept are RAGChecker output keys kept with the pair as extra data
// without a warning: they are known, just not annotated.
var ragcheckerKept = map[string]bool{"gt_answer": true, "gt_answer_claims": true, "answer2response": true,
	"response2answer": true, "retrieved2response": true, "retrieved2answer": true, "metrics": true}

// parseRAGChecker reads RAGChecker checking output: {"results":[{query_id,
// query, gt_answer, response, retrieved_context:[{doc_id,text}],
// response_claims:[[h,r,t]…]}]} -> QA pairs (the response as the answer, the
// retrieved chunks as contexts) and their claims, without predictions.
func parseRAGChecker(f *fileData, data []byte) error {
	doc, err := document(f.name, data)
	if err != nil {
		return err
	}
	at := fileLoc(f.name)
	var top map[string]json.RawMessage
	if json.Unmarshal(doc, &top) != nil || top["results"] == nil {
		return at.errf("results", "missing: a RAGChecker file is {\"results\":[…]}")
	}
	records, err := elements(at, "results", top["results"])
	if err != nil {
		return err
	}
	base := baseName(f.name)
	return eachObject(f.name, records, func(i int, r *rec) error {
		id, err := r.needID("query_id")
		if err != nil {
			return err
		}
		q := store.QAPair{ID: base + "/" + id, Source: base}
		if q.Question, err = r.need("query"); err != nil {
			return err
		}
		if q.Answer, err = r.need("response"); err != nil {
			return err
		}
		ctxs, err := r.array("retrieved_context")
		if err != nil {
			return err
		}
		for n, raw := range ctxs {
			c, err := r.sub(fmt.Sprintf("retrieved_context[%d]", n), raw)
			if err != nil {
				return err
			}
			doc, err := c.id("doc_id")
			if err != nil {
				return err
			}
			if doc == "" {
				doc = strconv.Itoa(n)
			}
			text, err := c.need("text")
			if err != nil {
				return err
			}
			// doc ids number the chunks retrieved for one query.
			q.Contexts = append(q.Contexts, store.Context{ID: q.ID + "/" + doc, Text: text})
		}
		claims, err := r.array("response_claims")
		if err != nil {
			return err
		}
		keys, extra := r.unknown()
		var odd []string
		for _, k := range keys {
			if !ragcheckerKept[k] {
				odd = append(odd, k)
			}
		}
		f.unknownKeys("", odd)
		q.Extra = extra
		if err := f.addPair(r.at, "query_id", q, false); err != nil {
			return err
		}
		for n, raw := range claims {
			field := fmt.Sprintf("response_claims[%d]", n)
			cl, err := claimValue(r, field, raw)
			if err != nil {
				return err
			}
			cl.ID, cl.QAID, cl.Position = q.ID+"-c"+strconv.Itoa(n+1), q.ID, n+1
			if err := f.addClaim(r.at, field, "", cl); err != nil {
				return err
			}
		}
		return nil
	})
}
