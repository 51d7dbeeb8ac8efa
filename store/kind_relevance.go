package store

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// The relevance kind's rows: relevance_pairs, one (query, document) pair per
// item, identified "<query id>/<document id>".

// Relevance is a (query, document) pair to judge, as the relevance screen
// shows it. It carries nothing of the runs that retrieved the document: no
// run name, no rank, no score (the screen is blind to them); only which
// chunks of the document some run retrieved for the query.
type Relevance struct {
	ID       string // "<query id>/<document id>"
	Query    *Query
	Document *Document
	// Retrieved are the document's chunks that any run named for this
	// query, in document order.
	Retrieved []Chunk
	// Graded: the pair is in a pool cut with --graded (the screen takes
	// 0, 1, 2).
	Graded bool
	// Filled on read.
	ItemID int64
}

// RelevanceID is the ext id of a (query, document) pair.
func RelevanceID(query, doc string) string { return query + "/" + doc }

// RelevanceHash is the content hash of a relevance item: the importer, a
// native line and a pool create the same item with the same hash.
func RelevanceHash(query, doc string) string {
	sum := sha256.Sum256([]byte("annotate-relevance-v1\n" + query + "\n" + doc))
	return hex.EncodeToString(sum[:16])
}

// relevanceKind is the store's relevance pair: its table relevance_pairs
// (migration 0004), read by loadRelevance, written by PutRelevance.
type relevanceKind struct{}

func init() { Register(relevanceKind{}) }

func (relevanceKind) Kind() schema.Kind { return schema.KindRelevance }
func (relevanceKind) Table() string     { return "relevance_pairs" }

func (relevanceKind) Payloads(q Querier, ids []int64) (map[int64]any, error) {
	return loadRelevance(q, ids)
}

func (relevanceKind) Attrs() ([]string, string) {
	return []string{tally.AttrGold},
		"SELECT item_id, COALESCE((SELECT id FROM annotators WHERE name = '" + GoldAnnotator + "'), 0) FROM relevance_pairs " +
			"WHERE item_id IN (SELECT value FROM json_each(?))"
}

// QueueCond: a pair is annotated once it is pooled (in a relevance batch):
// the gold set's own pairs (qrels) are judgments, not work to do.
func (relevanceKind) QueueCond() string { return inRelevanceBatch }

func (relevanceKind) QuerySQL() string {
	return `(SELECT query_item_id FROM relevance_pairs WHERE item_id = %[1]s)`
}

const inRelevanceBatch = "EXISTS (SELECT 1 FROM batch_items bi JOIN batches b ON b.id = bi.batch_id WHERE bi.item_id = i.id AND b.kind = 'relevance')"

// PutRelevance adds the relevance item of a query and a document (by ext
// id); identical re-puts are Unchanged. ErrNotFound names what is missing.
func (t *Tx) PutRelevance(query, doc, file string) (int64, PutResult, error) {
	q, err := kindItem(t.tx, schema.KindQuery, query)
	if err != nil {
		return 0, 0, err
	}
	d, err := kindItem(t.tx, schema.KindDocument, doc)
	if err != nil {
		return 0, 0, err
	}
	return putRelevance(t, q, d, query, doc, file)
}

func putRelevance(t *Tx, q, d int64, query, doc, file string) (int64, PutResult, error) {
	id, res, err := t.PutItem(schema.KindRelevance, RelevanceID(query, doc), 0, 0, RelevanceHash(query, doc), file, false)
	if err != nil || res == Unchanged {
		return id, res, err
	}
	_, err = t.tx.Exec("INSERT INTO relevance_pairs(item_id, query_item_id, doc_item_id) VALUES (?,?,?)", id, q, d)
	return id, res, err
}

// kindItem resolves the ext id of an item of a kind; ErrNotFound when there
// is none, an error naming the kind it is when it is another kind's.
func kindItem(q querier, k schema.Kind, ext string) (int64, error) {
	var id int64
	var kind string
	err := q.QueryRow("SELECT id, kind FROM items WHERE ext_id=?", ext).Scan(&id, &kind)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, notFound(string(k), ext)
	}
	if err != nil {
		return 0, err
	}
	if kind != string(k) {
		return 0, fmt.Errorf("%q is a %s, not a %s", ext, kind, k)
	}
	return id, nil
}

