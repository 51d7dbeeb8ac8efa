package store

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/annotate-dev/annotate/internal/jsontext"
)

// Retrieval runs: TREC run files and CanLegalRAGBench's query_results.jsonl.
// An import stages its run lines in its transaction (memory does not grow
// with the file), and WriteRuns, once every file is read, resolves each
// line's query and document (a chunk id names its document), orders the
// lines (by score as trec_eval does, or by rank: RunFields.ByScore), keeps
// each document at its best place, renumbers the ranks 1..n, and writes one
// row per (run, query) into run_lists: the document ranking and the
// chunk-level list (every line's document in that order, repeats included).
//
// Staging keeps the lines of one (run, query) in memory while they come one
// after the other (as runs are written: a query's lines together) and writes
// them as one TEMP row when the next query starts; WriteRuns reads those rows
// back a query at a time. Lookups of ids are cached per import (their number
// is bounded by the database's documents, not by the file). The obvious
// path, in the tests (runs_sql_test.go), makes every line a TEMP row of
// its own and has SQL resolve and rank them: the fast path must store
// exactly the rows it stores.

// RunRow is one line of a run: a TREC run line (qid Q0 docid rank score
// tag), or one retrieved chunk of a query_results.jsonl record.
type RunRow struct {
	Run, Query, Doc string // Doc: a document or one of its chunks
	Rank            int
	Score           float64
	NoScore         bool // the line gave no score
	File, Line      int  // where it was read (the importer's file index)
}

// RunRowError is a line of a run the database cannot take: an unknown query
// or document, a run met in two files, a run changed without update.
type RunRowError struct {
	File, Line int
	Field      string // "qid", "docid", "tag", or the format's own names
	Msg        string
	Err        error // ErrNotFound, ErrChanged
}

func (e *RunRowError) Error() string { return e.Field + ": " + e.Msg }
func (e *RunRowError) Unwrap() error { return e.Err }

// RunFields describes the lines of a run's format: the fields its errors
// name, the query's, the document's and the run's (TREC: qid, docid, tag;
// with DocIndexed the document's field is a list, element rank-1 being the
// line's: retrieved_ids[2]), and how its lines are ordered.
type RunFields struct {
	Query, Doc, Run string
	DocIndexed      bool
	// ByScore orders the lines as trec_eval does (form_res_rels.c,
	// comp_sim_docno): by score, highest first, ties by document id in
	// descending byte order, the rank column ignored. Otherwise the rank
	// orders them (a list given in order: query_results.jsonl's
	// retrieved_ids, an hf export's rows), ties by score, then line.
	ByScore bool
}

func (f RunFields) doc(rank int) string {
	if f.DocIndexed {
		return fmt.Sprintf("%s[%d]", f.Doc, rank-1)
	}
	return f.Doc
}

var trecFields = RunFields{Query: "qid", Doc: "docid", Run: "tag", ByScore: true}

// RunWritten says what WriteRuns did with one run.
type RunWritten struct {
	Name    string
	File    int // the file it came from
	Queries int
	Results int // (query, document) rows after chunks were mapped
	Res     PutResult
}

// runStage is the run lines staged so far and the (run, query) being read.
type runStage struct {
	run, qid   []byte
	file, line int // of the group's first line
	seq        int
	buf        []byte // the group's lines (appendRunLine)
	lines      int    // staged so far
	fields     map[string]RunFields
}

// BeginRuns creates the TEMP tables run lines are staged in.
func (t *Tx) BeginRuns() error {
	t.runs = &runStage{fields: map[string]RunFields{}}
	for _, q := range []string{
		`DROP TABLE IF EXISTS temp.import_run_groups`,
		`DROP TABLE IF EXISTS temp.import_run_lists`,
		`CREATE TEMP TABLE import_run_groups (run TEXT NOT NULL, qid TEXT NOT NULL, seq INTEGER NOT NULL,
			file INTEGER NOT NULL, line INTEGER NOT NULL, data BLOB NOT NULL)`,
		`CREATE TEMP TABLE import_run_lists (run TEXT NOT NULL, qid TEXT NOT NULL, q INTEGER NOT NULL, docs TEXT NOT NULL,
			scores TEXT NOT NULL, chunk_docs TEXT NOT NULL, chunk_ids TEXT NOT NULL, PRIMARY KEY (run, qid)) WITHOUT ROWID`,
	} {
		if _, err := t.tx.Tx.Exec(q); err != nil {
			return err
		}
	}
	return nil
}

func (t *Tx) endRuns() {
	for _, q := range []string{`DROP TABLE IF EXISTS temp.import_run_groups`, `DROP TABLE IF EXISTS temp.import_run_lists`} {
		t.tx.Tx.Exec(q)
	}
}

