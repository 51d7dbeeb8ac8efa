package importer

import (
	"encoding/json"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Native JSONL lines of relevance items (what annotate export --format jsonl
// writes, and what a qrels line waits as when its query or document is not
// in yet): {"kind":"relevance","query":…,"document":…,"labels":{…}}; "id",
// when given, must be "<query>/<document>".

// relevanceKind reads relevance pairs from their native lines and from
// the relevance config of an hf export: a row per judgment (so no
// --all-annotators config), the pair's id made from its query and
// document.
type relevanceKind struct{}

func init() { Register(relevanceKind{}) }

func (relevanceKind) Kind() schema.Kind               { return schema.KindRelevance }
func (relevanceKind) ReadLine(l *Line) (*Item, error) { return parseRelevance(l.f, l.r) }
func (relevanceKind) HFConfig() string                { return "relevance" }
func (relevanceKind) HFRowPerLabelSet()               {}

// HFReadAfter: a pair's query and document are read first, so its rows are
// written as they come rather than held until the end.
func (relevanceKind) HFReadAfter() []schema.Kind {
	return []schema.Kind{schema.KindQuery, schema.KindDocument}
}

func (relevanceKind) HFColumns() map[string]string {
	return map[string]string{"query_id": "query", "document_id": "document"}
}

func (relevanceKind) HFLabels() []string {
	return []string{schema.Relevance, schema.IrrelevanceReason, schema.RelevanceGrade}
}

func (relevanceKind) HFID(line map[string]json.RawMessage) string {
	var q, d string
	json.Unmarshal(line["query"], &q)
	json.Unmarshal(line["document"], &d)
	return store.RelevanceID(q, d)
}

func parseRelevance(f *fileData, r *rec) (*itemRec, error) {
	q, err := r.needID("query")
	if err != nil {
		return nil, err
	}
	d, err := r.needID("document")
	if err != nil {
		return nil, err
	}
	it := relevanceRec(f, q, d)
	if id, err := r.str("id"); err != nil {
		return nil, err
	} else if id != "" && id != it.id {
		return nil, r.errf("id", "a relevance item's id is \"<query>/<document>\": want %q, got %q", it.id, id)
	}
	if _, err := f.itemRest(r, it.id, schema.KindRelevance); err != nil {
		return nil, err
	}
	return it, nil
}

// relevanceRec is the item of a (query, document) pair; the fields its
// errors name are the qrels columns in a qrels file.
func relevanceRec(f *fileData, query, doc string) *itemRec {
	qf, df := "query", "document"
	switch f.format {
	case FormatQrels:
		qf, df = "qid", "docid"
	case FormatReleaseQueries:
		qf, df = "query_id", releaseCitations
	}
	id := store.RelevanceID(query, doc)
	return &itemRec{idField: df, kind: schema.KindRelevance, id: id, hash: store.RelevanceHash(query, doc),
		needs: []need{{qf, query}, {df, doc}},
		put: func(tx *store.Tx, hash, file string, update bool) (int64, store.PutResult, error) {
			return tx.PutRelevance(query, doc, file)
		}}
}

// relevanceLine is the native line of a pair, as a qrels line waits.
func relevanceLine(query, doc string) []byte {
	b, _ := json.Marshal(map[string]string{"kind": string(schema.KindRelevance), "query": query, "document": doc})
	return b
}
