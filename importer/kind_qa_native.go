package importer

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// A line of native JSONL without "kind" (docs/formats.md, native): a QA
// pair with its context units, predictions, labels, RAGChecker result and
// its claims inside (kind_claim.go reads each).

// A line without "kind" is a QA pair's (plainLiner).
func (qaKind) readPlain(f *fileData, r *rec) error { return f.nativePair(r) }

func (qaKind) plainKeys() (keys, resembles []string) {
	return []string{"question", "answer", "contexts", "claims"}, []string{"source", "question", "answer", "contexts", "claims"}
}

func (f *fileData) nativePair(r *rec) error {
	var q store.QAPair
	var err error
	if q.ID, err = r.needID("id"); err != nil {
		return err
	}
	for _, p := range []struct {
		key string
		dst *string
	}{{"source", &q.Source}, {"question", &q.Question}, {"answer", &q.Answer}} {
		if *p.dst, err = r.need(p.key); err != nil {
			return err
		}
	}
	if q.Language, err = r.str("language"); err != nil {
		return err
	}
	if q.Rationale, err = r.str("rationale"); err != nil {
		return err
	}
	if q.Category, err = r.str("category"); err != nil {
		return err
	}
	// The generated category is preselected in the TUI, so it must be
	// canonical when it can be; an unknown one stays as written.
	q.Category, _ = normalize(schema.Category, q.Category)
	if q.Hop, err = r.str("hop"); err != nil {
		return err
	}
	if q.Hop != "" && q.Hop != "single" && q.Hop != "multi" {
		return r.errf("hop", "want \"single\" or \"multi\", got %q", q.Hop)
	}
	if q.Contexts, err = nativeContexts(r); err != nil {
		return err
	}
	// A pair imported as given (its answer a system response, not under
	// review): its claims are asked at once.
	if raw := r.get("as_given"); raw != nil {
		if err := json.Unmarshal(raw, &q.AsGiven); err != nil {
			return r.errf("as_given", "want true or false, got %s", raw)
		}
	}
	// A pair's own verdicts (RefChecker's response-level Y), as claims have.
	if q.Predictions, err = f.predictions(r, "predictions"); err != nil {
		return err
	}
	says := saysExtra
	if q.Language != "" {
		says |= saysLanguage
	}
	if r.has("predictions") {
		says |= saysPredictions
	}
	claims, err := r.array("claims")
	if err != nil {
		return err
	}
	labels := r.get("labels") != nil
	rag, err := nativeRAG(r)
	if err != nil {
		return err
	}
	keys, extra := r.unknown()
	f.unknownKeys("", keys)
	q.Extra = extra
	f.pendingRAG = rag
	err = f.addPair(r.at, "id", q, false, says)
	f.pendingRAG = nil
	if err != nil {
		return err
	}
	if labels {
		if err := f.labelsObject(r, "labels", q.ID, "id", schema.KindQA); err != nil {
			return err
		}
	}
	for i, raw := range claims {
		field := fmt.Sprintf("claims[%d]", i)
		c, err := r.sub(field, raw)
		if err != nil {
			return err
		}
		if err := f.nativeClaim(c, q.ID, i+1); err != nil {
			return err
		}
	}
	return nil
}

func nativeContexts(r *rec) ([]store.Context, error) {
	return contextsOf(r, false)
}

// contextsOf reads "contexts"; orNone takes an empty list (a pair checked
// against no passage: RefChecker's human annotations, as an hf row
// publishes it).
func contextsOf(r *rec, orNone bool) ([]store.Context, error) {
	raws, err := r.array("contexts")
	if err != nil {
		return nil, err
	}
	if raws == nil {
		return nil, r.errf("contexts", "missing (required: [{\"id\":…,\"text\":…}])")
	}
	if len(raws) == 0 && !orNone {
		return nil, r.errf("contexts", "empty: a QA pair needs at least one context unit")
	}
	out := make([]store.Context, len(raws))
	for i, raw := range raws {
		c, err := r.sub("contexts["+strconv.Itoa(i)+"]", raw)
		if err != nil {
			return nil, err
		}
		if out[i].ID, err = c.needID("id"); err != nil {
			return nil, err
		}
		if out[i].Text, err = c.need("text"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// nativeRAG reads a pair's "ragchecker" object, a RAGChecker result as the
// native export writes it (system, query_id, answer_pair and the four
// matrices); nil when the pair has none.
func nativeRAG(r *rec) (*store.RAGResult, error) {
	if !r.has("ragchecker") {
		return nil, nil
	}
	raw := r.get("ragchecker")
	c, err := r.sub("ragchecker", raw)
	if err != nil {
		return nil, err
	}
	res := &store.RAGResult{}
	if res.System, err = c.need("system"); err != nil {
		return nil, err
	}
	if res.QueryID, err = c.need("query_id"); err != nil {
		return nil, err
	}
	if res.AnswerPair, err = c.str("answer_pair"); err != nil {
		return nil, err
	}
	for _, m := range []struct {
		key    string
		dst    *string
		matrix bool
	}{{"answer2response", &res.AnswerToResponse, false}, {"response2answer", &res.ResponseToAnswer, false},
		{"retrieved2response", &res.RetrievedToResponse, true}, {"retrieved2answer", &res.RetrievedToAnswer, true}} {
		v := c.get(m.key)
		if v == nil {
			continue
		}
		var val any
		var vec []string
		var mat [][]string
		if m.matrix {
			err, val = json.Unmarshal(v, &mat), mat
		} else {
			err, val = json.Unmarshal(v, &vec), vec
		}
		if err != nil {
			what := "a list of verdict strings"
			if m.matrix {
				what = "a list of lists of verdict strings (one per retrieved chunk)"
			}
			return nil, c.errf(m.key, "want %s, got %s", what, kind(v))
		}
		b, _ := json.Marshal(val)
		*m.dst = string(b)
	}
	keys, _ := c.unknown()
	if len(keys) > 0 {
		return nil, c.errf(keys[0], "unknown key of a RAGChecker result")
	}
	return res, nil
}
