package importer

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/parquet-go/parquet-go"
)

// The configs of an hf export beyond qa and claims. Each row becomes the
// native line of its kind (kinds.go parses it as any native line: ids,
// dedupe, waiting for the query or document it needs) and the labels of
// its annotator column. Columns that only repeat what another config holds
// (a query's text on an answer row, a generated claim's system) are read
// past. The lead's review columns of answers (review, review_reason,
// reviewed_by, gold_answer_accepted, gold_citations) become that lead's
// adjudicated labels (hfReview); the runs config is read by hf_runs.go.

// hfKind is how the rows of one config are read.
type hfKind struct {
	kind schema.Kind
	// native maps a column to the key of the native line; "" reads the
	// column past. Columns not listed keep their name.
	native map[string]string
	// labels are the columns read as labels of the row's annotator.
	labels []string
	// convert rewrites what the native line needs in another shape.
	convert func(r *rec, out map[string]any) error
	// also reads what the row holds beyond the native line and its
	// annotator's labels (an answer task's review).
	also func(f *fileData, r *rec, id string) error
}

var hfKinds = map[string]hfKind{
	"queries": {kind: schema.KindQuery, native: map[string]string{"query_persona": "persona"}},
	"documents": {kind: schema.KindDocument, native: map[string]string{"chunk_ids": "", "chunk_spans": ""},
		convert: hfDocument},
	"relevance": {kind: schema.KindRelevance, native: map[string]string{"query_id": "query", "document_id": "document"},
		labels: []string{schema.Relevance, schema.IrrelevanceReason, schema.RelevanceGrade}},
	"answers": {kind: schema.KindAnswerTask, native: map[string]string{"query": "", "query_id": "query", "query_persona": "",
		"jurisdiction": "", "review": "", "review_reason": "", "reviewed_by": "", "gold_answer_accepted": "", "gold_citations": ""},
		also: hfReview},
	"gen_answers": {kind: schema.KindGenAnswer, native: map[string]string{"query_id": "query"}},
	"gen_claims": {kind: schema.KindGenClaim, native: map[string]string{"answer_id": "answer", "query_id": "", "system": "",
		"condition": "", "verdicts": ""}, convert: hfVerdicts},
}

// hfKindRow reads one row of a kind's config.
func (f *fileData) hfKindRow(k hfKind, r *rec, seen map[string]bool) error {
	labels := k.labels
	if labels == nil {
		labels = fieldNames(k.kind)
	}
	skip := map[string]bool{"annotator": true, "notes": true}
	for _, l := range labels {
		skip[l] = true
	}
	out := map[string]any{"kind": string(k.kind)}
	var texts map[string]string // the row's texts, under their native keys
	for key, raw := range r.m {
		if skip[key] {
			continue
		}
		name, renamed := k.native[key]
		if renamed && name == "" {
			r.used[key] = true // read past
			continue
		}
		if !renamed {
			name = key
		}
		if s, ok := r.text(key); ok {
			if texts == nil {
				texts = map[string]string{}
			}
			texts[name], out[name] = s, json.RawMessage(nil)
			continue
		}
		r.get(key)
		// Empty and null mean "not recorded", as a native line leaves
		// the key out.
		if bytes.Equal(raw, []byte("null")) || bytes.Equal(raw, []byte(`""`)) {
			continue
		}
		out[name] = raw
	}
	if k.convert != nil {
		if err := k.convert(r, out); err != nil {
			return err
		}
	}
	// The native line's values are the row's own (a text of 16 MiB is
	// not encoded again, nor read back): its line is made only for an
	// item that may have to wait (nativeItem).
	m := make(map[string]json.RawMessage, len(out))
	for key, v := range out {
		raw, ok := v.(json.RawMessage)
		if !ok {
			var err error
			if raw, err = json.Marshal(v); err != nil {
				return r.errf(key, "cannot rewrite the value: %v", err)
			}
		}
		m[key] = raw
	}
	id, err := r.str("id")
	if err != nil {
		return err
	}
	if k.kind == schema.KindRelevance {
		var q, d string
		json.Unmarshal(m["query"], &q)
		json.Unmarshal(m["document"], &d)
		id = store.RelevanceID(q, d)
	}
	if !seen[id] {
		seen[id] = true
		native := newRec(r.at, "", m)
		native.texts = texts
		if err := f.nativeItem(nativeKinds[string(k.kind)], native, nil); err != nil {
			return err
		}
	}
	if err := f.hfLabels(r, id, k.kind, labels); err != nil {
		return err
	}
	if k.also != nil {
		return k.also(f, r, id)
	}
	return nil
}

