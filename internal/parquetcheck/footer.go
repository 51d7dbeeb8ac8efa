package parquetcheck

import (
	"fmt"
)

// The parts of Parquet's FileMetaData the checks need, read by the bounded
// reader (thrift.go); everything else is skipped. Field ids are those of
// parquet.thrift.

type schemaElement struct {
	typ         int32 // physical type; -1 for a group
	typeLength  int32
	repetition  int32 // 0 required, 1 optional, 2 repeated
	name        string
	numChildren int32
	hasChildren bool
}

type columnMeta struct {
	typ               int32
	encodings         []int32
	path              []string
	codec             int32
	numValues         int64
	totalUncompressed int64
	totalCompressed   int64
	dataPageOffset    int64
	dictPageOffset    int64
	hasDictOffset     bool
}

type columnChunk struct {
	filePath  string
	meta      *columnMeta
	encrypted bool
}

type rowGroup struct {
	columns []columnChunk
	numRows int64
}

type fileMeta struct {
	schema    []schemaElement
	numRows   int64
	rowGroups []rowGroup
	encrypted bool
}

// maxName bounds a column's name and a path segment.
const maxName = 4096

func readFileMeta(t *thriftReader, lim Limits) (*fileMeta, error) {
	m := &fileMeta{}
	err := t.fields(func(id int16, typ byte) error {
		switch {
		case id == 2 && typ == tList: // schema
			elem, n, err := t.listHeader()
			if err != nil {
				return err
			}
			if elem != tStruct {
				return t.bad("the schema is not a list of elements")
			}
			if n > lim.SchemaElements {
				return &Error{Field: "schema", Msg: fmt.Sprintf("%d elements, over the limit of %d", n, lim.SchemaElements)}
			}
			for i := 0; i < n; i++ {
				se, err := readSchemaElement(t)
				if err != nil {
					return err
				}
				m.schema = append(m.schema, se)
			}
			return nil
		case id == 3 && typ == tI64:
			v, err := t.i64()
			m.numRows = v
			return err
		case id == 4 && typ == tList: // row_groups
			elem, n, err := t.listHeader()
			if err != nil {
				return err
			}
			if elem != tStruct {
				return t.bad("the row groups are not a list of structs")
			}
			if n > lim.RowGroups {
				return &Error{Field: "row_groups", Msg: fmt.Sprintf("%d row groups, over the limit of %d", n, lim.RowGroups)}
			}
			chunks := 0
			for i := 0; i < n; i++ {
				rg, err := readRowGroup(t, i, lim)
				if err != nil {
					return err
				}
				if chunks += len(rg.columns); chunks > lim.ColumnChunks {
					return &Error{RowGroup: i + 1, Field: "columns", Msg: fmt.Sprintf("over %d column chunks in the file", lim.ColumnChunks)}
				}
				m.rowGroups = append(m.rowGroups, rg)
			}
			return nil
		case id == 8: // encryption_algorithm
			m.encrypted = true
		}
		return errSkip
	})
	return m, err
}

func readSchemaElement(t *thriftReader) (schemaElement, error) {
	se := schemaElement{typ: -1}
	err := t.fields(func(id int16, typ byte) error {
		var err error
		switch {
		case id == 1 && typ == tI32:
			se.typ, err = t.i32()
		case id == 2 && typ == tI32:
			se.typeLength, err = t.i32()
		case id == 3 && typ == tI32:
			se.repetition, err = t.i32()
		case id == 4 && typ == tBinary:
			se.name, err = t.str(maxName)
		case id == 5 && typ == tI32:
			se.numChildren, err = t.i32()
			se.hasChildren = true
		default:
			return errSkip
		}
		return err
	})
	return se, err
}

func readRowGroup(t *thriftReader, i int, lim Limits) (rowGroup, error) {
	var rg rowGroup
	err := t.fields(func(id int16, typ byte) error {
		switch {
		case id == 1 && typ == tList:
			elem, n, err := t.listHeader()
			if err != nil {
				return err
			}
			if elem != tStruct {
				return t.bad("the columns of a row group are not a list of structs")
			}
			if n > lim.SchemaElements {
				return &Error{RowGroup: i + 1, Field: "columns", Msg: fmt.Sprintf("%d column chunks, over the limit of %d", n, lim.SchemaElements)}
			}
			for j := 0; j < n; j++ {
				cc, err := readColumnChunk(t)
				if err != nil {
					return err
				}
				rg.columns = append(rg.columns, cc)
			}
			return nil
		case id == 3 && typ == tI64:
			v, err := t.i64()
			rg.numRows = v
			return err
		}
		return errSkip
	})
	return rg, err
}

