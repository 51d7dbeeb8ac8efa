// Package parquetcheck reads a Parquet file's footer and every page header
// before the Parquet library is given the file, and refuses a file whose
// declared sizes the library would believe: a page, a dictionary, a value
// count, a row group, an offset or a schema that is larger, deeper or
// elsewhere than the file really holds, or larger than the limits below
// (docs/formats.md states them). The library allocates what a file
// declares; after Check, what it allocates is bounded by the limits.
//
// Every page is read once: its header is parsed, its body decompressed into
// a buffer of its declared size (a page that decompresses to more or less
// is refused), and the run-length headers of its levels and dictionary
// indices (which say how many values follow, and which the library would
// expand) are summed against the page's value count. One page is in
// memory at a time.
package parquetcheck

import (
	"fmt"
	"io"
	"strings"
)

// Limits bound what one file may declare.
type Limits struct {
	Footer         int64 // bytes of FileMetaData
	SchemaElements int   // schema elements (columns and groups)
	Depth          int   // nesting of groups under the root
	RowGroups      int
	ColumnChunks   int   // row groups × leaf columns
	Page           int32 // bytes of one page, compressed or not
	PageValues     int32 // values (nulls included) in one page
	RowGroupPages  int64 // bytes of the largest page of every column of a row group, dictionaries included: what a reader holds side by side
	RowValues      int64 // list elements of one row, over its repeated columns
}

// maxDepth is Default's Depth; path_in_schema is held to it as it is read.
const maxDepth = 32

// Default are the limits docs/formats.md states.
var Default = Limits{
	Footer:         16 << 20,
	SchemaElements: 10_000,
	Depth:          maxDepth,
	RowGroups:      100_000,
	ColumnChunks:   100_000,
	Page:           32 << 20,
	PageValues:     1 << 20,
	RowGroupPages:  48 << 20,
	RowValues:      16_384,
}

// Error is a declared size the file does not hold, or over a limit.
// RowGroup and Page count from 1 (0: not about one).
type Error struct {
	RowGroup int
	Column   string // the column's path, a.b.c
	Page     int
	Field    string // the Parquet field at fault, e.g. "uncompressed_page_size"
	Msg      string
}

func (e *Error) Error() string {
	var at []string
	if e.RowGroup > 0 {
		at = append(at, fmt.Sprintf("row group %d", e.RowGroup))
	}
	if e.Column != "" {
		at = append(at, fmt.Sprintf("column %q", e.Column))
	}
	if e.Page > 0 {
		at = append(at, fmt.Sprintf("page %d", e.Page))
	}
	s := strings.Join(at, ", ")
	if e.Field != "" {
		if s != "" {
			s += ": "
		}
		s += fmt.Sprintf("field %q", e.Field)
	}
	if s != "" {
		s += ": "
	}
	return s + e.Msg
}

// leaf is a column of the schema that holds values.
type leaf struct {
	path           []string
	typ            int32
	typeLength     int32
	maxDef, maxRep int
}

func (l leaf) name() string { return strings.Join(l.path, ".") }

var magic = "PAR1"

// Check reads the file r of size bytes and returns nil when every size it
// declares holds, an *Error naming where one does not (or an I/O error).
func Check(r io.ReaderAt, size int64, lim Limits) error {
	if size < 12 {
		return &Error{Msg: fmt.Sprintf("%d bytes: too short for a Parquet file (at least 12)", size)}
	}
	var tail [8]byte
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	var head [4]byte
	if _, err := r.ReadAt(head[:], 0); err != nil {
		return err
	}
	if string(head[:]) != magic || string(tail[4:]) != magic {
		return &Error{Msg: "does not begin and end with PAR1 (an encrypted footer, PARE, is not read)"}
	}
	footerLen := int64(uint32(tail[0]) | uint32(tail[1])<<8 | uint32(tail[2])<<16 | uint32(tail[3])<<24)
	if footerLen > size-12 {
		return &Error{Field: "footer length", Msg: fmt.Sprintf("%d bytes, but the file has only %d bytes for it", footerLen, size-12)}
	}
	if footerLen > lim.Footer {
		return &Error{Field: "footer length", Msg: fmt.Sprintf("%s, over the limit of %s", mib(footerLen), mib(lim.Footer))}
	}
	footerAt := size - 8 - footerLen
	t := newThriftReader(io.NewSectionReader(r, footerAt, footerLen), footerLen)
	m, err := readFileMeta(t, lim)
	if err != nil {
		return footerErr(err)
	}
	if m.encrypted {
		return &Error{Field: "encryption_algorithm", Msg: "an encrypted file is not read"}
	}
	leaves, err := checkSchema(m.schema, lim)
	if err != nil {
		return err
	}
	return checkRowGroups(r, footerAt, m, leaves, lim)
}

