package store

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/annotate-dev/annotate/schema"
)

// Retrieval runs (TREC run files). An import stages every line in a TEMP
// table of its transaction (memory does not grow with the file), then
// WriteRuns resolves the queries and documents in SQL, maps chunks to their
// documents, keeps each document's best rank and renumbers the ranks 1..n.

// RunRow is one line of a TREC run file: qid Q0 docid rank score tag.
type RunRow struct {
	Run, Query, Doc string // Doc: a document or one of its chunks
	Rank            int
	Score           float64
	File, Line      int // where it was read (the importer's file index)
}

// RunRowError is a line of a run the database cannot take: an unknown query
// or document, a run met in two files, a run changed without update.
type RunRowError struct {
	File, Line int
	Field      string // "qid", "docid", "tag"
	Msg        string
	Err        error // ErrNotFound, ErrChanged
}

func (e *RunRowError) Error() string { return e.Field + ": " + e.Msg }
func (e *RunRowError) Unwrap() error { return e.Err }

// RunWritten says what WriteRuns did with one run.
type RunWritten struct {
	Name    string
	File    int // the file it came from
	Queries int
	Results int // (query, document) rows after chunks were mapped
	Res     PutResult
}

// BeginRuns creates the TEMP table run lines are staged in.
func (t *Tx) BeginRuns() error {
	for _, q := range []string{
		`DROP TABLE IF EXISTS temp.import_run_rows`,
		`CREATE TEMP TABLE import_run_rows (run TEXT NOT NULL, qid TEXT NOT NULL, docid TEXT NOT NULL, rank INTEGER NOT NULL,
			score REAL NOT NULL, file INTEGER NOT NULL, line INTEGER NOT NULL, q INTEGER, d INTEGER, chunk TEXT)`,
	} {
		if _, err := t.tx.Tx.Exec(q); err != nil {
			return err
		}
	}
	return nil
}

// StageRunRow keeps one run line until WriteRuns.
func (t *Tx) StageRunRow(r RunRow) error {
	_, err := t.tx.Exec("INSERT INTO temp.import_run_rows(run,qid,docid,rank,score,file,line) VALUES (?,?,?,?,?,?,?)",
		r.Run, r.Query, r.Doc, r.Rank, r.Score, r.File, r.Line)
	return err
}

// WriteRuns writes the staged runs: an identical run already in the
// database is Unchanged, a changed one an error unless update (then its
// results are replaced). The first line naming an unknown query or document
// is a *RunRowError.
func (t *Tx) WriteRuns(update bool, fileName func(int) string) ([]RunWritten, error) {
	defer t.tx.Tx.Exec(`DROP TABLE IF EXISTS temp.import_run_rows`)
	if err := t.resolveRunRows(); err != nil {
		return nil, err
	}
	// Per (run, query, document): the best rank, then the best score and
	// the first line break ties; ranks renumbered 1..n per (run, query).
	if _, err := t.tx.Tx.Exec(`DROP TABLE IF EXISTS temp.import_run_ranked`); err != nil {
		return nil, err
	}
	if _, err := t.tx.Tx.Exec(`CREATE TEMP TABLE import_run_ranked AS
		SELECT run, q, d, best_score, first_line, file,
			ROW_NUMBER() OVER (PARTITION BY run, q ORDER BY best_rank, best_score DESC, first_line) AS rank
		FROM (SELECT run, q, d, MIN(rank) AS best_rank, MAX(score) AS best_score, MIN(line) AS first_line, MIN(file) AS file
			FROM temp.import_run_rows GROUP BY run, q, d)`); err != nil {
		return nil, err
	}
	defer t.tx.Tx.Exec(`DROP TABLE IF EXISTS temp.import_run_ranked`)
	type runOf struct {
		name       string
		file, line int
	}
	var runs []runOf
	err := eachRow(t.tx, `SELECT run, MIN(file), MIN(line) FROM temp.import_run_rows GROUP BY run ORDER BY MIN(file), MIN(line)`, nil,
		func(sc func(...any) error) error {
			var r runOf
			if err := sc(&r.name, &r.file, &r.line); err != nil {
				return err
			}
			runs = append(runs, r)
			return nil
		})
	if err != nil {
		return nil, err
	}
	var out []RunWritten
	for _, r := range runs {
		w := RunWritten{Name: r.name, File: r.file}
		hash, err := t.rankedHash(r.name, &w)
		if err != nil {
			return nil, err
		}
		var id int64
		var old string
		err = t.tx.QueryRow("SELECT id, hash FROM runs WHERE name=?", r.name).Scan(&id, &old)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			res, err := t.tx.Exec("INSERT INTO runs(name, hash, origin_file, imported_at) VALUES (?,?,?,?)", r.name, hash, fileName(r.file), now())
			if err != nil {
				return nil, err
			}
			id, _ = res.LastInsertId()
			w.Res = Added
		case err != nil:
			return nil, err
		case old == hash:
			w.Res = Unchanged
			out = append(out, w)
			continue
		case !update:
			return nil, &RunRowError{File: r.file, Line: r.line, Field: "tag", Err: ErrChanged,
				Msg: fmt.Sprintf("run %q is already in the database with other results (use --update to replace it)", r.name)}
		default:
			for _, q := range []string{"DELETE FROM run_results WHERE run_id=?", "DELETE FROM run_chunks WHERE run_id=?", "UPDATE runs SET hash=?, origin_file=? WHERE id=?"} {
				args := []any{id}
				if q[0] == 'U' {
					args = []any{hash, fileName(r.file), id}
				}
				if _, err := t.tx.Exec(q, args...); err != nil {
					return nil, err
				}
			}
			w.Res = Updated
		}
		if _, err := t.tx.Exec(`INSERT INTO run_results(run_id, rank, query_item_id, doc_item_id, score)
			SELECT ?, rank, q, d, best_score FROM temp.import_run_ranked WHERE run=?`, id, r.name); err != nil {
			return nil, err
		}
		if _, err := t.tx.Exec(`INSERT OR IGNORE INTO run_chunks(query_item_id, doc_item_id, chunk_id, run_id)
			SELECT q, d, chunk, ? FROM temp.import_run_rows WHERE run=? AND chunk IS NOT NULL`, id, r.name); err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, nil
}

