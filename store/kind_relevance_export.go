package store

import (
	"database/sql"
	"iter"
)

// Streams for exporting relevance judgments: every judgment with whose it
// is, and the pairs themselves (their native lines). One statement each,
// rows handed over one at a time.

// RelevanceJudgment is one rater's current labels on one relevance item.
type RelevanceJudgment struct {
	Query, Document string // ext ids
	Annotator       string // the annotator, or "adjudicated"
	Relevance       sql.NullString
	Reason          sql.NullString
	Grade           sql.NullString
}

// RelevanceJudgments streams every rater's labels on relevance items, item
// by item in import order, then annotators in id order (the adjudicated
// labels first, as "adjudicated").
func (x *Snapshot) RelevanceJudgments() iter.Seq2[*RelevanceJudgment, error] {
	return func(yield func(*RelevanceJudgment, error) bool) {
		rows, err := x.q.Query(`SELECT q.ext_id, d.ext_id, CASE WHEN l.role = 'adjudicate' THEN 'adjudicated' ELSE COALESCE(a.name, '') END,
				MAX(CASE WHEN l.field = 'relevance' THEN l.value END),
				MAX(CASE WHEN l.field = 'irrelevance_reason' THEN l.value END),
				MAX(CASE WHEN l.field = 'relevance_grade' THEN l.value END)
			FROM relevance_pairs p JOIN current_labels l ON l.item_id = p.item_id
			JOIN items q ON q.id = p.query_item_id JOIN items d ON d.id = p.doc_item_id
			LEFT JOIN annotators a ON a.id = l.annotator_id
			GROUP BY p.item_id, l.role, l.annotator_id ORDER BY p.item_id, l.role DESC, l.annotator_id`)
		if err != nil {
			yield(nil, err)
			return
		}
		defer rows.Close()
		for rows.Next() {
			j := &RelevanceJudgment{}
			if err := rows.Scan(&j.Query, &j.Document, &j.Annotator, &j.Relevance, &j.Reason, &j.Grade); err != nil {
				yield(nil, err)
				return
			}
			if !yield(j, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(nil, err)
		}
	}
}

// CountRelevanceJudgments is the number of rows RelevanceJudgments yields.
func (x *Snapshot) CountRelevanceJudgments() (int, error) {
	var n int
	err := x.q.QueryRow(`SELECT COUNT(*) FROM (SELECT 1 FROM relevance_pairs p JOIN current_labels l ON l.item_id = p.item_id
		GROUP BY p.item_id, l.role, l.annotator_id)`).Scan(&n)
	return n, err
}

// RelevancePairs streams the relevance items' query and document ext ids
// in import order.
func (x *Snapshot) RelevancePairs() iter.Seq2[[2]string, error] {
	return func(yield func([2]string, error) bool) {
		rows, err := x.q.Query(`SELECT q.ext_id, d.ext_id FROM relevance_pairs p
			JOIN items q ON q.id = p.query_item_id JOIN items d ON d.id = p.doc_item_id ORDER BY p.item_id`)
		if err != nil {
			yield([2]string{}, err)
			return
		}
		defer rows.Close()
		for rows.Next() {
			var p [2]string
			if err := rows.Scan(&p[0], &p[1]); err != nil {
				yield(p, err)
				return
			}
			if !yield(p, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield([2]string{}, err)
		}
	}
}

// Read gives the snapshot's reads (runs, judgments, query attributes) to
// code written against ReadTx: a snapshot is a ReadTx.
func (x *Snapshot) Read() *ReadTx { return x }