func footerErr(err error) error {
	if _, ok := err.(*Error); ok {
		return err
	}
	return &Error{Field: "footer", Msg: err.Error()}
}

func mib(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// checkSchema walks the flat schema as a tree (each group's num_children
// elements follow it) and returns its leaves.
func checkSchema(schema []schemaElement, lim Limits) ([]leaf, error) {
	if len(schema) == 0 {
		return nil, &Error{Field: "schema", Msg: "no schema"}
	}
	root := schema[0]
	if !root.hasChildren || root.numChildren < 1 {
		return nil, &Error{Field: "schema[0].num_children", Msg: fmt.Sprintf("the root has %d columns: want at least one", root.numChildren)}
	}
	var leaves []leaf
	next := 1
	var walk func(i, depth, def, rep int, path []string) error
	walk = func(i, depth, def, rep int, path []string) error {
		se := schema[i]
		at := fmt.Sprintf("schema[%d]", i)
		if se.numChildren < 0 || int(se.numChildren) > len(schema)-next {
			return &Error{Column: strings.Join(path, "."), Field: at + ".num_children",
				Msg: fmt.Sprintf("%d children, but %d elements follow", se.numChildren, len(schema)-next)}
		}
		if se.numChildren == 0 && i > 0 { // a leaf
			if se.typ < 0 || se.typ > 7 {
				return &Error{Column: strings.Join(path, "."), Field: at + ".type", Msg: fmt.Sprintf("a column with no known physical type (%d), or a group with no columns", se.typ)}
			}
			if se.typ == 7 && (se.typeLength < 1 || se.typeLength > 1<<16) {
				return &Error{Column: strings.Join(path, "."), Field: at + ".type_length", Msg: fmt.Sprintf("%d: want 1 to 65536 bytes", se.typeLength)}
			}
			leaves = append(leaves, leaf{path: path, typ: se.typ, typeLength: se.typeLength, maxDef: def, maxRep: rep})
			return nil
		}
		if depth >= lim.Depth {
			return &Error{Column: strings.Join(path, "."), Field: at, Msg: fmt.Sprintf("groups nested over %d deep", lim.Depth)}
		}
		for k := 0; k < int(se.numChildren); k++ {
			if next >= len(schema) {
				return &Error{Field: at + ".num_children", Msg: "more children than elements"}
			}
			c := next
			next++
			cd, cr := def, rep
			switch schema[c].repetition {
			case 1:
				cd++
			case 2:
				cd++
				cr++
			}
			if err := walk(c, depth+1, cd, cr, append(append([]string(nil), path...), schema[c].name)); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(0, 0, 0, 0, nil); err != nil {
		return nil, err
	}
	if next != len(schema) {
		return nil, &Error{Field: "schema", Msg: fmt.Sprintf("%d elements after the root's columns belong to none", len(schema)-next)}
	}
	return leaves, nil
}

func checkRowGroups(r io.ReaderAt, dataEnd int64, m *fileMeta, leaves []leaf, lim Limits) error {
	if m.numRows < 0 {
		return &Error{Field: "num_rows", Msg: fmt.Sprintf("%d rows", m.numRows)}
	}
	if len(m.rowGroups)*len(leaves) > lim.ColumnChunks {
		return &Error{Field: "row_groups", Msg: fmt.Sprintf("%d row groups of %d columns, over %d column chunks", len(m.rowGroups), len(leaves), lim.ColumnChunks)}
	}
	var total int64
	pc := newPageChecker(r, lim)
	for g, rg := range m.rowGroups {
		at := func(col, field, format string, a ...any) error {
			return &Error{RowGroup: g + 1, Column: col, Field: field, Msg: fmt.Sprintf(format, a...)}
		}
		if rg.numRows < 0 {
			return at("", "num_rows", "%d rows", rg.numRows)
		}
		total += rg.numRows
		if total > m.numRows || total < 0 {
			return at("", "num_rows", "the row groups hold more rows than the file's %d", m.numRows)
		}
		if len(rg.columns) != len(leaves) {
			return at("", "columns", "%d column chunks for the schema's %d columns", len(rg.columns), len(leaves))
		}
		var held int64
		rowValues := make([]int64, len(leaves))
		for c, cc := range rg.columns {
			l := leaves[c]
			if cc.filePath != "" {
				return at(l.name(), "file_path", "the column is in another file (%q): a file is read on its own", cc.filePath)
			}
			if cc.encrypted || cc.meta == nil {
				return at(l.name(), "meta_data", "no metadata (an encrypted column is not read)")
			}
			cm := cc.meta
			if cm.typ != l.typ {
				return at(l.name(), "type", "%d, but the schema says %d", cm.typ, l.typ)
			}
			if strings.Join(cm.path, ".") != l.name() || len(cm.path) != len(l.path) {
				return at(l.name(), "path_in_schema", "%q is not the schema's column", strings.Join(cm.path, "."))
			}
			if !supportedCodec(cm.codec) {
				return at(l.name(), "codec", "codec %d is not read (UNCOMPRESSED, SNAPPY, GZIP, BROTLI, ZSTD and LZ4_RAW are)", cm.codec)
			}
			if cm.numValues < 0 || l.maxRep == 0 && cm.numValues != rg.numRows {
				return at(l.name(), "num_values", "%d values in a column chunk of %d rows", cm.numValues, rg.numRows)
			}
			start := cm.dataPageOffset
			if cm.hasDictOffset && cm.dictPageOffset > 0 {
				if cm.dictPageOffset > cm.dataPageOffset {
					return at(l.name(), "dictionary_page_offset", "%d, after the data pages (%d)", cm.dictPageOffset, cm.dataPageOffset)
				}
				start = cm.dictPageOffset
			}
			if start < 4 || start >= dataEnd {
				field := "data_page_offset"
				if start != cm.dataPageOffset {
					field = "dictionary_page_offset"
				}
				return at(l.name(), field, "%d: outside the file's %d bytes of data", start, dataEnd)
			}
			if cm.totalCompressed < 0 || cm.totalCompressed > dataEnd-start {
				return at(l.name(), "total_compressed_size", "%d bytes from offset %d: the pages would lie outside the file's %d bytes of data",
					cm.totalCompressed, start, dataEnd)
			}
			if cm.totalUncompressed < 0 {
				return at(l.name(), "total_uncompressed_size", "%d bytes", cm.totalUncompressed)
			}
			res, err := pc.chunk(start, cm.totalCompressed, cm.dataPageOffset, l, cm, rg.numRows)
			if err != nil {
				if e, ok := err.(*Error); ok {
					e.RowGroup, e.Column = g+1, l.name()
				}
				return err
			}
			held += res.largestPage + res.dictionary
			rowValues[c] = res.longestRow
		}
		if held > lim.RowGroupPages {
			return at("", "uncompressed_page_size", "the largest pages of the row group's columns are %s side by side, over the limit of %s", mib(held), mib(lim.RowGroupPages))
		}
		var row int64
		for _, v := range rowValues {
			row += v
		}
		if row > lim.RowValues {
			return at("", "repetition levels", "a row may hold up to %d list elements, over the limit of %d", row, lim.RowValues)
		}
	}
	if total != m.numRows {
		return &Error{Field: "num_rows", Msg: fmt.Sprintf("the file says %d rows, its row groups hold %d", m.numRows, total)}
	}
	return nil
}

// codecs
const (
	codecNone   = 0
	codecSnappy = 1
	codecGzip   = 2
	codecBrotli = 4
	codecZstd   = 6
	codecLz4Raw = 7
)

func supportedCodec(c int32) bool {
	switch c {
	case codecNone, codecSnappy, codecGzip, codecBrotli, codecZstd, codecLz4Raw:
		return true
	}
	return false
}