// resolveRunRows finds each line's query and document (a chunk id names
// its document); the first line that names neither is the error.
func (t *Tx) resolveRunRows() error {
	steps := []struct {
		set, missing, field, what string
	}{
		{`UPDATE temp.import_run_rows SET q = (SELECT id FROM items WHERE ext_id = qid AND kind = 'query')`, "q IS NULL", "qid", "query"},
		{`UPDATE temp.import_run_rows SET d = (SELECT doc_item_id FROM document_chunks WHERE chunk_id = docid),
			chunk = CASE WHEN EXISTS (SELECT 1 FROM document_chunks WHERE chunk_id = docid) THEN docid END`, "", "", ""},
		{`UPDATE temp.import_run_rows SET d = (SELECT id FROM items WHERE ext_id = docid AND kind = 'document') WHERE d IS NULL`, "d IS NULL", "docid", "document or chunk"},
	}
	for _, s := range steps {
		if _, err := t.tx.Exec(s.set); err != nil {
			return err
		}
		if s.missing == "" {
			continue
		}
		var file, line int
		var id string
		err := t.tx.QueryRow(`SELECT file, line, `+s.field+` FROM temp.import_run_rows WHERE `+s.missing+` ORDER BY file, line LIMIT 1`).Scan(&file, &line, &id)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return err
		}
		msg := fmt.Sprintf("unknown %s %q: it is neither in the database nor in this import", s.what, id)
		var kind string
		if t.tx.QueryRow("SELECT kind FROM items WHERE ext_id=?", id).Scan(&kind) == nil {
			msg = fmt.Sprintf("%q is a %s, not a %s", id, kind, s.what)
		}
		return &RunRowError{File: file, Line: line, Field: s.field, Msg: msg, Err: ErrNotFound}
	}
	return nil
}

// rankedHash hashes a staged run's mapped results (query, rank, document,
// score) in order, and counts its queries and rows.
func (t *Tx) rankedHash(run string, w *RunWritten) (string, error) {
	h := sha256.New()
	lastQ := int64(-1)
	err := eachRow(t.tx, `SELECT r.q, qi.ext_id, r.rank, di.ext_id, r.best_score FROM temp.import_run_ranked r
		JOIN items qi ON qi.id = r.q JOIN items di ON di.id = r.d WHERE r.run = ? ORDER BY qi.ext_id, r.rank`, []any{run},
		func(sc func(...any) error) error {
			var q int64
			var qext, dext string
			var rank int
			var score float64
			if err := sc(&q, &qext, &rank, &dext, &score); err != nil {
				return err
			}
			if q != lastQ {
				w.Queries++
				lastQ = q
			}
			w.Results++
			fmt.Fprintf(h, "%s\x00%d\x00%s\x00%s\n", qext, rank, dext, strconv.FormatFloat(score, 'g', -1, 64))
			return nil
		})
	return hex.EncodeToString(h.Sum(nil)[:16]), err
}

// RunInfo describes a run in the database.
type RunInfo struct {
	Name    string
	Queries int // queries it ranks documents for
}

