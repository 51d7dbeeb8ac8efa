package importer

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/annotate-dev/annotate/schema"
	"github.com/parquet-go/parquet-go"
)

// The configs of an hf export of the kinds read from native lines
// (NativeLine, with an HFConfig). Each row becomes the native line of its
// kind (kinds.go parses it as any native line: ids, dedupe, waiting for
// the query or document it needs) and the labels of its annotator column.
// What a kind's rows hold beyond its native line, the kind says by the
// interfaces below, from its own file: columns that only repeat what
// another config holds (a query's text on an answer row, a generated
// claim's system) are read past (HFColumns); the lead's review columns of
// answers become that lead's adjudicated labels (HFExtra). The runs config
// is read by hf_runs.go.

// HFColumns is a kind whose columns are not all its native line's keys:
// a column mapped to the key of the native line, or to "" (read past).
// Columns not listed keep their name.
type HFColumns interface {
	HFColumns() map[string]string
}

// HFLabelColumns is a kind whose label columns are not its fields (nil:
// the kind's fields are the row's annotator's labels).
type HFLabelColumns interface {
	HFLabels() []string
}

// HFConverter is a kind whose native line needs what its row holds in
// another shape (a document's chunks from chunk_ids and chunk_spans): it
// puts it into out, the native line's values by key.
type HFConverter interface {
	HFConvert(row *Line, out map[string]any) error
}

// HFExtra is a kind whose rows hold more than the native line and its
// annotator's labels (an answer task's review), read after them, for the
// item id.
type HFExtra interface {
	HFExtra(row *Line, id string) error
}

// HFIdentified is a kind whose rows' id is made from the native line
// (a relevance pair's, from its query and document), not read.
type HFIdentified interface {
	HFID(line map[string]json.RawMessage) string
}

// hfKindRow reads one row of a kind's config.
func (f *fileData) hfKindRow(k Kind, n NativeLine, r *rec, seen map[string]bool) error {
	labels := fieldNames(k.Kind())
	if l, ok := k.(HFLabelColumns); ok {
		labels = l.HFLabels()
	}
	var columns map[string]string
	if c, ok := k.(HFColumns); ok {
		columns = c.HFColumns()
	}
	skip := map[string]bool{"annotator": true, "notes": true}
	for _, l := range labels {
		skip[l] = true
	}
	out := map[string]any{"kind": string(k.Kind())}
	var texts map[string]string // the row's texts, under their native keys
	for key, raw := range r.m {
		if skip[key] {
			continue
		}
		name, renamed := columns[key]
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
	if c, ok := k.(HFConverter); ok {
		if err := c.HFConvert(&Line{f: f, r: r}, out); err != nil {
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
	if h, ok := k.(HFIdentified); ok {
		id = h.HFID(m)
	}
	if !seen[id] {
		seen[id] = true
		native := newRec(r.at, "", m)
		native.texts = texts
		if err := f.nativeItem(n, native, nil); err != nil {
			return err
		}
	}
	if err := f.hfLabels(r, id, k.Kind(), labels); err != nil {
		return err
	}
	if a, ok := k.(HFExtra); ok {
		return a.HFExtra(&Line{f: f, r: r}, id)
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
