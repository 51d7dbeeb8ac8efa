package store

import (
	"database/sql/driver"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"sync"
)

// Reading b-tree pages.
//
// Even one column per row costs more through SQLite's bytecode engine (as Go
// code, in modernc) than a report may spend: on 2.6M labels `SELECT
// sum(item_id)` takes 0.45 s, and mapping field and value to codes with CASE
// another 0.8 s. So the bulk reads ask SQLite for the tables' pages instead
// (the sqlite_dbpage virtual table, a few hundred pages per statement, read
// through the pager and so within the read transaction's snapshot) and
// decode the records here, which costs a few tens of nanoseconds a row. The
// file format is SQLite's documented, stable one (sqlite.org/fileformat.html);
// where a database does not fit what this code expects (another text
// encoding, no sqlite_dbpage, an unexpected table layout) the reads fall back
// to plain SQL.

// errNoPages says that a database cannot be read page by page: use SQL.
var errNoPages = errors.New("store: database cannot be read by pages")

// reportPages is the page reader of a ReportReader.
type reportPages struct {
	r      *ReportReader
	usable int // page size less the reserved bytes at the end of each page
	mu     sync.Mutex
	tables map[string]*reportTable
}

// pages returns the page reader, or nil if the database cannot be read by
// pages (the callers then use SQL).
func (r *ReportReader) pages() (*reportPages, error) {
	r.pgMu.Lock()
	defer r.pgMu.Unlock()
	if r.pg != nil || r.noPages {
		return r.pg, nil
	}
	var enc string
	err := r.each("PRAGMA encoding", nil, func(row []driver.Value) error {
		var err error
		enc, err = reportText(row[0])
		return err
	})
	if err != nil {
		return nil, err
	}
	p := &reportPages{r: r, tables: map[string]*reportTable{}}
	var page1 []byte
	err = p.fetch([]uint32{1}, func(_ uint32, data []byte) error { page1 = data; return nil })
	if enc != "UTF-8" || err != nil || len(page1) < 100 {
		// No sqlite_dbpage (a build without it) or another encoding.
		r.noPages = true
		return nil, nil
	}
	p.usable = len(page1) - int(page1[20])
	if p.usable < 480 {
		r.noPages = true
		return nil, nil
	}
	r.pg = p
	return p, nil
}

// fetch reads the given pages (in one statement) and calls fn with each;
// data is the caller's to keep.
func (p *reportPages) fetch(pgnos []uint32, fn func(pgno uint32, data []byte) error) error {
	b := make([]byte, 0, 8*len(pgnos)+2)
	b = append(b, '[')
	for i, n := range pgnos {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendUint(b, uint64(n), 10)
	}
	b = append(b, ']')
	return p.r.each("SELECT d.pgno, d.data FROM json_each(?) j JOIN sqlite_dbpage d ON d.pgno=j.value", []any{string(b)},
		func(row []driver.Value) error {
			n, err := reportInt(row[0])
			if err != nil {
				return err
			}
			data, ok := row[1].([]byte)
			if !ok || len(data) < p.usable {
				return errCorruptPage
			}
			return fn(uint32(n), data)
		})
}

var errCorruptPage = errors.New("store: report read: unexpected page content (database corrupt?)")

// reportTable is where a table's rows are: its b-tree and which record
// column holds which table column.
type reportTable struct {
	root  uint32
	rowid bool           // a rowid table; false: WITHOUT ROWID
	col   map[string]int // column -> position in the record
	alias string         // a rowid table's INTEGER PRIMARY KEY column: NULL in the record, it is the rowid
}