// hfReview gives an answer task's review back to the lead who made it
// (reviewed_by), as the review wrote it: adjudicated answer_review, and
// the accepted gold answer and citations, or the reject reason. A row
// without reviewed_by (a folder written before annotate named the
// reviewer) keeps no review.
func hfReview(f *fileData, r *rec, id string) error {
	review, err := r.str("review")
	if err != nil {
		return err
	}
	lead, err := r.str("reviewed_by")
	if err != nil {
		return err
	}
	switch {
	case lead == "":
		return nil
	case review == "":
		return r.errf("reviewed_by", "%q reviewed nothing: review is null", lead)
	}
	reason, err := r.str("review_reason")
	if err != nil {
		return err
	}
	gold, err := r.str("gold_answer_accepted")
	if err != nil {
		return err
	}
	cites, err := r.strings("gold_citations")
	if err != nil {
		return err
	}
	labels := []labelRec{{field: "review", name: schema.AnswerReview, value: review}}
	switch review {
	case "accept":
		if strings.TrimSpace(gold) == "" {
			return r.errf("gold_answer_accepted", "missing: an accepted answer is the gold answer")
		}
		labels = append(labels, labelRec{field: "gold_answer_accepted", name: schema.GoldAnswer, value: gold})
		if cites != nil { // [] too: the acceptance recorded that there are none
			labels = append(labels, labelRec{field: "gold_citations", name: schema.Citations, value: schema.EncodeMulti(cites)})
		}
	case "reject":
		if reason == "" {
			return r.errf("review_reason", "missing: a rejection gives its reason")
		}
		labels = append(labels, labelRec{field: "review_reason", name: schema.RejectReason, value: reason})
	default:
		return r.errf("review", "want accept or reject, got %q", review)
	}
	for _, l := range labels {
		l.at, l.itemField, l.annotator, l.who, l.item, l.adjudicate = r.at, "id", lead, "reviewed_by", id, true
		if err := f.addLabel(l, schema.KindAnswerTask); err != nil {
			return err
		}
	}
	return nil
}

