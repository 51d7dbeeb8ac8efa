package store

import (
	"fmt"
	"strings"
)

// Rows written in bulk. An import appends millions of rows to a few tables
// (label events and current labels, claims, predictions, done items); one
// INSERT per row spends most of its time in the statement's round trip, not
// in SQLite. A bulk keeps the rows of one INSERT statement and writes them
// bulkRows at a time as one multi-row INSERT: same rows, same order, same
// conflict clause, so the table ends up exactly as the row-by-row statements
// would leave it.
//
// A bulk's rows are written before any other statement that names its
// table runs (wtx.flushFor), and before the transaction finishes, so every
// read sees them. Only rows that cannot fail go through a bulk: their
// parents (items, annotators) are written at once, never in bulk, and the
// statements have no conflict left to report (INSERT OR REPLACE, or keys
// that were checked or allocated first).

// bulkRows is how many rows one multi-row INSERT writes (a test makes it tiny
// to write rows at every odd moment).
var bulkRows = 256

type bulk struct {
	table string // the table it writes: a statement naming it flushes the bulk
	also  string // another table it writes (derived rows), or ""
	head  string // "INSERT … INTO t(a, b) VALUES "
	tail  string // after the rows ("" or an ON CONFLICT clause)
	cols  int
	row   string // "(?,?,…)"
	sqls  map[int]string
	args  []any
	rows  int
	// nextID is the next rowid of the table this bulk allocates (label
	// events name their id, which the current labels point to); 0 until
	// read from the table.
	nextID int64
	// then writes what follows from rows just written: their first and
	// last ids (the bulk allocates them, one after another).
	then func(t *wtx, first, last int64) error
}

func newBulk(table, head string, cols int, tail string) *bulk {
	return &bulk{table: table, head: head, tail: tail, cols: cols, row: "(" + placeholders(cols) + ")"}
}

// sqlFor is the statement that writes n rows.
func (b *bulk) sqlFor(n int) string {
	if q, ok := b.sqls[n]; ok {
		return q
	}
	if b.sqls == nil {
		b.sqls = map[int]string{}
	}
	b.sqls[n] = b.build(n)
	return b.sqls[n]
}

func (b *bulk) build(n int) string {
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
	return s.String()
}

// The bulks of a write transaction.
const (
	bulkQAPairs = iota
	bulkClaims
	bulkPredictions
	bulkEvents
	bulkDone
	nBulks
)

func newBulks() [nBulks]*bulk {
	events := newBulk("label_events", `INSERT INTO label_events(id,annotator_id,item_id,field,value,role,created_at,active_ms,session_id,guidelines_version) VALUES `, 10, "")
	// Every event an import writes is its key's current label (PutLabel):
	// the current labels are the events' own columns, copied by SQLite.
	events.also, events.then = "current_labels", writeCurrent
	return [nBulks]*bulk{
		bulkQAPairs:     newBulk("qa_pairs", "INSERT OR REPLACE INTO qa_pairs(item_id,language,hop,question,answer,rationale,category,extra,as_given) VALUES ", 9, ""),
		bulkClaims:      newBulk("claims", "INSERT OR REPLACE INTO claims(item_id,position,subject,predicate,object,text,origin,added_by,extractor) VALUES ", 9, ""),
		bulkPredictions: newBulk("predictions", "INSERT INTO predictions(item_id,system,field,value) VALUES ", 4, ""),
		bulkEvents:      events,
		bulkDone:        newBulk("done_items", "INSERT INTO done_items(item_id, annotator_id, gated) VALUES ", 3, ""),
	}
}

// writeCurrent makes the events first..last the current labels of their
// keys, in id order, as setCurrent does for each (an adjudicated label is
// kept under annotator 0).
func writeCurrent(t *wtx, first, last int64) error {
	_, err := t.Exec(writeCurrentSQL, first, last)
	return err
}

const writeCurrentSQL = `INSERT OR REPLACE INTO current_labels(role,annotator_id,item_id,field,value,event_id)
	SELECT role, CASE role WHEN 'adjudicate' THEN 0 ELSE annotator_id END, item_id, field, value, id
	FROM label_events WHERE id BETWEEN ? AND ? ORDER BY id`

// add appends one row to bulk i, writing a full batch.
func (t *wtx) add(i int, args ...any) error { return t.addTo(t.bulks[i], args...) }

func (t *wtx) addTo(b *bulk, args ...any) error {
	if len(args) != b.cols {
		panic(fmt.Sprintf("store: %d values for a row of %s, want %d", len(args), b.table, b.cols))
	}
	b.args = append(b.args, args...)
	b.rows++
	if b.rows >= bulkRows {
		return t.writeBulk(b)
	}
	return nil
}