// table looks up a table's layout in the schema.
func (p *reportPages) table(name string) (*reportTable, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t, ok := p.tables[name]; ok {
		return t, nil
	}
	t := &reportTable{col: map[string]int{}}
	var root, wr int64 = 0, -1
	err := p.r.each("SELECT rootpage, (SELECT wr FROM pragma_table_list WHERE schema='main' AND name=?1) FROM sqlite_schema WHERE type='table' AND name=?1",
		[]any{name}, func(row []driver.Value) error { return reportInts(row, &root, &wr) })
	if err != nil {
		return nil, err
	}
	if root <= 0 || wr < 0 {
		return nil, errNoPages
	}
	t.root, t.rowid = uint32(root), wr == 0
	if t.rowid {
		// Record columns in declaration order, virtual generated columns
		// (hidden 2) are not stored.
		var pks []string
		pos := 0
		err = p.r.each("SELECT name, upper(type), pk, hidden FROM pragma_table_xinfo(?) ORDER BY cid", []any{name}, func(row []driver.Value) error {
			col, err1 := reportText(row[0])
			typ, err2 := reportText(row[1])
			var pk, hidden int64
			err3 := reportInts(row[2:], &pk, &hidden)
			if hidden == 2 {
				return errors.Join(err1, err2, err3)
			}
			if pk > 0 {
				pks = append(pks, col)
				if typ == "INTEGER" {
					t.alias = col
				}
			}
			t.col[col] = pos
			pos++
			return errors.Join(err1, err2, err3)
		})
		if len(pks) != 1 {
			t.alias = ""
		}
	} else {
		// The primary key's columns, then the others: the primary key index
		// lists them all in record order.
		err = p.r.each(`SELECT x.seqno, x.name FROM pragma_index_list(?1) l, pragma_index_xinfo(l.name) x
			WHERE l.origin='pk' ORDER BY x.seqno`, []any{name}, func(row []driver.Value) error {
			var seq int64
			err1 := reportInts(row, &seq)
			col, err2 := reportText(row[1])
			t.col[col] = int(seq)
			return errors.Join(err1, err2)
		})
	}
	if err != nil {
		return nil, err
	}
	p.tables[name] = t
	return t, nil
}

// positions returns the record positions of the given columns; errNoPages if
// one is not stored in the record.
func (t *reportTable) positions(cols ...string) ([]int, error) {
	out := make([]int, len(cols))
	for i, c := range cols {
		pos, ok := t.col[c]
		if !ok || c == t.alias && t.alias != "" {
			return nil, errNoPages
		}
		out[i] = pos
	}
	return out, nil
}

// Page types.
const (
	pageIndexInterior = 2
	pageTableInterior = 5
	pageIndexLeaf     = 10
	pageTableLeaf     = 13
)