// SetRunFields names the fields of a run's lines in WriteRuns' errors (by
// default TREC's qid, docid and tag).
func (t *Tx) SetRunFields(run string, f RunFields) {
	if t.runs != nil {
		t.runs.fields[run] = f
	}
}

func (t *Tx) runFields(run string) RunFields {
	if f, ok := t.runs.fields[run]; ok {
		return f
	}
	return trecFields
}

// StageRunRow keeps one run line until WriteRuns.
func (t *Tx) StageRunRow(r RunRow) error {
	return t.StageRunLine([]byte(r.Run), []byte(r.Query), []byte(r.Doc), r.Rank, r.Score, !r.NoScore, r.File, r.Line)
}

// StageRunLine is StageRunRow without the strings: the importer's fast
// path hands over the bytes of the line it read (kept only until it
// returns).
func (t *Tx) StageRunLine(run, qid, doc []byte, rank int, score float64, hasScore bool, file, line int) error {
	s := t.runs
	if s == nil {
		return errors.New("store: StageRunLine before BeginRuns")
	}
	if hasScore && (math.IsNaN(score) || math.IsInf(score, 0)) {
		return fmt.Errorf("store: run %q, query %q: score %v is not a finite number", run, qid, score)
	}
	if len(s.buf) > 0 && (string(s.run) != string(run) || string(s.qid) != string(qid) || s.file != file) {
		if err := t.flushRunGroup(); err != nil {
			return err
		}
	}
	if len(s.buf) == 0 {
		s.run, s.qid = append(s.run[:0], run...), append(s.qid[:0], qid...)
		s.file, s.line = file, line
	}
	s.buf = appendRunLine(s.buf, doc, rank, score, hasScore, line)
	s.lines++
	return nil
}

// StageRunQuery stages a query the run retrieved nothing for: it gets an
// empty list (a query_results.jsonl line with empty retrieved_ids).
func (t *Tx) StageRunQuery(run, qid []byte, file, line int) error {
	return t.StageRunLine(run, qid, nil, 0, 0, false, file, line)
}

// flushRunGroup writes the (run, query) being read as one TEMP row.
func (t *Tx) flushRunGroup() error {
	s := t.runs
	if len(s.buf) == 0 {
		return nil
	}
	if err := t.tx.step(); err != nil {
		return err
	}
	s.seq++
	_, err := t.tx.Exec("INSERT INTO temp.import_run_groups(run,qid,seq,file,line,data) VALUES (?,?,?,?,?,?)",
		string(s.run), string(s.qid), s.seq, s.file, s.line, s.buf)
	s.buf = s.buf[:0]
	return err
}

// A staged line: the document id (length, bytes), the rank, whether a score
// follows, the score's bits, the line number.
func appendRunLine(b, doc []byte, rank int, score float64, hasScore bool, line int) []byte {
	b = binary.AppendUvarint(b, uint64(len(doc)))
	b = append(b, doc...)
	b = binary.AppendVarint(b, int64(rank))
	if hasScore {
		b = append(b, 1)
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(score))
	} else {
		b = append(b, 0)
	}
	return binary.AppendUvarint(b, uint64(line))
}

// runLine is one staged line, read back.
type runLine struct {
	doc        []byte // into the staged row it was read from
	rank       int
	score      float64
	hasScore   bool
	file, line int
	d          docRef
}

func decodeRunLines(out []runLine, data []byte, file int) ([]runLine, error) {
	bad := errors.New("store: a staged run row is corrupt")
	for len(data) > 0 {
		var l runLine
		n, k := binary.Uvarint(data)
		if k <= 0 || uint64(len(data)-k) < n {
			return nil, bad
		}
		l.doc, data = data[k:k+int(n):k+int(n)], data[k+int(n):]
		r, k := binary.Varint(data)
		if k <= 0 || len(data) < k+1 {
			return nil, bad
		}
		l.rank, data = int(r), data[k:]
		l.hasScore, data = data[0] == 1, data[1:]
		if l.hasScore {
			if len(data) < 8 {
				return nil, bad
			}
			l.score, data = math.Float64frombits(binary.LittleEndian.Uint64(data)), data[8:]
		}
		ln, k := binary.Uvarint(data)
		if k <= 0 {
			return nil, bad
		}
		l.line, l.file, data = int(ln), file, data[k:]
		out = append(out, l)
	}
	return out, nil
}

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

// rankedDoc is a document of a list: its best rank, best score, first line.
type rankedDoc struct {
	d         docRef
	rank      int
	score     float64
	hasScore  bool
	firstLine int
}

