package store

import (
	"cmp"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"slices"
	"strconv"

	"github.com/annotate-dev/annotate/internal/jsontext"
	"github.com/annotate-dev/annotate/ranking"
)

// Retrieval runs: TREC run files and CanLegalRAGBench's query_results.jsonl.
// An import stages its run lines in its transaction (memory does not grow
// with the file), and WriteRuns, once every file is read, resolves each
// line's query and document (a chunk id names its document), orders the
// lines, keeps each document at its best place and renumbers the ranks
// 1..n (the rules of package ranking: by score as trec_eval does, or by
// rank, RunFields.ByScore), and writes one row per (run, query) into
// run_lists: the document ranking and the chunk-level list (every line's
// document in that order, repeats included). The lines are staged by
// runs_stage.go, their ids resolved by runs_resolve.go; runs_write_sql_test.go
// is the obvious path the tests hold this one equal to.

// RunWritten says what WriteRuns did with one run.
type RunWritten struct {
	Name    string
	File    int // the file it came from
	Queries int
	Results int // (query, document) rows after chunks were mapped
	Res     PutResult
}

// runList is one (run, query)'s row of run_lists, encoded.
type runList struct {
	docs, scores, chunkDocs, chunkIDs []byte
	hashed                            []byte // what the hash reads
}

// encodeList writes the JSON arrays of a ranked list, and hashes it: the
// documents as the run's hash always did (query, rank, document, score),
// then the chunk-level list when it says more than the ranking (chunks
// named, or a document met twice), so that an identical re-import of a run
// of documents is still unchanged.
func encodeList(l *runList, qext string, lines []runLine, docs []ranking.Doc, h hash.Hash) {
	l.docs, l.scores = append(l.docs[:0], '['), append(l.scores[:0], '[')
	l.chunkDocs, l.chunkIDs = append(l.chunkDocs[:0], '['), append(l.chunkIDs[:0], '[')
	hb := l.hashed[:0]
	for i, d := range docs {
		if i > 0 {
			l.docs, l.scores = append(l.docs, ','), append(l.scores, ',')
		}
		l.docs = strconv.AppendInt(l.docs, d.Doc, 10)
		hb = append(hb, qext...)
		hb = append(hb, 0)
		hb = strconv.AppendInt(hb, int64(i+1), 10)
		hb = append(hb, 0)
		hb = append(hb, d.DocID...)
		hb = append(hb, 0)
		if d.HasScore {
			n := len(hb)
			hb = strconv.AppendFloat(hb, d.Score, 'g', -1, 64)
			l.scores = append(l.scores, hb[n:]...)
		} else {
			l.scores = append(l.scores, "null"...)
		}
		hb = append(hb, '\n')
	}
	more := len(lines) != len(docs)
	for i, ln := range lines {
		if i > 0 {
			l.chunkDocs, l.chunkIDs = append(l.chunkDocs, ','), append(l.chunkIDs, ',')
		}
		l.chunkDocs = strconv.AppendInt(l.chunkDocs, ln.Doc, 10)
		if ln.Chunk {
			more = true
			l.chunkIDs = jsontext.AppendString(l.chunkIDs, ln.Named)
		} else {
			l.chunkIDs = append(l.chunkIDs, "null"...)
		}
	}
	l.docs, l.scores = append(l.docs, ']'), append(l.scores, ']')
	l.chunkDocs, l.chunkIDs = append(l.chunkDocs, ']'), append(l.chunkIDs, ']')
	if more {
		for _, ln := range lines {
			hb = append(hb, qext...)
			hb = append(hb, 0, 'c', 0)
			hb = append(hb, ln.DocID...)
			hb = append(hb, 0)
			if ln.Chunk {
				hb = append(hb, ln.Named...)
			}
			hb = append(hb, '\n')
		}
	}
	if len(lines) == 0 {
		hb = append(hb, qext...)
		hb = append(hb, 0, 'e', '\n')
	}
	h.Write(hb)
	l.hashed = hb
}