// reportVarint decodes a SQLite varint; n is 0 if b is too short.
func reportVarint(b []byte) (v uint64, n int) {
	for i := 0; i < 8; i++ {
		if i >= len(b) {
			return 0, 0
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	if len(b) < 9 {
		return 0, 0
	}
	return v<<8 | uint64(b[8]), 9
}

// pageHeader returns the offset of a page's b-tree header (page 1 starts
// with the file header), its type and its number of cells.
func pageHeader(pgno uint32, data []byte) (hdr int, typ byte, cells int, err error) {
	if pgno == 1 {
		hdr = 100
	}
	if len(data) < hdr+12 {
		return 0, 0, 0, errCorruptPage
	}
	typ = data[hdr]
	switch typ {
	case pageIndexInterior, pageTableInterior, pageIndexLeaf, pageTableLeaf:
	default:
		return 0, 0, 0, errCorruptPage
	}
	return hdr, typ, int(binary.BigEndian.Uint16(data[hdr+3:])), nil
}

func interiorPage(typ byte) bool { return typ == pageIndexInterior || typ == pageTableInterior }

// reportCell is one cell of a b-tree page.
type reportCell struct {
	child    uint32 // interior pages: the page left of the cell
	rowid    int64  // table pages
	local    []byte // the payload on this page (index and leaf cells)
	size     int    // the whole payload's size
	overflow uint32 // first overflow page, if size > len(local)
}

// cell parses cell i of a page.
func (p *reportPages) cell(data []byte, hdr int, typ byte, i int) (c reportCell, err error) {
	ptrs := hdr + 8
	if interiorPage(typ) {
		ptrs += 4
	}
	if ptrs+2*i+2 > len(data) {
		return c, errCorruptPage
	}
	off := int(binary.BigEndian.Uint16(data[ptrs+2*i:]))
	if off >= p.usable {
		return c, errCorruptPage
	}
	b := data[off:p.usable]
	if interiorPage(typ) {
		if len(b) < 4 {
			return c, errCorruptPage
		}
		c.child = binary.BigEndian.Uint32(b)
		b = b[4:]
		if typ == pageTableInterior {
			v, n := reportVarint(b)
			if n == 0 {
				return c, errCorruptPage
			}
			c.rowid = int64(v)
			return c, nil
		}
	}
	size, n := reportVarint(b)
	if n == 0 || size > 1<<31 {
		return c, errCorruptPage
	}
	b = b[n:]
	c.size = int(size)
	if typ == pageTableLeaf {
		v, n := reportVarint(b)
		if n == 0 {
			return c, errCorruptPage
		}
		c.rowid = int64(v)
		b = b[n:]
	}
	// How much of the payload is on the page (fileformat.html, "Cell
	// Payload Overflow Pages").
	u := p.usable
	x := (u-12)*64/255 - 23
	if typ == pageTableLeaf {
		x = u - 35
	}
	local := c.size
	if c.size > x {
		m := (u-12)*32/255 - 23
		local = m + (c.size-m)%(u-4)
		if local > x {
			local = m
		}
	}
	if local > len(b) || local < c.size && local+4 > len(b) {
		return c, errCorruptPage
	}
	c.local = b[:local]
	if local < c.size {
		c.overflow = binary.BigEndian.Uint32(b[local:])
	}
	return c, nil
}

// reportEntry is an entry of a b-tree handed to a scan's callback.
type reportEntry struct {
	rowid int64
	rec   reportRecord
}

// scan calls fn with every entry of the b-tree at root whose first `need`
// record columns it can read: all of them, in key order, except that
// entries whose first `need` columns run over onto overflow pages (rare:
// long text) come last. fn must not keep rec's bytes.
func (p *reportPages) scan(root uint32, need int, fn func(e *reportEntry) error) error {
	return p.scanRange(root, need, nil, fn)
}

// scanRange is scan that leaves out the subtrees of an index b-tree that
// keep rejects: keep gets the keys (records, maybe cut short by overflow)
// that bound a subtree's entries from below and above, nil for no bound.
func (p *reportPages) scanRange(root uint32, need int, keep func(lo, hi []byte) bool, fn func(e *reportEntry) error) error {
	// The interior pages, level by level (a few hundred pages for millions
	// of rows), keeping the order of their children.
	interior := map[uint32][]byte{}
	type bounds struct{ lo, hi []byte }
	bound := map[uint32]bounds{} // of each page kept, if keep
	skipped := map[uint32]bool{}
	level := []uint32{root}
	for len(level) > 0 {
		// The first page of a level tells whether the level is interior: a
		// b-tree's leaves are all at the same depth.
		var first []byte
		if err := p.fetch(level[:1], func(_ uint32, d []byte) error { first = d; return nil }); err != nil {
			return err
		}
		if first == nil {
			return errCorruptPage
		}
		_, typ, _, err := pageHeader(level[0], first)
		if err != nil {
			return err
		}
		if !interiorPage(typ) {
			break
		}
		if len(interior) > 1<<20 {
			return errCorruptPage // a loop
		}
		got := map[uint32][]byte{}
		if err := p.fetch(level, func(n uint32, d []byte) error { got[n] = d; return nil }); err != nil {
			return err
		}
		var next []uint32
		for _, pgno := range level {
			d := got[pgno]
			if d == nil {
				return errCorruptPage
			}
			hdr, typ, cells, err := pageHeader(pgno, d)
			if err != nil || !interiorPage(typ) {
				return errCorruptPage
			}
			interior[pgno] = d
			b := bound[pgno]
			lo := b.lo
			for i := range cells + 1 {
				var child uint32
				hi := b.hi
				if i < cells {
					c, err := p.cell(d, hdr, typ, i)
					if err != nil {
						return err
					}
					child = c.child
					if typ == pageIndexInterior {
						hi = c.local
					}
				} else {
					child = binary.BigEndian.Uint32(d[hdr+8:])
				}
				if keep != nil && typ == pageIndexInterior {
					if !keep(lo, hi) {
						skipped[child] = true
						lo = hi
						continue
					}
					bound[child] = bounds{lo, hi}
				}
				next = append(next, child)
				lo = hi
			}
		}
		level = next
	}
	// The walk in key order: each leaf, and between the children of an
	// interior index page, its own entries (index b-trees keep entries in
	// interior pages too).
	type step struct {
		pgno uint32
		cell int // -1: every cell of the leaf pgno
	}
	var steps []step
	var walk func(pgno uint32, depth int) error
	walk = func(pgno uint32, depth int) error {
		d, ok := interior[pgno]
		if !ok {
			steps = append(steps, step{pgno, -1})
			return nil
		}
		if depth > 64 {
			return errCorruptPage
		}
		hdr, typ, cells, _ := pageHeader(pgno, d)
		for i := range cells {
			c, err := p.cell(d, hdr, typ, i)
			if err != nil {
				return err
			}
			if skipped[c.child] {
				// Left out, but not the entry of this cell: keep's bounds
				// are exclusive.
			} else if err := walk(c.child, depth+1); err != nil {
				return err
			}
			if typ == pageIndexInterior {
				steps = append(steps, step{pgno, i})
			}
		}
		if right := binary.BigEndian.Uint32(d[hdr+8:]); !skipped[right] {
			return walk(right, depth+1)
		}
		return nil
	}
	if err := walk(root, 0); err != nil {
		return err
	}

	var spilled []reportCell // entries to complete from overflow pages
	var e reportEntry
	visit := func(c reportCell) error {
		e.rowid = c.rowid
		if err := e.rec.parse(c.local, need); err != nil {
			if err == errRecordShort && c.overflow != 0 {
				spilled = append(spilled, c)
				return nil
			}
			return err
		}
		return fn(&e)
	}
	// Leaves in batches: one statement per batch, a bounded amount of
	// memory. A goroutine reads the next batches while this one decodes.
	const batch = 256
	type pageBatch struct {
		steps  []step
		leaves map[uint32][]byte
		err    error
	}
	batches := make(chan pageBatch, 2)
	done := make(chan struct{})
	var reading sync.WaitGroup
	defer reading.Wait() // no statement outlives the scan
	defer close(done)
	reading.Go(func() {
		defer close(batches)
		for len(steps) > 0 {
			var want []uint32
			j := 0
			for ; j < len(steps) && len(want) < batch; j++ {
				if steps[j].cell < 0 {
					want = append(want, steps[j].pgno)
				}
			}
			b := pageBatch{steps: steps[:j], leaves: make(map[uint32][]byte, len(want))}
			b.err = p.fetch(want, func(n uint32, d []byte) error { b.leaves[n] = d; return nil })
			select {
			case batches <- b:
			case <-done:
				return
			}
			if b.err != nil {
				return
			}
			steps = steps[j:]
		}
	})
	for b := range batches {
		if b.err != nil {
			return b.err
		}
		for _, s := range b.steps {
			if s.cell >= 0 {
				d := interior[s.pgno]
				hdr, typ, _, _ := pageHeader(s.pgno, d)
				c, err := p.cell(d, hdr, typ, s.cell)
				if err != nil {
					return err
				}
				if err := visit(c); err != nil {
					return err
				}
				continue
			}
			d := b.leaves[s.pgno]
			if d == nil {
				return errCorruptPage
			}
			hdr, typ, cells, err := pageHeader(s.pgno, d)
			if err != nil || interiorPage(typ) {
				return errCorruptPage
			}
			for i := range cells {
				c, err := p.cell(d, hdr, typ, i)
				if err != nil {
					return err
				}
				if err := visit(c); err != nil {
					return err
				}
			}
		}
	}
	return p.overflow(spilled, need, fn)
}

// overflow completes the payloads of cells from their overflow pages, one
// statement per round for the next page of every chain, and hands them on.
func (p *reportPages) overflow(cells []reportCell, need int, fn func(e *reportEntry) error) error {
	type chain struct {
		rowid   int64
		payload []byte
		size    int
		next    uint32
	}
	var pending []*chain
	for _, c := range cells {
		pending = append(pending, &chain{c.rowid, append(make([]byte, 0, c.size), c.local...), c.size, c.overflow})
	}
	var e reportEntry
	for rounds := 0; len(pending) > 0; rounds++ {
		if rounds > 1<<20 {
			return errCorruptPage
		}
		want := make([]uint32, len(pending))
		for i, c := range pending {
			want[i] = c.next
		}
		got := map[uint32][]byte{}
		if err := p.fetch(want, func(n uint32, d []byte) error { got[n] = d; return nil }); err != nil {
			return err
		}
		var still []*chain
		for _, c := range pending {
			d := got[c.next]
			if d == nil {
				return errCorruptPage
			}
			c.next = binary.BigEndian.Uint32(d)
			c.payload = append(c.payload, d[4:min(p.usable, 4+c.size-len(c.payload))]...)
			if len(c.payload) < c.size {
				if c.next == 0 {
					return errCorruptPage
				}
				// Stop early once the columns wanted are complete.
				if err := e.rec.parse(c.payload, need); err == errRecordShort {
					still = append(still, c)
					continue
				}
			}
			e.rowid = c.rowid
			if err := e.rec.parse(c.payload, need); err != nil {
				return err
			}
			if err := fn(&e); err != nil {
				return err
			}
		}
		pending = still
	}
	return nil
}

// reportRecord is a record (a row's columns) decoded as far as asked.
type reportRecord struct {
	b     []byte
	n     int // columns decoded (fewer if the record has fewer)
	types [reportMaxCols]uint64
	offs  [reportMaxCols]int
}

// reportMaxCols bounds the columns a scan reads.
const reportMaxCols = 12

var errRecordShort = errors.New("store: record continues on overflow pages")

// parse decodes the serial types and offsets of the first need columns;
// errRecordShort if they are not all in b.
func (r *reportRecord) parse(b []byte, need int) error {
	if need > reportMaxCols {
		return errNoPages
	}
	r.b, r.n = b, 0
	h, n := reportVarint(b)
	if n == 0 {
		return errRecordShort
	}
	if int(h) > len(b) {
		if h > 1<<20 {
			return errCorruptPage
		}
		return errRecordShort
	}
	pos, off := n, int(h)
	for r.n < need && pos < int(h) {
		t, m := uint64(b[pos]), 1
		if t >= 0x80 { // most serial types fit in a byte
			if t, m = reportVarint(b[pos:int(h)]); m == 0 {
				return errCorruptPage
			}
		}
		pos += m
		r.types[r.n], r.offs[r.n] = t, off
		off += reportSerialLen(t)
		r.n++
	}
	if off > len(b) {
		return errRecordShort
	}
	return nil
}

func reportSerialLen(t uint64) int {
	switch {
	case t >= 12:
		return int((t - 12) / 2)
	case t <= 4:
		return int(t)
	case t == 5:
		return 6
	case t == 6, t == 7:
		return 8
	}
	return 0 // 8, 9: the constants 0 and 1; 10, 11 reserved
}

// null reports whether column i is NULL (or absent: a record written
// before the column was added holds fewer columns).
func (r *reportRecord) null(i int) bool { return i >= r.n || r.types[i] == 0 }

// int returns integer column i; ok is false for another type.
func (r *reportRecord) int(i int) (v int64, ok bool) {
	if i >= r.n {
		return 0, false
	}
	b := r.b[r.offs[i]:]
	switch r.types[i] {
	case 1:
		return int64(int8(b[0])), true
	case 2:
		return int64(int16(binary.BigEndian.Uint16(b))), true
	case 3:
		return int64(int32(uint32(b[0])<<24|uint32(b[1])<<16|uint32(b[2])<<8) >> 8), true
	case 4:
		return int64(int32(binary.BigEndian.Uint32(b))), true
	case 5:
		return int64(uint64(binary.BigEndian.Uint16(b))<<48|uint64(binary.BigEndian.Uint32(b[2:]))<<16) >> 16, true
	case 6:
		return int64(binary.BigEndian.Uint64(b)), true
	case 8:
		return 0, true
	case 9:
		return 1, true
	}
	return 0, false
}

// text returns text (or blob) column i; ok is false for another type.
func (r *reportRecord) text(i int) (v []byte, ok bool) {
	if i >= r.n || r.types[i] < 12 {
		return nil, false
	}
	o := r.offs[i]
	return r.b[o : o+reportSerialLen(r.types[i])], true
}

// Column reads that say what they wanted, as reportInt and reportText do.
func (r *reportRecord) mustInt(i int) (int64, error) {
	if v, ok := r.int(i); ok {
		return v, nil
	}
	return 0, fmt.Errorf("store: report column: want an integer, got serial type %d", r.typeOf(i))
}

func (r *reportRecord) intOr0(i int) (int64, error) {
	if r.null(i) {
		return 0, nil
	}
	return r.mustInt(i)
}

func (r *reportRecord) mustText(i int) ([]byte, error) {
	if v, ok := r.text(i); ok {
		return v, nil
	}
	return nil, fmt.Errorf("store: report column: want text, got serial type %d", r.typeOf(i))
}

func (r *reportRecord) textOrEmpty(i int) ([]byte, error) {
	if r.null(i) {
		return nil, nil
	}
	return r.mustText(i)
}

func (r *reportRecord) typeOf(i int) uint64 {
	if i >= r.n {
		return 0
	}
	return r.types[i]
}
