package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/annotate-dev/annotate/ranking"
)

// Staging keeps the lines of one (run, query) in memory while they come one
// after the other (as runs are written: a query's lines together) and writes
// them as one TEMP row when the next query starts; WriteRuns reads those rows
// back a query at a time. Lookups of ids are cached per import (their number
// is bounded by the database's documents, not by the file). The obvious
// path, in the tests (runs_write_sql_test.go), makes every line a TEMP row
// of its own and has SQL resolve and rank them: the fast path must store
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

// runLine is one staged line, read back; runResolver fills its document.
type runLine = ranking.Line

func decodeRunLines(out []runLine, data []byte, file int) ([]runLine, error) {
	bad := errors.New("store: a staged run row is corrupt")
	for len(data) > 0 {
		var l runLine
		n, k := binary.Uvarint(data)
		if k <= 0 || uint64(len(data)-k) < n {
			return nil, bad
		}
		l.Named, data = data[k:k+int(n):k+int(n)], data[k+int(n):]
		r, k := binary.Varint(data)
		if k <= 0 || len(data) < k+1 {
			return nil, bad
		}
		l.Rank, data = int(r), data[k:]
		l.HasScore, data = data[0] == 1, data[1:]
		if l.HasScore {
			if len(data) < 8 {
				return nil, bad
			}
			l.Score, data = math.Float64frombits(binary.LittleEndian.Uint64(data)), data[8:]
		}
		ln, k := binary.Uvarint(data)
		if k <= 0 {
			return nil, bad
		}
		l.LineNo, l.File, data = int(ln), file, data[k:]
		out = append(out, l)
	}
	return out, nil
}