// rankList orders a (run, query)'s lines and documents (it reorders lines
// in place). By score (trec_eval's order): lines by score, highest first,
// then by their document's id and their own id (a chunk's) descending, then
// line; each document at its first line, so that its place is its best
// score's and documents tied on their best score are in descending id
// order, as trec_eval ranks a run naming each document once at its best
// score. By rank: lines by rank, then score (highest first, none last),
// then line; documents by their best rank, best score, first line.
func rankList(lines []runLine, docs []rankedDoc, byScore bool) []rankedDoc {
	slices.SortFunc(lines, func(a, b runLine) int {
		if byScore {
			return cmp.Or(cmpScoreDesc(a.score, a.hasScore, b.score, b.hasScore), strings.Compare(b.d.ext, a.d.ext),
				bytes.Compare(b.doc, a.doc), cmp.Compare(a.line, b.line))
		}
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmpScoreDesc(a.score, a.hasScore, b.score, b.hasScore), cmp.Compare(a.line, b.line))
	})
	at := map[int64]int{}
	for _, l := range lines {
		i, ok := at[l.d.id]
		if !ok {
			at[l.d.id] = len(docs)
			docs = append(docs, rankedDoc{d: docRef{id: l.d.id, ext: l.d.ext}, rank: l.rank, score: l.score, hasScore: l.hasScore, firstLine: l.line})
			continue
		}
		r := &docs[i]
		r.rank, r.firstLine = min(r.rank, l.rank), min(r.firstLine, l.line)
		if l.hasScore && (!r.hasScore || l.score > r.score) {
			r.score, r.hasScore = l.score, true
		}
	}
	if byScore {
		return docs // in the order of their first lines
	}
	slices.SortFunc(docs, func(a, b rankedDoc) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmpScoreDesc(a.score, a.hasScore, b.score, b.hasScore), cmp.Compare(a.firstLine, b.firstLine))
	})
	return docs
}

// cmpScoreDesc orders scores highest first, a missing score last (SQL's
// ORDER BY score DESC).
func cmpScoreDesc(a float64, hasA bool, b float64, hasB bool) int {
	switch {
	case hasA != hasB:
		if hasA {
			return -1
		}
		return 1
	case !hasA:
		return 0
	}
	return cmp.Compare(b, a)
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
func encodeList(l *runList, qext string, lines []runLine, docs []rankedDoc, h hash.Hash) {
	l.docs, l.scores = append(l.docs[:0], '['), append(l.scores[:0], '[')
	l.chunkDocs, l.chunkIDs = append(l.chunkDocs[:0], '['), append(l.chunkIDs[:0], '[')
	hb := l.hashed[:0]
	for i, d := range docs {
		if i > 0 {
			l.docs, l.scores = append(l.docs, ','), append(l.scores, ',')
		}
		l.docs = strconv.AppendInt(l.docs, d.d.id, 10)
		hb = append(hb, qext...)
		hb = append(hb, 0)
		hb = strconv.AppendInt(hb, int64(i+1), 10)
		hb = append(hb, 0)
		hb = append(hb, d.d.ext...)
		hb = append(hb, 0)
		if d.hasScore {
			n := len(hb)
			hb = strconv.AppendFloat(hb, d.score, 'g', -1, 64)
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
		l.chunkDocs = strconv.AppendInt(l.chunkDocs, ln.d.id, 10)
		if ln.d.chunk {
			more = true
			l.chunkIDs = jsontext.AppendString(l.chunkIDs, ln.doc)
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
			hb = append(hb, ln.d.ext...)
			hb = append(hb, 0)
			if ln.d.chunk {
				hb = append(hb, ln.doc...)
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
	var docs []rankedDoc
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
			first := slices.MinFunc(lines, func(a, b runLine) int { return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line)) })
			qErr = earliest(qErr, first.file, first.line, func() *RunRowError { return t.unknownRun(first.file, first.line, f.Query, "query", curQ) })
		}
		// A query staged with nothing retrieved (StageRunQuery) has an
		// empty list.
		lines = slices.DeleteFunc(lines, func(l runLine) bool { return len(l.doc) == 0 })
		for i := range lines {
			l := &lines[i]
			if l.d, err = res.doc(l.doc); err != nil {
				return err
			}
			if l.d.id == 0 {
				dErr = earliest(dErr, l.file, l.line, func() *RunRowError {
					return t.unknownRun(l.file, l.line, f.doc(l.rank), "document or chunk", string(l.doc))
				})
			}
		}
		if qErr != nil || dErr != nil {
			return nil // no use writing: the import fails; the scan goes on for the first error
		}
		docs = rankList(lines, docs[:0], f.ByScore)
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