// runOf is a staged run: its name and first line.
type runOf struct {
	name       string
	file, line int
	hash       hash.Hash
	w          RunWritten
	// id is the run's row, when WriteRuns added it before writing its
	// lists straight into run_lists (a run not in the database yet).
	id int64
}

// WriteRuns writes the staged runs: an identical run already in the
// database is Unchanged, a changed one an error unless update (then its
// results are replaced). The first line naming an unknown query (then, if
// none, the first naming an unknown document) is a *RunRowError.
func (t *Tx) WriteRuns(update bool, fileName func(int) string) ([]RunWritten, error) {
	if t.runs == nil {
		return nil, nil
	}
	defer t.endRuns()
	if err := t.flushRunGroup(); err != nil {
		return nil, err
	}
	runs, err := t.stagedRuns(`SELECT run, MIN(file), MIN(line) FROM temp.import_run_groups GROUP BY run ORDER BY MIN(file), MIN(line)`)
	if err != nil {
		return nil, err
	}
	// A new run's lists go straight into run_lists; a run already in the
	// database waits in temp.import_run_lists until its hash says whether
	// it changed.
	byName := map[string]*runOf{}
	for _, r := range runs {
		byName[r.name] = r
		var id int64
		err := t.tx.QueryRow("SELECT id FROM runs WHERE name=?", r.name).Scan(&id)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			res, err := t.tx.Exec("INSERT INTO runs(name, hash, origin_file, imported_at) VALUES (?,'',?,?)", r.name, fileName(r.file), now())
			if err != nil {
				return nil, err
			}
			r.id, _ = res.LastInsertId()
		case err != nil:
			return nil, err
		}
	}
	res, err := newRunResolver(t, t.runs.lines >= preloadLines)
	if err != nil {
		return nil, err
	}
	var qErr, dErr *RunRowError
	var lines []runLine
	var docs []ranking.Doc
	var list runList
	curRun, curQ := "", ""
	finish := func() error {
		if len(lines) == 0 {
			return nil
		}
		defer func() { lines = lines[:0] }()
		f := t.runFields(curRun)
		q, err := res.query(curQ)
		if err != nil {
			return err
		}
		if q == 0 {
			first := slices.MinFunc(lines, func(a, b runLine) int { return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.LineNo, b.LineNo)) })
			qErr = earliest(qErr, first.File, first.LineNo, func() *RunRowError { return t.unknownRun(first.File, first.LineNo, f.Query, "query", curQ) })
		}
		// A query staged with nothing retrieved (StageRunQuery) has an
		// empty list.
		lines = slices.DeleteFunc(lines, func(l runLine) bool { return len(l.Named) == 0 })
		for i := range lines {
			l := &lines[i]
			d, err := res.doc(l.Named)
			if err != nil {
				return err
			}
			l.Doc, l.DocID, l.Chunk = d.id, d.ext, d.chunk
			if l.Doc == 0 {
				dErr = earliest(dErr, l.File, l.LineNo, func() *RunRowError {
					return t.unknownRun(l.File, l.LineNo, f.doc(l.Rank), "document or chunk", string(l.Named))
				})
			}
		}
		if qErr != nil || dErr != nil {
			return nil // no use writing: the import fails; the scan goes on for the first error
		}
		docs = ranking.Rank(lines, docs[:0], f.ByScore)
		r := byName[curRun]
		r.w.Queries++
		r.w.Results += len(docs)
		encodeList(&list, curQ, lines, docs, r.hash)
		if r.id != 0 {
			_, err = t.tx.Exec(`INSERT INTO run_lists(run_id, query_item_id, docs, scores, chunk_docs, chunk_ids) VALUES (?,?,?,?,?,?)`,
				r.id, q, string(list.docs), string(list.scores), string(list.chunkDocs), string(list.chunkIDs))
		} else {
			_, err = t.tx.Exec(`INSERT INTO temp.import_run_lists(run, qid, q, docs, scores, chunk_docs, chunk_ids) VALUES (?,?,?,?,?,?,?)`,
				curRun, curQ, q, string(list.docs), string(list.scores), string(list.chunkDocs), string(list.chunkIDs))
		}
		return err
	}
	err = eachRow(t.tx, `SELECT run, qid, file, data FROM temp.import_run_groups ORDER BY run, qid, seq`, nil, func(sc func(...any) error) error {
		var run, qid string
		var file int
		var data []byte
		if err := sc(&run, &qid, &file, &data); err != nil {
			return err
		}
		if run != curRun || qid != curQ {
			if err := finish(); err != nil {
				return err
			}
			curRun, curQ = run, qid
		}
		var err error
		lines, err = decodeRunLines(lines, data, file)
		return err
	})
	if err == nil {
		err = finish()
	}
	switch {
	case err != nil:
		return nil, err
	case qErr != nil:
		return nil, qErr
	case dErr != nil:
		return nil, dErr
	}
	return t.putRuns(runs, update, fileName, `INSERT INTO run_lists(run_id, query_item_id, docs, scores, chunk_docs, chunk_ids)
		SELECT ?, q, docs, scores, chunk_docs, chunk_ids FROM temp.import_run_lists WHERE run=?`)
}