// hfDocument rebuilds a document's chunks from chunk_ids and chunk_spans;
// a null text is an absent document (store.Document.Absent).
func hfDocument(r *rec, out map[string]any) error {
	if raw, ok := r.m["text"]; ok && string(bytes.TrimSpace(raw)) == "null" {
		out["absent"] = true
	}
	var ids, spans []string
	if raw := r.m["chunk_ids"]; raw != nil && json.Unmarshal(raw, &ids) != nil {
		return r.errf("chunk_ids", "want a list of strings, got %s", kind(raw))
	}
	if raw := r.m["chunk_spans"]; raw != nil && json.Unmarshal(raw, &spans) != nil {
		return r.errf("chunk_spans", "want a list of strings, got %s", kind(raw))
	}
	if len(ids) != len(spans) {
		return r.errf("chunk_spans", "%d spans for %d chunk_ids", len(spans), len(ids))
	}
	var chunks []map[string]any
	for i, id := range ids {
		a, b, ok := strings.Cut(spans[i], "-")
		start, err1 := strconv.Atoi(a)
		end, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil {
			return r.errf("chunk_spans["+strconv.Itoa(i)+"]", "want start-end byte offsets, got %q", spans[i])
		}
		chunks = append(chunks, map[string]any{"id": id, "start": start, "end": end})
	}
	if len(chunks) > 0 {
		out["chunks"] = chunks
	}
	return nil
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

// eachParquetRow reads a Parquet data file row by row as JSON values,
// class_label codes turned back into their names (the features of the
// file's "huggingface" metadata, else the label schema's values). A
// string column's value over hugeRecord is one of the record's texts:
// its page's own bytes, not JSON.
func (f *fileData) eachParquetRow(fn func(r *rec) error) error {
	pf, closeFn, err := openParquet(f)
	if err != nil {
		return err
	}
	defer closeFn()
	var classes map[string][]string
	var sch *parquet.Schema
	var groups []parquet.RowGroup
	var top []string // a column's name when it is a column of the row's own, not of a list or a group
	if err := recovered(f.name, func() error {
		classes, sch, groups = parquetClasses(pf), pf.Schema(), pf.RowGroups()
		for _, path := range sch.Columns() {
			name := ""
			if len(path) == 1 {
				name = path[0]
			}
			top = append(top, name)
		}
		return nil
	}); err != nil {
		return err
	}
	var values parquet.Row
	return f.eachRow(groups, func(n int, row parquet.Row, text func(parquet.Value) string) error {
		at := lineLoc(f.name, n)
		var texts map[string]string
		values = append(values[:0], row...)
		for i, v := range values {
			c := v.Column()
			if v.Kind() != parquet.ByteArray || v.IsNull() || len(v.ByteArray()) <= hugeRecord || c < 0 || c >= len(top) || top[c] == "" || classes[top[c]] != nil {
				continue
			}
			s := text(v)
			if len(s) > maxCell {
				return at.errf(top[c], "%v", &tooBigCell{int64(len(s))})
			}
			if !utf8.ValidString(s) {
				continue // JSON's reading of it (U+FFFD) below
			}
			if texts == nil {
				texts = map[string]string{}
			}
			texts[top[c]] = s
			values[i] = parquet.ByteArrayValue(nil).Level(v.RepetitionLevel(), v.DefinitionLevel(), c)
		}
		cells := map[string]any{}
		if err := recovered(f.name, func() error { return sch.Reconstruct(&cells, values) }); err != nil {
			return err
		}
		m := make(map[string]json.RawMessage, len(cells))
		for k, v := range cells {
			if _, ok := texts[k]; ok {
				m[k] = nil
				continue
			}
			if cl := classes[k]; cl != nil {
				if code, ok := asInt(v); ok {
					if code < 0 || code >= int64(len(cl)) {
						return at.errf(k, "class code %d is none of %d classes", code, len(cl))
					}
					v = cl[code]
				}
			}
			b, err := json.Marshal(v)
			if err != nil {
				return at.errf(k, "cannot read the value: %v", err)
			}
			if len(b) > maxCell {
				return at.errf(k, "%v", &tooBigCell{int64(len(b))})
			}
			m[k] = b
		}
		r := newRec(at, "", m)
		r.texts = texts
		return fn(r)
	})
}

func asInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int32:
		return int64(x), true
	case int:
		return int64(x), true
	}
	return 0, false
}

// parquetClasses maps each class_label column to its names.
func parquetClasses(pf *parquet.File) map[string][]string {
	out := map[string][]string{}
	if meta, ok := pf.Lookup("huggingface"); ok {
		var hf struct {
			Info struct {
				Features map[string]json.RawMessage `json:"features"`
			} `json:"info"`
		}
		if json.Unmarshal([]byte(meta), &hf) == nil {
			for k, v := range hf.Info.Features {
				var c struct {
					Names []string `json:"names"`
					Type  string   `json:"_type"`
				}
				if json.Unmarshal(v, &c) == nil && c.Type == "ClassLabel" {
					out[k] = c.Names
				}
			}
			return out
		}
	}
	// Without the metadata: a label column whose field has closed values
	// and integer codes is taken as one.
	for _, c := range pf.Schema().Fields() {
		if fd, ok := schema.Lookup(c.Name()); ok && !fd.Multi && len(fd.Values) > 0 && c.Name() != schema.RelevanceGrade && c.Leaf() && c.Type().Kind() == parquet.Int64 {
			out[c.Name()] = fd.Values
		}
	}
	return out
}