// loadRelevance reads pairs with their query and document (text and
// chunks) and the chunks runs retrieved; never a run, a rank or a score.
func loadRelevance(q querier, ids []int64) (map[int64]any, error) {
	out := map[int64]any{}
	var qids, dids []int64
	err := eachRow(q, `SELECT i.id, i.ext_id, r.query_item_id, r.doc_item_id,
			EXISTS (SELECT 1 FROM batch_items bi JOIN relevance_pools p ON p.batch_id = bi.batch_id WHERE bi.item_id = i.id AND p.graded)
		FROM items i JOIN relevance_pairs r ON r.item_id = i.id WHERE i.id IN (SELECT value FROM json_each(?))`,
		[]any{jsonInts(ids)}, func(sc func(...any) error) error {
			v := &Relevance{}
			var qid, did int64
			if err := sc(&v.ItemID, &v.ID, &qid, &did, &v.Graded); err != nil {
				return err
			}
			v.Query, v.Document = &Query{ItemID: qid}, &Document{ItemID: did}
			out[v.ItemID] = v
			qids, dids = append(qids, qid), append(dids, did)
			return nil
		})
	if err != nil || len(out) == 0 {
		return out, err
	}
	slices.Sort(qids)
	slices.Sort(dids)
	queries, err := loadQueries(q, slices.Compact(qids))
	if err != nil {
		return nil, err
	}
	docs, err := loadDocuments(q, slices.Compact(dids))
	if err != nil {
		return nil, err
	}
	for _, p := range out {
		v := p.(*Relevance)
		if x, ok := queries[v.Query.ItemID].(*Query); ok {
			v.Query = x
		}
		if x, ok := docs[v.Document.ItemID].(*Document); ok {
			v.Document = x
		}
	}
	// The chunks of run lists (chunk_ids), and those of runs imported
	// before the lists kept them (run_chunks).
	err = eachRow(q, `SELECT r.item_id, c.chunk_id, c.start, c.end
		FROM relevance_pairs r JOIN run_lists l ON l.query_item_id = r.query_item_id, json_each(l.chunk_ids) j
		JOIN document_chunks c ON c.chunk_id = j.value AND c.doc_item_id = r.doc_item_id
		WHERE r.item_id IN (SELECT value FROM json_each(?1)) AND j.type = 'text'
		UNION
		SELECT r.item_id, c.chunk_id, c.start, c.end
		FROM relevance_pairs r JOIN run_chunks rc ON rc.query_item_id = r.query_item_id AND rc.doc_item_id = r.doc_item_id
		JOIN document_chunks c ON c.chunk_id = rc.chunk_id
		WHERE r.item_id IN (SELECT value FROM json_each(?1)) ORDER BY 1, 3, 2`,
		[]any{jsonInts(ids)}, func(sc func(...any) error) error {
			var id int64
			var c Chunk
			if err := sc(&id, &c.ID, &c.Start, &c.End); err != nil {
				return err
			}
			v := out[id].(*Relevance)
			v.Retrieved = append(v.Retrieved, c)
			return nil
		})
	return out, err
}

// RecordGradedRelevance records a graded judgment in one transaction: the
// grade (relevance_grade) first, then relevance (relevant when grade > 0),
// whose event id it returns; undo takes the relevance back, and the next
// judgment overwrites the grade.
func (s *Store) RecordGradedRelevance(l Label, grade int) (int64, error) {
	var id int64
	err := s.write(func(tx *wtx) error {
		g := l
		g.Field, g.Value, g.ActiveMs = schema.RelevanceGrade, fmt.Sprint(grade), 0
		if _, err := recordLabel(tx, g); err != nil {
			return err
		}
		l.Field, l.Value = schema.Relevance, schema.NotRelevant
		if grade > 0 {
			l.Value = schema.Relevant
		}
		var err error
		id, err = recordLabel(tx, l)
		return err
	})
	return id, err
}

func (relevanceKind) SearchSQL() string {
	return `(SELECT q.text || ' ' || d.title || ' ' || d.citation || ' ' || d.text FROM relevance_pairs r
		JOIN queries q ON q.item_id = r.query_item_id JOIN documents d ON d.item_id = r.doc_item_id WHERE r.item_id = %[1]s)`
}
