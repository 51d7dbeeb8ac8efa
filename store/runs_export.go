package store

import (
	"database/sql"
	"encoding/json"
	"fmt"
)

// RunExport is one (run, query)'s list as an export publishes it, by the
// ids a reader knows: the query's, each ranked document's with its best
// score (nil: none given), and, when the chunk-level list is known, every
// retrieved line's document and chunk id ("" for a line that named its
// document) in rank order.
type RunExport struct {
	Run, Query string
	Docs       []string
	Scores     []*float64
	ChunkLevel bool
	ChunkDocs  []string
	ChunkIDs   []string
}

// EachRunExport streams every run's lists, run by run (by name) and query
// by query (by item id), in one statement: memory holds one list at a time.
// The runs are the outer loop (CROSS JOIN) so that both orders come from
// keys: the runs' names, then each run's key range of run_lists. Left to
// itself, SQLite scanned the lists by query and sorted every row.
func (rx *ReadTx) EachRunExport(fn func(RunExport) error) error {
	return eachRow(rx.q, `SELECT r.name, q.ext_id, x.scores, x.chunk_ids,
			(SELECT json_group_array(i.ext_id) FROM (SELECT i.ext_id FROM json_each(x.docs) j JOIN items i ON i.id = j.value ORDER BY j.key) i),
			CASE WHEN x.chunk_docs IS NULL THEN NULL ELSE
			(SELECT json_group_array(i.ext_id) FROM (SELECT i.ext_id FROM json_each(x.chunk_docs) j JOIN items i ON i.id = j.value ORDER BY j.key) i) END
		FROM runs r CROSS JOIN run_lists x ON x.run_id = r.id JOIN items q ON q.id = x.query_item_id
		ORDER BY r.name, x.query_item_id`, nil, func(sc func(...any) error) error {
		var l RunExport
		var scores, docs string
		var chunkIDs, chunkDocs sql.NullString
		if err := sc(&l.Run, &l.Query, &scores, &chunkIDs, &docs, &chunkDocs); err != nil {
			return err
		}
		bad := func(what string, err error) error {
			return fmt.Errorf("run %q, query %q: %s: %w", l.Run, l.Query, what, err)
		}
		if err := json.Unmarshal([]byte(docs), &l.Docs); err != nil {
			return bad("docs", err)
		}
		if err := json.Unmarshal([]byte(scores), &l.Scores); err != nil {
			return bad("scores", err)
		}
		if len(l.Scores) != len(l.Docs) {
			return bad("scores", fmt.Errorf("%d scores for %d documents", len(l.Scores), len(l.Docs)))
		}
		if l.ChunkLevel = chunkDocs.Valid; l.ChunkLevel {
			if err := json.Unmarshal([]byte(chunkDocs.String), &l.ChunkDocs); err != nil {
				return bad("chunk_docs", err)
			}
			var ids []*string
			if chunkIDs.Valid {
				if err := json.Unmarshal([]byte(chunkIDs.String), &ids); err != nil {
					return bad("chunk_ids", err)
				}
			}
			l.ChunkIDs = make([]string, len(l.ChunkDocs))
			for i, id := range ids {
				if i < len(l.ChunkIDs) && id != nil {
					l.ChunkIDs[i] = *id
				}
			}
		}
		return fn(l)
	})
}

// CountRunExportRows is the number of rows EachRunExport's lists make, one
// per retrieved line (per ranked document when the chunk-level list is not
// known), an empty list one row.
func (rx *ReadTx) CountRunExportRows() (int, error) {
	var n int
	err := rx.q.QueryRow(`SELECT COALESCE(SUM(MAX(1, json_array_length(COALESCE(chunk_docs, docs)))), 0) FROM run_lists`).Scan(&n)
	return n, err
}
