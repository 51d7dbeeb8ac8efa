package store

import (
	"fmt"
	"strings"
)

// Import staging. An import appends millions of rows to a few tables (label
// events and current labels, predictions, done items, the ids it met, and
// the kinds' own tables, each staged from its kind's file: registerStage); one INSERT per row spends most of its time in the
// statement's round trip, not in SQLite. So the rows of each of these
// tables are staged: kept in memory and written bulkRows at a time as one
// multi-row INSERT, with the same conflict clause, in the order staged, so
// the table ends up exactly as one INSERT per row would leave it.
//
// Staging is explicit, named by table, never inferred from a statement:
//
//   - t.stage(stageX, row…) stages a row of stage X's table;
//   - t.flush(stageX, …) writes the rows of those stages now: code that
//     reads or writes a staged table by other means calls it first (PutLabel
//     before it looks up a current label, PutPredictions before it deletes
//     predictions, finish before it loads families…);
//   - the transaction writes every stage before it recounts and commits.
//
// A statement run while rows wait must not depend on them. The tests prove
// it (the staging check, import_check.go): every statement of a write
// transaction is also run as if every waiting row had been written first,
// and a different answer or a different database is an error naming the
// statement. Only rows that cannot fail are staged: their parents (items,
// annotators) are written at once, and the statements have no conflict
// left to report (INSERT OR REPLACE, or keys that were checked first).

// bulkRows is how many rows one multi-row INSERT writes (a test makes it tiny
// to write rows at every odd moment).
var bulkRows = 256

// stageID names a staged table.
type stageID int

const (
	stagePredictions stageID = iota
	stageEvents              // label events, and with them the current labels
	stageDone
	stageSeen // the ids an import met (temp.import_seen, SeeFast)
	nGenericStages
)

// kindStages are the stages of the kinds' own tables, numbered from
// nGenericStages in the order they register.
var kindStages []stageDecl

type stageDecl struct {
	table, head string
	cols        int
}

// registerStage declares a staged table of a kind (its rows: one INSERT OR
// REPLACE that cannot fail, head "INSERT … INTO t(a, b) VALUES "), from the
// kind's file, as a package variable; the stage's id is returned.
func registerStage(table, head string, cols int) stageID {
	kindStages = append(kindStages, stageDecl{table, head, cols})
	return nGenericStages + stageID(len(kindStages)-1)
}

// stage holds the rows of one INSERT statement until they are written.
type stage struct {
	table string // the table it writes, for messages
	head  string // "INSERT … INTO t(a, b) VALUES "
	tail  string // after the rows ("" or an ON CONFLICT clause)
	cols  int
	row   string // "(?,?,…)"
	sqls  map[int]string
	args  []any
	rows  int
	// then writes what follows from the rows just written: n rows, with
	// rowids above before (the largest rowid of the table before them,
	// read when then is set).
	then func(t *wtx, n int, before int64) error
}

func newStage(table, head string, cols int, tail string) *stage {
	return &stage{table: table, head: head, tail: tail, cols: cols, row: "(" + placeholders(cols) + ")"}
}

// newStages are the stages of a write transaction, empty.
func newStages() []*stage {
	events := newStage("label_events", `INSERT INTO label_events(annotator_id,item_id,field,value,role,created_at,active_ms,session_id,guidelines_version,suggested_by) VALUES `, 10, "")
	// Every event an import writes is its key's current label (PutLabel):
	// the current labels are the events' own columns, copied by SQLite.
	events.then = writeCurrent
	out := []*stage{
		stagePredictions: newStage("predictions", "INSERT INTO predictions(item_id,system,field,value) VALUES ", 4, ""),
		stageEvents:      events,
		stageDone:        newStage("done_items", "INSERT INTO done_items(item_id, annotator_id, gated) VALUES ", 3, ""),
		stageSeen:        newStage("import_seen", "INSERT INTO temp.import_seen(space,ext_id,kind,hash,file,line,record,secondary) VALUES ", 8, ""),
	}
	for _, d := range kindStages {
		out = append(out, newStage(d.table, d.head, d.cols, ""))
	}
	return out
}