// stagedRuns reads the staged runs (name, first file and line) in the
// order they were met.
func (t *Tx) stagedRuns(q string) ([]*runOf, error) {
	var runs []*runOf
	err := eachRow(t.tx, q, nil, func(sc func(...any) error) error {
		r := &runOf{hash: sha256.New()}
		if err := sc(&r.name, &r.file, &r.line); err != nil {
			return err
		}
		r.w = RunWritten{Name: r.name, File: r.file}
		runs = append(runs, r)
		return nil
	})
	return runs, err
}

// putRuns writes each run whose lists are in temp.import_run_lists: added,
// unchanged (same hash) or, with update, replaced.
func (t *Tx) putRuns(runs []*runOf, update bool, fileName func(int) string, insert string) ([]RunWritten, error) {
	var out []RunWritten
	for _, r := range runs {
		hash := hex.EncodeToString(r.hash.Sum(nil)[:16])
		if r.id != 0 { // added, its lists written
			if _, err := t.tx.Exec("UPDATE runs SET hash=? WHERE id=?", hash, r.id); err != nil {
				return nil, err
			}
			r.w.Res = Added
			out = append(out, r.w)
			continue
		}
		var id int64
		var old string
		err := t.tx.QueryRow("SELECT id, hash FROM runs WHERE name=?", r.name).Scan(&id, &old)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			res, err := t.tx.Exec("INSERT INTO runs(name, hash, origin_file, imported_at) VALUES (?,?,?,?)", r.name, hash, fileName(r.file), now())
			if err != nil {
				return nil, err
			}
			id, _ = res.LastInsertId()
			r.w.Res = Added
		case err != nil:
			return nil, err
		case old == hash:
			r.w.Res = Unchanged
			out = append(out, r.w)
			continue
		case !update:
			return nil, &RunRowError{File: r.file, Line: r.line, Field: t.runFields(r.name).Run, Err: ErrChanged,
				Msg: fmt.Sprintf("run %q is already in the database with other results (use --update to replace it)", r.name)}
		default:
			for _, q := range []string{"DELETE FROM run_lists WHERE run_id=?", "DELETE FROM run_chunks WHERE run_id=?"} {
				if _, err := t.tx.Exec(q, id); err != nil {
					return nil, err
				}
			}
			if _, err := t.tx.Exec("UPDATE runs SET hash=?, origin_file=? WHERE id=?", hash, fileName(r.file), id); err != nil {
				return nil, err
			}
			r.w.Res = Updated
		}
		if _, err := t.tx.Exec(insert, id, r.name); err != nil {
			return nil, err
		}
		out = append(out, r.w)
	}
	return out, nil
}
