package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Native JSONL lines of documents (cases, statutes):
// {"kind":"document","id":…,"title":…,"citation":…,"court":…,"jurisdiction":…,
//  "year":2019,"text":…,"url":…,"license":…,"chunks":[{"id":…,"start":0,"end":512}]}
// A chunk is a span of the text in bytes: retrieval runs may name chunks.
// {"kind":"document","id":…,"citation":…,"absent":true} is a document a gold
// citation names but the collection does not hold (store.Document.Absent):
// no text, no chunks.

// documentKind reads documents from their native lines and from the
// documents config of an hf export (its chunks rebuilt by hfDocument).
type documentKind struct{}

func init() { Register(documentKind{}) }

func (documentKind) Kind() schema.Kind               { return schema.KindDocument }
func (documentKind) ReadLine(l *Line) (*Item, error) { return parseDocument(l.f, l.r) }
func (documentKind) HFConfig() string                { return "documents" }

func (documentKind) HFColumns() map[string]string {
	return map[string]string{"chunk_ids": "", "chunk_spans": ""}
}

func (documentKind) HFConvert(row *Line, out map[string]any) error { return hfDocument(row.r, out) }

func parseDocument(f *fileData, r *rec) (*itemRec, error) {
	var d store.Document
	var err error
	if d.ID, err = r.needID("id"); err != nil {
		return nil, err
	}
	absent, err := r.boolean("absent")
	if err != nil {
		return nil, err
	}
	if absent {
		if text, err := r.str("text"); err != nil || text != "" {
			if err == nil {
				err = r.errf("text", "an absent document has no text (drop \"absent\" or the text)")
			}
			return nil, err
		}
	} else if d.Text, err = r.need("text"); err != nil {
		return nil, err
	}
	for _, p := range []struct {
		key string
		dst *string
	}{{"title", &d.Title}, {"citation", &d.Citation}, {"court", &d.Court}, {"jurisdiction", &d.Jurisdiction}, {"source", &d.Source},
		{"url", &d.URL}, {"license", &d.License}} {
		if *p.dst, err = r.str(p.key); err != nil {
			return nil, err
		}
	}
	if err := printable(r.at, "source", "the source name", d.Source); err != nil {
		return nil, err
	}
	if raw := r.get("year"); raw != nil {
		y, err := strconv.Atoi(string(raw))
		if err != nil || y < 0 || y > 9999 {
			return nil, r.errf("year", "want a year such as 2019, got %s", raw)
		}
		d.Year = y
	}
	chunks, err := r.array("chunks")
	if err != nil {
		return nil, err
	}
	for i, raw := range chunks {
		field := fmt.Sprintf("chunks[%d]", i)
		c, err := r.sub(field, raw)
		if err != nil {
			return nil, err
		}
		var ch store.Chunk
		if ch.ID, err = c.needID("id"); err != nil {
			return nil, err
		}
		for _, p := range []struct {
			key string
			dst *int
		}{{"start", &ch.Start}, {"end", &ch.End}} {
			v := c.get(p.key)
			n, err := strconv.Atoi(string(v))
			if v == nil || err != nil {
				return nil, c.errf(p.key, "want a byte offset into the text, got %s", kind(v))
			}
			*p.dst = n
		}
		if ch.Start < 0 || ch.End <= ch.Start || ch.End > len(d.Text) {
			return nil, c.errf("end", "the span %d–%d is not inside the text (%d bytes)", ch.Start, ch.End, len(d.Text))
		}
		d.Chunks = append(d.Chunks, ch)
	}
	r.get("kind")
	keys, extra := r.unknown()
	f.unknownKeys("", keys)
	d.Extra = extra
	return &itemRec{idField: "id", kind: schema.KindDocument, id: d.ID, hash: contentHash(d),
		put: func(tx *store.Tx, hash, file string, update bool) (int64, store.PutResult, error) {
			return tx.PutDocument(d, hash, file, update)
		}}, nil
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
