package store

import (
	"database/sql"
	"errors"

	"github.com/annotate-dev/annotate/internal/jsontext"
	"github.com/annotate-dev/annotate/ranking"
)

// The obvious path of a run's import, in the tests: every line a TEMP row
// of its own, resolved and ranked by SQL. The fast path (runs_stage.go,
// runs_resolve.go, runs_write.go) must store exactly the rows it stores
// (TestRunImportFastPathWritesWhatSQLWrites).

// beginRunsSQL creates, beside BeginRuns' tables, the TEMP table the
// obvious path stages its lines in.
func (t *Tx) beginRunsSQL() error {
	if err := t.BeginRuns(); err != nil {
		return err
	}
	_, err := t.tx.Tx.Exec(`CREATE TEMP TABLE IF NOT EXISTS import_run_rows (run TEXT NOT NULL, qid TEXT NOT NULL, docid TEXT NOT NULL,
		rank INTEGER NOT NULL, score REAL, file INTEGER NOT NULL, line INTEGER NOT NULL, q INTEGER, d INTEGER, chunk TEXT)`)
	if err == nil {
		_, err = t.tx.Tx.Exec(`DELETE FROM temp.import_run_rows`)
	}
	return err
}

// stageRunRowSQL stages one line as a TEMP row.
func (t *Tx) stageRunRowSQL(r RunRow) error {
	var sc any
	if !r.NoScore {
		sc = r.Score
	}
	_, err := t.tx.Exec("INSERT INTO temp.import_run_rows(run,qid,docid,rank,score,file,line) VALUES (?,?,?,?,?,?,?)",
		r.Run, r.Query, r.Doc, r.Rank, sc, r.File, r.Line)
	return err
}

// writeRunsSQL is the obvious path: every line a TEMP row, resolved and
// ranked by SQL; only the JSON arrays and the hash are written in Go, by
// the same functions as the fast path's.
func (t *Tx) writeRunsSQL(update bool, fileName func(int) string) ([]RunWritten, error) {
	if t.runs == nil {
		return nil, nil
	}
	defer t.endRuns()
	if err := t.resolveRunRows(); err != nil {
		return nil, err
	}
	// The runs ordered by rank (the others by score: RunFields.ByScore).
	var byRank []string
	for run, f := range t.runs.fields {
		if !f.ByScore {
			byRank = append(byRank, run)
		}
	}
	names := jsontext.Strings(byRank)
	for _, q := range []string{`DROP TABLE IF EXISTS temp.import_run_ranked`,
		// Per (run, query, document): ranks renumbered 1..n per (run, query)
		// by the best rank, then the best score, then the first line; or
		// by the best score, then the document's id descending.
		`CREATE TEMP TABLE import_run_ranked AS
		SELECT run, qid, q, d, best_score, first_line, file,
			ROW_NUMBER() OVER (PARTITION BY run, q ORDER BY CASE WHEN by_rank THEN best_rank ELSE 0 END, best_score DESC,
				CASE WHEN by_rank THEN '' ELSE ext END DESC, first_line) AS rank
		FROM (SELECT r.run, r.qid, r.q, r.d, MIN(r.rank) AS best_rank, MAX(r.score) AS best_score, MIN(r.line) AS first_line, MIN(r.file) AS file,
				di.ext_id AS ext, r.run IN (SELECT value FROM json_each(?)) AS by_rank
			FROM temp.import_run_rows r JOIN items di ON di.id = r.d WHERE r.docid <> '' GROUP BY r.run, r.q, r.d)`} {
		if _, err := t.tx.Tx.Exec(q, names); err != nil {
			return nil, err
		}
	}
	defer t.tx.Tx.Exec(`DROP TABLE IF EXISTS temp.import_run_ranked`)
	runs, err := t.stagedRuns(`SELECT run, MIN(file), MIN(line) FROM temp.import_run_rows GROUP BY run ORDER BY MIN(file), MIN(line)`)
	if err != nil {
		return nil, err
	}
	for _, r := range runs {
		// The ranking, then the chunk-level list, query by query.
		docsOf := map[string][]ranking.Doc{}
		qOf := map[string]int64{}
		var qids []string
		err := eachRow(t.tx, `SELECT DISTINCT qid, q FROM temp.import_run_rows WHERE run = ? ORDER BY qid`, []any{r.name}, func(sc func(...any) error) error {
			var qid string
			var q int64
			err := sc(&qid, &q)
			qids, qOf[qid] = append(qids, qid), q
			return err
		})
		if err != nil {
			return nil, err
		}
		err = eachRow(t.tx, `SELECT r.qid, r.d, di.ext_id, r.best_score FROM temp.import_run_ranked r JOIN items di ON di.id = r.d
			WHERE r.run = ? ORDER BY r.qid, r.rank`, []any{r.name}, func(sc func(...any) error) error {
			var qid string
			var d ranking.Doc
			var score sql.NullFloat64
			if err := sc(&qid, &d.Doc, &d.DocID, &score); err != nil {
				return err
			}
			d.Score, d.HasScore = score.Float64, score.Valid
			docsOf[qid] = append(docsOf[qid], d)
			return nil
		})
		if err != nil {
			return nil, err
		}
		linesOf := map[string][]runLine{}
		byScore := t.runFields(r.name).ByScore
		err = eachRow(t.tx, `SELECT r.qid, r.docid, r.d, di.ext_id, r.chunk IS NOT NULL FROM temp.import_run_rows r JOIN items di ON di.id = r.d
			WHERE r.run = ?1 AND r.docid <> '' ORDER BY r.qid, CASE WHEN ?2 THEN 0 ELSE r.rank END, r.score DESC,
				CASE WHEN ?2 THEN di.ext_id ELSE '' END DESC, CASE WHEN ?2 THEN r.docid ELSE '' END DESC, r.line`,
			[]any{r.name, byScore}, func(sc func(...any) error) error {
				var qid string
				var l runLine
				if err := sc(&qid, &l.Named, &l.Doc, &l.DocID, &l.Chunk); err != nil {
					return err
				}
				linesOf[qid] = append(linesOf[qid], l)
				return nil
			})
		if err != nil {
			return nil, err
		}
		var list runList
		for _, qid := range qids {
			r.w.Queries++
			r.w.Results += len(docsOf[qid])
			encodeList(&list, qid, linesOf[qid], docsOf[qid], r.hash)
			if _, err := t.tx.Exec(`INSERT INTO temp.import_run_lists(run, qid, q, docs, scores, chunk_docs, chunk_ids) VALUES (?,?,?,?,?,?,?)`,
				r.name, qid, qOf[qid], string(list.docs), string(list.scores), string(list.chunkDocs), string(list.chunkIDs)); err != nil {
				return nil, err
			}
		}
	}
	return t.putRuns(runs, update, fileName, `INSERT INTO run_lists(run_id, query_item_id, docs, scores, chunk_docs, chunk_ids)
		SELECT ?, q, docs, scores, chunk_docs, chunk_ids FROM temp.import_run_lists WHERE run=?`)
}

