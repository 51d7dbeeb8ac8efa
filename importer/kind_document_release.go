package importer

import (
	"encoding/json"

	"github.com/parquet-go/parquet-go"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// CanLegalRAGBench's documents (release.go): a document of a row of
// documents.parquet (release_parquet.go reads the file), and the document a
// citation names when the release does not hold it.

// releaseDocument makes the document of one row.
func (f *fileData) releaseDocument(at loc, cols []pqColumn, vals [][]parquet.Value, text func(parquet.Value) string) error {
	var d store.Document
	extra := map[string]any{}
	for _, c := range cols {
		if c.nested {
			if !contains(releaseDocColumns, c.name) {
				f.sum.drop("column " + c.name + " (a nested group, not read)")
			}
			continue
		}
		vs := vals[c.leaf]
		var err error
		switch c.name {
		case "citation":
			if d.ID, err = pqString(at, c, vs, true, text); err == nil {
				err = printable(at, c.name, "the citation", d.ID)
			}
			d.Citation = d.ID
		case "text":
			d.Text, err = pqString(at, c, vs, true, text)
		case "name":
			d.Title, err = pqString(at, c, vs, false, text)
		case "original_source":
			d.Court, err = pqString(at, c, vs, false, text)
		case "year":
			d.Year, err = pqYear(at, c, vs)
		case "url":
			d.URL, err = pqString(at, c, vs, false, text)
		case "upstream_license":
			d.License, err = pqString(at, c, vs, false, text)
		case "ground_truth_query_ids":
			extra[c.name], err = pqQueryIDs(at, c, vs)
		default:
			if !contains(releaseDocColumns, c.name) {
				f.sum.countKey(c.name)
			}
			extra[c.name], err = pqAny(at, c, vs)
		}
		if err != nil {
			return err
		}
	}
	b, err := json.Marshal(extra) // keys sorted: canonical
	if err != nil {
		return at.errf("", "%v", err)
	}
	if len(extra) > 0 {
		d.Extra = string(b)
	}
	return f.out.item(f, &itemRec{at: at, idField: "citation", kind: schema.KindDocument, id: d.ID, hash: contentHash(d),
		put: func(tx *store.Tx, hash, file string, update bool) (int64, store.PutResult, error) {
			return tx.PutDocument(d, hash, file, update)
		}})
}

// absentDocument writes the absent document a gold citation names, once
// every file is read and it is in neither the database nor the import, and
// counts it in the file's warnings.
func (w *writer) absentDocument(f *fileData, at loc, citation string) error {
	d := store.Document{ID: citation, Citation: citation}
	id, res, err := w.tx.PutDocument(d, contentHash(d), f.name, false)
	if err != nil {
		return at.wrap(releaseCitations, err)
	}
	f.sum.addItem(string(schema.KindDocument), res)
	f.sum.absent(citation)
	w.wrote(citation, schema.KindDocument, id)
	return nil
}