// writeCurrent makes the n events just written (rowids above before) the
// current labels of their keys, in id order, as setCurrent does for each
// (an adjudicated label is kept under annotator 0).
func writeCurrent(t *wtx, n int, before int64) error {
	res, err := t.Tx.Exec(writeCurrentSQL, before)
	if err != nil {
		return err
	}
	// label_events has no AUTOINCREMENT: SQLite gives each row the largest
	// rowid plus one, so the rows above before are the n just written.
	if got, err := res.RowsAffected(); err != nil || got != int64(n) {
		return fmt.Errorf("store: %d label events written, %d current labels from them (%v)", n, got, err)
	}
	return nil
}

const writeCurrentSQL = `INSERT OR REPLACE INTO current_labels(role,annotator_id,item_id,field,value,event_id)
	SELECT role, CASE role WHEN 'adjudicate' THEN 0 ELSE annotator_id END, item_id, field, value, id
	FROM label_events WHERE id > ? ORDER BY id`

// sqlFor is the statement that writes n rows.
func (b *stage) sqlFor(n int) string {
	if q, ok := b.sqls[n]; ok {
		return q
	}
	if b.sqls == nil {
		b.sqls = map[int]string{}
	}
	var s strings.Builder
	s.Grow(len(b.head) + n*(len(b.row)+1) + len(b.tail))
	s.WriteString(b.head)
	for i := range n {
		if i > 0 {
			s.WriteByte(',')
		}
		s.WriteString(b.row)
	}
	s.WriteString(b.tail)
	b.sqls[n] = s.String()
	return b.sqls[n]
}

// stage appends one row to stage i, writing the stage when it is full.
func (t *wtx) stage(i stageID, args ...any) error {
	b := t.stages[i]
	if len(args) != b.cols {
		panic(fmt.Sprintf("store: %d values for a row of %s, want %d", len(args), b.table, b.cols))
	}
	b.args = append(b.args, args...)
	b.rows++
	if b.rows >= bulkRows {
		return t.writeStage(b)
	}
	return nil
}

// flush writes the rows waiting in the stages named.
func (t *wtx) flush(ids ...stageID) error {
	for _, i := range ids {
		if err := t.writeStage(t.stages[i]); err != nil {
			return err
		}
	}
	return nil
}

// flushAll writes every stage's rows. (The staged tables do not point to
// each other: the order does not matter.)
func (t *wtx) flushAll() error {
	for _, b := range t.stages {
		if err := t.writeStage(b); err != nil {
			return err
		}
	}
	return nil
}

// writeStage writes a stage's rows: full batches, then what is left in
// batches of halving sizes, every statement prepared once per transaction.
func (t *wtx) writeStage(b *stage) error {
	if b.rows == 0 {
		return nil
	}
	if err := t.writeRows(b, b.args, b.rows); err != nil {
		return err
	}
	clear(b.args)
	b.args, b.rows = b.args[:0], 0
	return nil
}

// writeRows writes n rows of stage b's table from args (the stage's own
// rows, or a copy of them: import_check.go).
func (t *wtx) writeRows(b *stage, args []any, n int) error {
	var before int64
	if b.then != nil {
		if err := t.Tx.QueryRow("SELECT COALESCE(MAX(rowid), 0) FROM " + b.table).Scan(&before); err != nil {
			return err
		}
	}
	done := 0
	for size := bulkRows; n-done > 0; size /= 2 {
		for n-done >= size {
			st, err := t.prepared(b.sqlFor(size))
			if err != nil {
				return err
			}
			if _, err := t.exec(b.sqlFor(size), st, args[done*b.cols:(done+size)*b.cols]); err != nil {
				return fmt.Errorf("writing %d rows of %s: %w", size, b.table, err)
			}
			done += size
		}
	}
	if b.then != nil {
		return b.then(t, n, before)
	}
	return nil
}

// discard forgets the rows of stage i (their table is about to be dropped).
func (t *wtx) discard(i stageID) {
	b := t.stages[i]
	clear(b.args)
	b.args, b.rows = b.args[:0], 0
}
