package store

import (
	"database/sql"
	"errors"
	"fmt"

	"github.com/annotate-dev/annotate/schema"
)

// The document kind's rows: documents and their chunks.

// Document is a case or a statute retrieval systems return.
type Document struct {
	ID           string
	Source       string // "" : none
	Title        string
	Citation     string
	Court        string
	Jurisdiction string
	Year         int // 0: unknown
	Text         string
	Chunks       []Chunk // spans of Text that runs may name instead of the document
	Extra        string
	// Where the document was published and under which licence ("": not
	// said). Left out of the content hash when empty, so documents imported
	// before they were recorded keep their hash.
	URL     string `json:",omitempty"`
	License string `json:",omitempty"`
	// Filled on read.
	ItemID int64
}

// Absent reports whether the document is one a gold citation names but the
// collection does not hold (CanLegalRAGBench's queries.json may cite a
// document its documents.parquet lacks): it has no text, it counts as
// relevant where it is judged so, and no run can retrieve its text. Every
// other document has a text (the imports require one).
func (d *Document) Absent() bool { return d.Text == "" }

// Chunk is a span of a document's text, in bytes.
type Chunk struct {
	ID         string
	Start, End int
}

// documentKind is the store's document: its table documents (migration
// 0003, with document_chunks), read by loadDocuments, written by
// PutDocument.
type documentKind struct{}

func init() { Register(documentKind{}) }

func (documentKind) Kind() schema.Kind { return schema.KindDocument }
func (documentKind) Table() string     { return "documents" }

func (documentKind) Payloads(q Querier, ids []int64) (map[int64]any, error) {
	return loadDocuments(q, ids)
}

// PutDocument adds (or, with update, replaces) a document and its chunks.
// A document replaces the absent one of its id without update: it is what
// the citation named.
func (t *Tx) PutDocument(d Document, hash, file string, update bool) (int64, PutResult, error) {
	var src int64
	if d.Source != "" {
		var err error
		if src, err = t.Source(d.Source, "", ""); err != nil {
			return 0, 0, err
		}
	}
	id, res, err := t.PutItem(schema.KindDocument, d.ID, src, 0, hash, file, update)
	if errors.Is(err, ErrChanged) && !d.Absent() {
		var text string
		if t.tx.QueryRow("SELECT text FROM documents WHERE item_id=?", id).Scan(&text) == nil && text == "" {
			id, res, err = t.PutItem(schema.KindDocument, d.ID, src, 0, hash, file, true)
		}
	}
	if err != nil || res == Unchanged {
		return id, res, err
	}
	var year any
	if d.Year != 0 {
		year = d.Year
	}
	if _, err := t.tx.Exec(`INSERT OR REPLACE INTO documents(item_id,title,citation,court,jurisdiction,year,text,extra,url,license) VALUES (?,?,?,?,?,?,?,?,?,?)`,
		id, d.Title, d.Citation, d.Court, d.Jurisdiction, year, d.Text, orEmptyObject(d.Extra), d.URL, d.License); err != nil {
		return 0, 0, err
	}
	if _, err := t.tx.Exec("DELETE FROM document_chunks WHERE doc_item_id=?", id); err != nil {
		return 0, 0, err
	}
	for i, c := range d.Chunks {
		var other int64
		err := t.tx.QueryRow("SELECT doc_item_id FROM document_chunks WHERE chunk_id=?", c.ID).Scan(&other)
		if err == nil {
			return 0, 0, fmt.Errorf("chunks[%d]: chunk id %q is already a chunk of another document", i, c.ID)
		}
		if err != sql.ErrNoRows {
			return 0, 0, err
		}
		if _, err := t.tx.Exec("INSERT INTO document_chunks(chunk_id,doc_item_id,start,end) VALUES (?,?,?,?)", c.ID, id, c.Start, c.End); err != nil {
			return 0, 0, err
		}
	}
	return id, res, nil
}

// DocumentOfChunk resolves a chunk id (or a document id) to its document's
// item id and ext id; ErrNotFound when neither is known.
func (t *Tx) DocumentOfChunk(id string) (int64, string, error) {
	var item int64
	var ext string
	err := t.tx.QueryRow(`SELECT i.id, i.ext_id FROM document_chunks c JOIN items i ON i.id=c.doc_item_id WHERE c.chunk_id=?`, id).Scan(&item, &ext)
	if err == sql.ErrNoRows {
		err = t.tx.QueryRow("SELECT id, ext_id FROM items WHERE ext_id=? AND kind=?", id, schema.KindDocument).Scan(&item, &ext)
	}
	if err == sql.ErrNoRows {
		return 0, "", notFound("document or chunk", id)
	}
	return item, ext, err
}

func loadDocuments(q querier, ids []int64) (map[int64]any, error) {
	out := map[int64]any{}
	js := jsonInts(ids)
	err := eachRow(q, `SELECT i.id, i.ext_id, COALESCE(src.name,''), d.title, d.citation, d.court, d.jurisdiction, COALESCE(d.year,0), d.text, d.extra, d.url, d.license
		FROM items i JOIN documents d ON d.item_id=i.id LEFT JOIN sources src ON src.id=i.source_id
		WHERE i.id IN (SELECT value FROM json_each(?))`, []any{js}, func(sc func(...any) error) error {
		v := &Document{}
		if err := sc(&v.ItemID, &v.ID, &v.Source, &v.Title, &v.Citation, &v.Court, &v.Jurisdiction, &v.Year, &v.Text, &v.Extra, &v.URL, &v.License); err != nil {
			return err
		}
		out[v.ItemID] = v
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = eachRow(q, `SELECT doc_item_id, chunk_id, start, end FROM document_chunks WHERE doc_item_id IN (SELECT value FROM json_each(?))
		ORDER BY doc_item_id, start`, []any{js}, func(sc func(...any) error) error {
		var id int64
		var c Chunk
		if err := sc(&id, &c.ID, &c.Start, &c.End); err != nil {
			return err
		}
		if d, ok := out[id].(*Document); ok {
			d.Chunks = append(d.Chunks, c)
		}
		return nil
	})
	return out, err
}

func (documentKind) SearchSQL() string {
	return `(SELECT title || ' ' || citation || ' ' || text FROM documents WHERE item_id = %[1]s)`
}

// LanguageSQL: a document's language is the "language" key kept with it.
func (documentKind) LanguageSQL() string {
	return `(SELECT CASE WHEN json_valid(extra) THEN json_extract(extra, '$.language') END FROM documents WHERE item_id = %[1]s)`
}

func (documentKind) SampleSQL() string { return `(SELECT text FROM documents WHERE item_id = %[1]s)` }
