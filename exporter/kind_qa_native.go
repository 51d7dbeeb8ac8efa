package exporter

import (
	"encoding/json"
	"fmt"
	"iter"
	"sort"

	"github.com/annotate-dev/annotate/store"
)

// The native lines of QA pairs (items.jsonl): one pair a line with its
// contexts and its claims inside; claims carry their predictions, and
// annotator-added claims their "origin":"annotator" and "added_by". Unknown
// keys the pair was imported with are written back at the top level; a
// RAGChecker result (its system and matrices) under "ragchecker".

// writeNativePairs writes every pair's line with its claims (the QA kind's
// nested writer: after every other kind's lines).
func writeNativePairs(e *exporter, f *sink) error {
	nQA, _, err := e.snap.ExportCounts(true)
	if err != nil {
		return err
	}
	opts := store.ExportOptions{AllClaims: true, Systems: e.systems}
	// RAGChecker results go back with their response's pair (few: one per
	// checked response).
	rag, err := e.snap.RAGResultsByPair()
	if err != nil {
		return err
	}
	// Pairs and claims come from two cursors in the same order (pair import
	// order) and are merged here, so neither side is held in memory.
	next, stop := iter.Pull2(e.snap.Claims(opts))
	defer stop()
	claim, cerr, more := next()
	var buf []byte
	nq, nc := 0, 0
	e.prog.begin("items", nQA)
	err = each(e, e.snap.QAs(opts), func(q *store.ExportQA) error {
		buf = appendNativePairHead(buf[:0], q)
		first := true
		for more && cerr == nil && claim.QAID == q.ID {
			if !first {
				buf = append(buf, ',')
			}
			first = false
			buf = appendNativeClaim(buf, claim, e.systems)
			nc++
			claim, cerr, more = next()
		}
		if cerr != nil {
			return cerr
		}
		buf = append(buf, ']')
		var xerr error
		if buf, xerr = appendExtra(buf, q.Extra); xerr != nil {
			return fmt.Errorf("QA pair %s: its extra keys: %w", q.ID, xerr)
		}
		if r, ok := rag[q.ID]; ok {
			buf = appendRAG(buf, r)
		}
		buf = append(buf, '}', '\n')
		nq++
		_, err := f.Write(buf)
		return err
	})
	if err == nil && more {
		err = cerr // a cursor error after the last pair, or a claim no pair took
		if err == nil {
			err = fmt.Errorf("claim %s: its QA pair %s is not in the export", claim.ID, claim.QAID)
		}
	}
	e.res.QA, e.res.Claims = nq, nc
	return err
}

func appendNativePairHead(b []byte, q *store.ExportQA) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, q.ID)
	b = append(b, `,"source":`...)
	b = appendString(b, q.Source)
	// The pair's own language only: one it took from its source is taken
	// again on import, and the content hash stays the same.
	if q.Language != "" {
		b = append(b, `,"language":`...)
		b = appendString(b, q.Language)
	}
	for _, kv := range [][2]string{{"hop", q.Hop}, {"question", q.Question}, {"answer", q.Answer},
		{"rationale", q.Rationale}, {"category", q.Category}} {
		b = append(b, ',')
		b = appendString(b, kv[0])
		b = append(b, ':')
		b = appendString(b, kv[1])
	}
	if q.AsGiven { // its answer is not under review: its claims are asked at once
		b = append(b, `,"as_given":true`...)
	}
	b = append(b, `,"contexts":`...)
	b = append(b, q.ContextsJSON...)
	return append(b, `,"claims":[`...)
}

func appendNativeClaim(b []byte, c *store.ExportClaim, systems []string) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, c.ID)
	if c.IsTriplet() {
		b = append(b, `,"triplet":`...)
		b = appendValue(b, c.Triplet[:])
	} else {
		b = append(b, `,"text":`...)
		b = appendString(b, c.Text)
	}
	if c.Origin != store.OriginExtracted {
		b = append(b, `,"origin":`...)
		b = appendString(b, c.Origin)
	}
	if c.AddedBy != "" {
		b = append(b, `,"added_by":`...)
		b = appendString(b, c.AddedBy)
	}
	if c.Extractor != "" {
		b = append(b, `,"extractor":`...)
		b = appendString(b, c.Extractor)
	}
	n := 0
	for i, v := range c.Preds {
		if !v.Valid {
			continue
		}
		if n == 0 {
			b = append(b, `,"predictions":{`...)
		} else {
			b = append(b, ',')
		}
		n++
		b = appendString(b, systems[i])
		b = append(b, ':')
		b = appendString(b, v.String)
	}
	if n > 0 {
		b = append(b, '}')
	}
	return append(b, '}')
}

// appendRAG writes a RAGChecker result as the pair's "ragchecker" object:
// system, query_id, answer_pair (the ground-truth answer's pair) and the
// four matrices as stored.
func appendRAG(b []byte, r store.RAGResult) []byte {
	b = append(b, `,"ragchecker":{"system":`...)
	b = appendString(b, r.System)
	b = append(b, `,"query_id":`...)
	b = appendString(b, r.QueryID)
	if r.AnswerPair != "" {
		b = append(b, `,"answer_pair":`...)
		b = appendString(b, r.AnswerPair)
	}
	for _, m := range [][2]string{{"answer2response", r.AnswerToResponse}, {"response2answer", r.ResponseToAnswer},
		{"retrieved2response", r.RetrievedToResponse}, {"retrieved2answer", r.RetrievedToAnswer}} {
		if m[1] != "" {
			b = append(b, ',')
			b = appendString(b, m[0])
			b = append(b, ':')
			b = append(b, m[1]...)
		}
	}
	return append(b, '}')
}

// appendExtra writes back the keys the pair was imported with that no
// format field took (kept by the importer as a JSON object), sorted.
func appendExtra(b []byte, extra string) ([]byte, error) {
	if extra == "" || extra == "{}" {
		return b, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(extra), &m); err != nil {
		return b, err
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		b = append(b, ',')
		b = appendString(b, k)
		b = append(b, ':')
		b = append(b, m[k]...)
	}
	return b, nil
}