func readColumnChunk(t *thriftReader) (columnChunk, error) {
	var cc columnChunk
	err := t.fields(func(id int16, typ byte) error {
		switch {
		case id == 1 && typ == tBinary:
			s, err := t.str(maxName)
			cc.filePath = s
			return err
		case id == 3 && typ == tStruct:
			cm, err := readColumnMeta(t)
			cc.meta = cm
			return err
		case id == 8 || id == 9: // crypto_metadata, encrypted_column_metadata
			cc.encrypted = true
		}
		return errSkip
	})
	return cc, err
}

func readColumnMeta(t *thriftReader) (*columnMeta, error) {
	cm := &columnMeta{}
	err := t.fields(func(id int16, typ byte) error {
		var err error
		switch {
		case id == 1 && typ == tI32:
			cm.typ, err = t.i32()
		case id == 2 && typ == tList:
			var n int
			if _, n, err = t.listHeader(); err == nil {
				for k := 0; k < n && err == nil; k++ {
					var e int32
					e, err = t.i32()
					cm.encodings = append(cm.encodings, e)
				}
			}
		case id == 3 && typ == tList:
			var n int
			if _, n, err = t.listHeader(); err == nil {
				if n > maxDepth {
					return &Error{Field: "path_in_schema", Msg: fmt.Sprintf("%d segments, deeper than the schema may be (%d)", n, maxDepth)}
				}
				for k := 0; k < n && err == nil; k++ {
					var s string
					s, err = t.str(maxName)
					cm.path = append(cm.path, s)
				}
			}
		case id == 4 && typ == tI32:
			cm.codec, err = t.i32()
		case id == 5 && typ == tI64:
			cm.numValues, err = t.i64()
		case id == 6 && typ == tI64:
			cm.totalUncompressed, err = t.i64()
		case id == 7 && typ == tI64:
			cm.totalCompressed, err = t.i64()
		case id == 9 && typ == tI64:
			cm.dataPageOffset, err = t.i64()
		case id == 11 && typ == tI64:
			cm.dictPageOffset, err = t.i64()
			cm.hasDictOffset = true
		default:
			return errSkip
		}
		return err
	})
	return cm, err
}

// pageHeader is the part of a PageHeader the checks need.
type pageHeader struct {
	typ          int32 // 0 data, 1 index, 2 dictionary, 3 data v2
	uncompressed int32
	compressed   int32
	numValues    int32
	encoding     int32
	defEncoding  int32
	repEncoding  int32
	// data page v2
	numNulls    int32
	numRows     int32
	defLen      int32
	repLen      int32
	compressedV bool // v2: values compressed (true when absent)
	hasSub      bool // the header of its type is there
}

func readPageHeader(t *thriftReader) (pageHeader, error) {
	h := pageHeader{typ: -1, compressedV: true}
	sub := func(fn func(id int16, typ byte) error) error {
		h.hasSub = true
		return t.fields(fn)
	}
	i32 := func(dst *int32) error {
		v, err := t.i32()
		*dst = v
		return err
	}
	err := t.fields(func(id int16, typ byte) error {
		switch {
		case id == 1 && typ == tI32:
			return i32(&h.typ)
		case id == 2 && typ == tI32:
			return i32(&h.uncompressed)
		case id == 3 && typ == tI32:
			return i32(&h.compressed)
		case id == 5 && typ == tStruct && h.typ == 0: // data_page_header
			return sub(func(id int16, typ byte) error {
				switch {
				case id == 1 && typ == tI32:
					return i32(&h.numValues)
				case id == 2 && typ == tI32:
					return i32(&h.encoding)
				case id == 3 && typ == tI32:
					return i32(&h.defEncoding)
				case id == 4 && typ == tI32:
					return i32(&h.repEncoding)
				}
				return errSkip
			})
		case id == 7 && typ == tStruct && h.typ == 2: // dictionary_page_header
			return sub(func(id int16, typ byte) error {
				switch {
				case id == 1 && typ == tI32:
					return i32(&h.numValues)
				case id == 2 && typ == tI32:
					return i32(&h.encoding)
				}
				return errSkip
			})
		case id == 8 && typ == tStruct && h.typ == 3: // data_page_header_v2
			h.defEncoding, h.repEncoding = encRLE, encRLE
			return sub(func(id int16, typ byte) error {
				switch {
				case id == 1 && typ == tI32:
					return i32(&h.numValues)
				case id == 2 && typ == tI32:
					return i32(&h.numNulls)
				case id == 3 && typ == tI32:
					return i32(&h.numRows)
				case id == 4 && typ == tI32:
					return i32(&h.encoding)
				case id == 5 && typ == tI32:
					return i32(&h.defLen)
				case id == 6 && typ == tI32:
					return i32(&h.repLen)
				case id == 7 && (typ == tTrue || typ == tFalse):
					h.compressedV = boolField(typ)
					return nil
				}
				return errSkip
			})
		}
		return errSkip
	})
	return h, err
}