// flushBulk writes bulk i's rows.
func (t *wtx) flushBulk(i int) error { return t.writeBulk(t.bulks[i]) }

// writeBulk writes a bulk's rows: full batches, then what is left in
// batches of halving sizes, every statement prepared once per transaction.
// (The bulks' tables do not point to each other: their order does not
// matter.)
func (t *wtx) writeBulk(b *bulk) error {
	if b.rows == 0 {
		return nil
	}
	done := 0
	for n := bulkRows; b.rows-done > 0; n /= 2 {
		for b.rows-done >= n {
			st, err := t.prepared(b.sqlFor(n))
			if err != nil {
				return err
			}
			if _, err := st.Exec(b.args[done*b.cols : (done+n)*b.cols]...); err != nil {
				return fmt.Errorf("writing %d rows of %s: %w", n, b.table, err)
			}
			done += n
		}
	}
	var first, last int64
	if b.then != nil {
		first, last = b.args[0].(int64), b.args[(b.rows-1)*b.cols].(int64)
		if last-first+1 != int64(b.rows) {
			return fmt.Errorf("store: %d rows of %s with ids %d to %d", b.rows, b.table, first, last)
		}
	}
	clear(b.args)
	b.args, b.rows = b.args[:0], 0
	if b.then != nil {
		return b.then(t, first, last)
	}
	return nil
}

// flushAll writes every bulk's rows.
func (t *wtx) flushAll() error {
	for _, b := range t.allBulks() {
		if err := t.writeBulk(b); err != nil {
			return err
		}
	}
	return nil
}

// allBulks are the bulks of the kinds' rows, then those registered by the
// import (SeeFast).
func (t *wtx) allBulks() []*bulk {
	if t.extra == nil {
		return t.bulks[:]
	}
	return t.extra
}

// flushFor writes the rows a statement may read or depend on: every bulk
// whose table the statement names. A statement that writes one of these
// tables by other means also forgets the bulk's next id and, for the
// current labels, what the import knows of them (see Tx.PutLabel).
func (t *wtx) flushFor(q string) error {
	all := t.allBulks()
	mask, ok := t.names[q]
	if !ok {
		for i, b := range all {
			if strings.Contains(q, b.table) || b.also != "" && strings.Contains(q, b.also) {
				mask |= 1 << i
			}
		}
		if strings.Contains(q, "items") && q != insertItem && q != updateItem {
			mask |= namesItems
		}
		if strings.Contains(q, "current_labels") {
			mask |= namesCurrent
		}
		if t.names == nil {
			t.names = map[string]uint32{}
		}
		t.names[q] = mask
	}
	if mask == 0 {
		return nil
	}
	for i, b := range all {
		if mask&(1<<i) != 0 && b.rows > 0 {
			if err := t.writeBulk(b); err != nil {
				return err
			}
		}
	}
	if !isRead(q) && q != writeCurrentSQL {
		if mask&namesItems != 0 {
			t.items.off = true
		}
		for i, b := range all {
			if mask&(1<<i) != 0 {
				b.nextID = 0
			}
		}
		if mask&namesCurrent != 0 {
			t.fresh.off = true
		}
		if mask&(1<<bulkPredictions) != 0 {
			t.added = 0
		}
	}
	return nil
}

// namesItems marks a statement that names items (or a table named like it):
// one that writes it makes the import forget what it knows of its items.
// namesCurrent: the same for the current labels.
const (
	namesItems   = 1 << 31
	namesCurrent = 1 << 30
)

// register adds a bulk of the import's own (flushFor and flushAll write
// it). It forgets which statements name which bulks.
func (t *wtx) register(b *bulk) {
	if t.extra == nil {
		t.extra = append([]*bulk{}, t.bulks[:]...)
	}
	t.extra = append(t.extra, b)
	t.names = nil
}

// isRead reports whether a statement only reads.
func isRead(q string) bool {
	q = strings.TrimLeft(q, " \t\n")
	return len(q) >= 6 && strings.EqualFold(q[:6], "SELECT")
}

// allocID returns the next rowid of bulk i's table, as SQLite would give it
// (the largest rowid plus one).
func (t *wtx) allocID(i int) (int64, error) {
	b := t.bulks[i]
	if b.nextID == 0 {
		if err := t.flushBulk(i); err != nil {
			return 0, err
		}
		var max int64
		if err := t.Tx.QueryRow("SELECT COALESCE(MAX(rowid), 0) FROM " + b.table).Scan(&max); err != nil {
			return 0, err
		}
		b.nextID = max + 1
	}
	id := b.nextID
	b.nextID++
	return id, nil
}