// Runs lists the runs by name. Every query of a run has a rank 1, so its
// queries are one range of the results' key.
func (rx *ReadTx) Runs() ([]RunInfo, error) {
	var out []RunInfo
	err := eachRow(rx.q, `SELECT r.name, (SELECT COUNT(*) FROM run_results WHERE run_id = r.id AND rank = 1)
		FROM runs r ORDER BY r.name`, nil, func(sc func(...any) error) error {
		var ri RunInfo
		err := sc(&ri.Name, &ri.Queries)
		out = append(out, ri)
		return err
	})
	return out, err
}

// RankedDoc is a document at a rank of a run's ranking for a query.
type RankedDoc struct {
	Query, Doc int64
	Rank       int
}

// RunTops hands over the results of the runs ranked at most depth, run by
// run in rank order (so each query's documents come in rank order): one
// range of the table's key per run, in one statement.
func (rx *ReadTx) RunTops(runs []string, depth int, fn func(run string, r RankedDoc)) error {
	names, err := jsonStrings(runs)
	if err != nil {
		return err
	}
	return eachRow(rx.q, `SELECT r.name, x.query_item_id, x.doc_item_id, x.rank FROM runs r JOIN run_results x ON x.run_id = r.id AND x.rank <= ?
		WHERE r.name IN (SELECT value FROM json_each(?)) ORDER BY r.name, x.rank, x.query_item_id`,
		[]any{depth, names}, func(sc func(...any) error) error {
			var run string
			var d RankedDoc
			if err := sc(&run, &d.Query, &d.Doc, &d.Rank); err != nil {
				return err
			}
			fn(run, d)
			return nil
		})
}

// Judgment is one rater's current relevance judgment of a (query,
// document) pair: its relevance and, when recorded, its grade.
type Judgment struct {
	Query, Doc int64
	Relevance  string // relevant, not_relevant, or a value outside the schema
	Grade      int
	HasGrade   bool
}

// Gain is the judgment's gain for nDCG: its grade when recorded, else 1
// when relevant and 0 when not.
func (j Judgment) Gain() int {
	switch {
	case j.Relevance != schema.Relevant:
		return 0
	case j.HasGrade && j.Grade > 0:
		return j.Grade
	}
	return 1
}

// Judgments reads the relevance judgments of one label set (an annotator's,
// or the adjudicated ones) in one statement: a pair with a relevance label,
// with its grade when there is one. An unknown annotator has none.
func (rx *ReadTx) Judgments(who LabelSet) ([]Judgment, error) {
	role, aid := RoleAdjudicate, int64(0)
	if !who.Adjudicated {
		role = RoleAnnotate
		err := rx.q.QueryRow("SELECT id FROM annotators WHERE name=?", who.Annotator).Scan(&aid)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
	}
	var out []Judgment
	err := eachRow(rx.q, `SELECT p.query_item_id, p.doc_item_id, l.value,
			(SELECT g.value FROM current_labels g WHERE g.item_id = l.item_id AND g.field = ? AND g.role = l.role AND g.annotator_id = l.annotator_id)
		FROM current_labels l JOIN relevance_pairs p ON p.item_id = l.item_id
		WHERE l.field = ? AND l.role = ? AND l.annotator_id = ? ORDER BY p.query_item_id, p.doc_item_id`,
		[]any{schema.RelevanceGrade, schema.Relevance, role, aid}, func(sc func(...any) error) error {
			var j Judgment
			var grade sql.NullString
			if err := sc(&j.Query, &j.Doc, &j.Relevance, &grade); err != nil {
				return err
			}
			if grade.Valid {
				if g, err := strconv.Atoi(grade.String); err == nil {
					j.Grade, j.HasGrade = g, true
				}
			}
			out = append(out, j)
			return nil
		})
	return out, err
}

// QueryAttrs reads the ext id, persona, jurisdiction and issue of queries.
func (rx *ReadTx) QueryAttrs(ids []int64) (map[int64]*Query, error) {
	out := map[int64]*Query{}
	for _, chunk := range chunks(ids, 5000) {
		err := eachRow(rx.q, `SELECT i.id, i.ext_id, x.persona, x.jurisdiction, x.issue FROM items i JOIN queries x ON x.item_id = i.id
			WHERE i.id IN (SELECT value FROM json_each(?))`, []any{jsonInts(chunk)}, func(sc func(...any) error) error {
			q := &Query{}
			if err := sc(&q.ItemID, &q.ID, &q.Persona, &q.Jurisdiction, &q.Issue); err != nil {
				return err
			}
			out[q.ItemID] = q
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// DocIDs reads the ext ids of items (documents), keyed by id.
func (rx *ReadTx) DocIDs(ids []int64) (map[int64]string, error) {
	return extIDsOf(rx.q, ids)
}

// jsonStrings passes a list of names as one JSON parameter.
func jsonStrings(v []string) (string, error) {
	if v == nil {
		v = []string{}
	}
	b, err := json.Marshal(v)
	return string(b), err
}