// resolveRunRows finds each line's query and document (a chunk id names
// its document); the first line that names neither is the error.
func (t *Tx) resolveRunRows() error {
	steps := []struct {
		set, missing, what string
		field              func(RunFields) string
	}{
		{`UPDATE temp.import_run_rows SET q = (SELECT id FROM items WHERE ext_id = qid AND kind = 'query')`, "q IS NULL", "query",
			func(f RunFields) string { return f.Query }},
		{`UPDATE temp.import_run_rows SET d = (SELECT doc_item_id FROM document_chunks WHERE chunk_id = docid),
			chunk = CASE WHEN EXISTS (SELECT 1 FROM document_chunks WHERE chunk_id = docid) THEN docid END`, "", "", nil},
		{`UPDATE temp.import_run_rows SET d = (SELECT id FROM items WHERE ext_id = docid AND kind = 'document') WHERE d IS NULL`, "d IS NULL AND docid <> ''", "document or chunk",
			nil},
	}
	for _, s := range steps {
		if _, err := t.tx.Exec(s.set); err != nil {
			return err
		}
		if s.missing == "" {
			continue
		}
		col := "qid"
		if s.what != "query" {
			col = "docid"
		}
		var file, line, rank int
		var run, id string
		err := t.tx.QueryRow(`SELECT file, line, run, `+col+`, rank FROM temp.import_run_rows WHERE `+s.missing+` ORDER BY file, line, rank LIMIT 1`).Scan(&file, &line, &run, &id, &rank)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return err
		}
		field := t.runFields(run).doc(rank)
		if s.field != nil {
			field = s.field(t.runFields(run))
		}
		return t.unknownRun(file, line, field, s.what, id)
	}
	return nil
}
