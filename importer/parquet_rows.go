package importer

import (
	"errors"
	"fmt"
	"io"
	"unsafe"

	"github.com/parquet-go/parquet-go"
)

// pqRows reads the rows of one row group, one row at a time, with a cursor
// on the pages of each column. The Parquet library's row reader holds the
// page of each column until it reads the next one, so a text of 16 MiB was
// there, in its page, and again in the string made of it while the database
// made its own two copies. Here the page of a value over hugeRecord (one
// not read from a dictionary) is kept from going back to the library's pool
// of buffers: it is retained and never released, so nothing ever writes
// over it, and the collector frees it once nothing points into it. The
// string of such a value can then be the page's own bytes (pqText), not a
// copy. Other pages are released as before, once the row after theirs is
// read.
type pqRows struct {
	cols []*pqCursor
	row  parquet.Row
	kept map[*byte]bool // the bytes of the row's values whose page is kept
}

func newPQRows(rg parquet.RowGroup) *pqRows {
	r := &pqRows{kept: map[*byte]bool{}}
	for _, c := range rg.ColumnChunks() {
		r.cols = append(r.cols, &pqCursor{rows: r, pages: c.Pages(), buf: make([]parquet.Value, 0, 64)})
	}
	return r
}

// next returns the next row, io.EOF after the last. Its values are valid
// until the next call; a value over hugeRecord stays valid (pqText).
func (r *pqRows) next() (parquet.Row, error) {
	r.row = r.row[:0]
	clear(r.kept)
	for i, c := range r.cols {
		c.releaseDone()
		n := len(r.row)
		var err error
		r.row, err = c.values(r.row)
		switch {
		case errors.Is(err, io.EOF) && len(r.row) == n:
			if i == 0 {
				return nil, io.EOF
			}
			return nil, fmt.Errorf("column %d has fewer rows than the first", i+1)
		case err != nil && !errors.Is(err, io.EOF):
			return nil, err
		}
	}
	return r.row, nil
}

// Close releases the pages still held.
func (r *pqRows) Close() error {
	var first error
	for _, c := range r.cols {
		c.releaseDone()
		c.done(nil)
		c.releaseDone()
		if err := c.pages.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// pqCursor reads the values of one column chunk.
type pqCursor struct {
	rows  *pqRows
	pages parquet.Pages
	page  parquet.Page // the page being read
	kept  bool         // page holds a value over hugeRecord: never released
	vr    parquet.ValueReader
	buf   []parquet.Value // values read from page; buf[off:] not taken yet
	off   int
	// finished are pages whose values were all read while assembling the
	// current row: released when the next row starts, not before (the
	// row's values point into them).
	finished []parquet.Page
}

// values appends the values of the column's next row to row: the next
// value, and those after it that continue its row (repetition level above
// 0, a list's elements). io.EOF when the column has no more values.
func (c *pqCursor) values(row parquet.Row) (parquet.Row, error) {
	first := true
	for {
		if c.off == len(c.buf) {
			if err := c.fill(); err != nil {
				return row, err
			}
		}
		v := c.buf[c.off]
		if !first && v.RepetitionLevel() == 0 {
			return row, nil
		}
		if v.Kind() == parquet.ByteArray && !v.IsNull() && c.page.Dictionary() == nil {
			if b := v.ByteArray(); len(b) > hugeRecord {
				c.kept = true
				c.rows.kept[unsafe.SliceData(b)] = true
			}
		}
		row = append(row, v)
		c.off++
		first = false
	}
}

// fill reads the next values, from the next page when this one is read.
func (c *pqCursor) fill() error {
	for {
		if c.vr != nil {
			n, err := c.vr.ReadValues(c.buf[:cap(c.buf)])
			c.buf, c.off = c.buf[:n], 0
			if n > 0 {
				return nil
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return err
			}
		}
		p, err := c.pages.ReadPage()
		if err != nil {
			return err
		}
		c.done(p)
	}
}

// done sets p as the page being read, the last one finished.
func (c *pqCursor) done(p parquet.Page) {
	if c.page != nil && !c.kept {
		c.finished = append(c.finished, c.page)
	}
	c.page, c.kept, c.vr = p, false, nil
	if p != nil {
		c.vr = p.Values()
	}
}

func (c *pqCursor) releaseDone() {
	for _, p := range c.finished {
		parquet.Release(p)
	}
	clear(c.finished)
	c.finished = c.finished[:0]
}

// text is the string of a byte array value of the current row: the page's
// own bytes for a value whose page is kept (never written over), a copy
// of any other.
func (r *pqRows) text(v parquet.Value) string {
	b := v.ByteArray()
	if len(b) > 0 && r.kept[unsafe.SliceData(b)] {
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	return string(b)
}

// eachRow calls fn with every row of the file's row groups, numbered from
// 1, and the reading of its strings (pqRows.text); once fn has handed a
// big row on, the pipeline waits for it to be written (fileData.afterBig).
// A failure of the Parquet library is a refusal (recovered).
func (f *fileData) eachRow(groups []parquet.RowGroup, fn func(n int, row parquet.Row, text func(parquet.Value) string) error) error {
	n := 0
	for _, rg := range groups {
		var rows *pqRows
		if err := recovered(f.name, func() error { rows = newPQRows(rg); return nil }); err != nil {
			return err
		}
		err := func() error {
			defer rows.Close()
			for {
				var row parquet.Row
				var rerr error
				if err := recovered(f.name, func() error { row, rerr = rows.next(); return nil }); err != nil {
					return err
				}
				if errors.Is(rerr, io.EOF) {
					return nil
				}
				if rerr != nil {
					return lineLoc(f.name, n+1).errf("", "cannot read the row: %v", rerr)
				}
				n++
				if err := fn(n, row, rows.text); err != nil {
					return err
				}
				if err := f.afterBig(rowSize(row)); err != nil {
					return err
				}
			}
		}()
		if err != nil {
			return err
		}
	}
	return nil
}

// rowSize is the bytes of a row's strings.
func rowSize(row parquet.Row) int64 {
	var n int64
	for _, v := range row {
		if v.Kind() == parquet.ByteArray || v.Kind() == parquet.FixedLenByteArray {
			n += int64(len(v.ByteArray()))
		}
	}
	return n
}
