package store

import (
	"database/sql"
	"errors"
	"fmt"
)

// The ids a run's lines name, resolved once per import: queries, and
// documents or their chunks.

// docRef is what a run line's document id names.
type docRef struct {
	id    int64  // the document's item id; 0: nothing
	ext   string // the document's id
	chunk bool   // the line named one of its chunks
}

// runResolver looks up queries and documents once per import. For a large
// run it reads every query, document and chunk of the database first, in
// three statements, instead of one lookup per id (its maps are as large as
// the database's documents, whatever the file's size).
type runResolver struct {
	t       *Tx
	queries map[string]int64
	docs    map[string]docRef
	loaded  bool // every query and document is in the maps
}

// preloadLines is the number of staged lines from which the resolver reads
// everything first.
const preloadLines = 20000

// newRunResolver is a resolver that looks ids up one by one or, with
// preload, reads them all first; both give the same answers
// (TestRunResolverPreloadAnswersAsLookups).
func newRunResolver(t *Tx, preload bool) (*runResolver, error) {
	r := &runResolver{t: t, queries: map[string]int64{}, docs: map[string]docRef{}}
	if !preload {
		return r, nil
	}
	err := eachRow(t.tx, `SELECT ext_id, id FROM items WHERE kind='query'`, nil, func(sc func(...any) error) error {
		var ext string
		var id int64
		err := sc(&ext, &id)
		r.queries[ext] = id
		return err
	})
	if err != nil {
		return nil, err
	}
	err = eachRow(t.tx, `SELECT ext_id, id FROM items WHERE kind='document'`, nil, func(sc func(...any) error) error {
		var d docRef
		err := sc(&d.ext, &d.id)
		r.docs[d.ext] = d
		return err
	})
	if err != nil {
		return nil, err
	}
	// A chunk id names its document even where it is also a document's id.
	err = eachRow(t.tx, `SELECT c.chunk_id, c.doc_item_id, i.ext_id FROM document_chunks c JOIN items i ON i.id = c.doc_item_id`, nil,
		func(sc func(...any) error) error {
			var chunk string
			d := docRef{chunk: true}
			err := sc(&chunk, &d.id, &d.ext)
			r.docs[chunk] = d
			return err
		})
	r.loaded = true
	return r, err
}

func (r *runResolver) query(qid string) (int64, error) {
	if id, ok := r.queries[qid]; ok || r.loaded {
		return id, nil
	}
	var id int64
	err := r.t.tx.QueryRow("SELECT id FROM items WHERE ext_id=? AND kind='query'", qid).Scan(&id)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	r.queries[qid] = id
	return id, nil
}

func (r *runResolver) doc(id []byte) (docRef, error) {
	if d, ok := r.docs[string(id)]; ok || r.loaded {
		return d, nil
	}
	docid := string(id)
	d := docRef{chunk: true}
	err := r.t.tx.QueryRow("SELECT c.doc_item_id, i.ext_id FROM document_chunks c JOIN items i ON i.id = c.doc_item_id WHERE c.chunk_id=?", docid).Scan(&d.id, &d.ext)
	if errors.Is(err, sql.ErrNoRows) {
		d = docRef{ext: docid}
		err = r.t.tx.QueryRow("SELECT id FROM items WHERE ext_id=? AND kind='document'", docid).Scan(&d.id)
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return docRef{}, err
	}
	r.docs[docid] = d
	return d, nil
}

// unknownRun is the error for a line whose query (document) names nothing.
func (t *Tx) unknownRun(file, line int, field, what, id string) *RunRowError {
	msg := fmt.Sprintf("unknown %s %q: it is neither in the database nor in this import", what, id)
	var kind string
	if t.tx.QueryRow("SELECT kind FROM items WHERE ext_id=?", id).Scan(&kind) == nil {
		msg = fmt.Sprintf("%q is a %s, not a %s", id, kind, what)
	}
	return &RunRowError{File: file, Line: line, Field: field, Msg: msg, Err: ErrNotFound}
}

// earliest keeps the error of the first line, by file then line.
func earliest(cur *RunRowError, file, line int, mk func() *RunRowError) *RunRowError {
	if cur != nil && (cur.File < file || cur.File == file && cur.Line <= line) {
		return cur
	}
	return mk()
}
