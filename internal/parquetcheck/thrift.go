package parquetcheck

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
)

// A reader of Thrift's compact protocol, the encoding of Parquet's footer
// and page headers, that believes no length it reads: a string, a list or
// a skipped value may not claim more bytes than are left in the region
// being read, and structs may not nest deeper than maxNesting. Nothing is
// allocated beyond what the region really holds.

// compact protocol types
const (
	tStop   = 0
	tTrue   = 1
	tFalse  = 2
	tByte   = 3
	tI16    = 4
	tI32    = 5
	tI64    = 6
	tDouble = 7
	tBinary = 8
	tList   = 9
	tSet    = 10
	tMap    = 11
	tStruct = 12
)

// maxNesting bounds structs within structs (FileMetaData nests five deep).
const maxNesting = 16

// errThrift is the cause of a malformed region.
var errThrift = errors.New("not valid Thrift")

type thriftReader struct {
	r     *bufio.Reader
	left  int64 // bytes left in the region
	depth int
}

func newThriftReader(r io.Reader, n int64) *thriftReader {
	return &thriftReader{r: bufio.NewReaderSize(r, 64<<10), left: n}
}

func (t *thriftReader) bad(format string, a ...any) error {
	return fmt.Errorf("%w: %s", errThrift, fmt.Sprintf(format, a...))
}

func (t *thriftReader) readByte() (byte, error) {
	if t.left <= 0 {
		return 0, t.bad("ends in the middle of a value")
	}
	b, err := t.r.ReadByte()
	if err != nil {
		return 0, t.bad("ends in the middle of a value")
	}
	t.left--
	return b, nil
}

func (t *thriftReader) uvarint() (uint64, error) {
	var x uint64
	for shift := uint(0); shift < 70; shift += 7 {
		b, err := t.readByte()
		if err != nil {
			return 0, err
		}
		if shift == 63 && b > 1 {
			return 0, t.bad("an integer of more than 64 bits")
		}
		x |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return x, nil
		}
	}
	return 0, t.bad("an integer of more than 64 bits")
}

func (t *thriftReader) i64() (int64, error) {
	u, err := t.uvarint()
	return int64(u>>1) ^ -int64(u&1), err
}

func (t *thriftReader) i32() (int32, error) {
	v, err := t.i64()
	if err == nil && (v < math.MinInt32 || v > math.MaxInt32) {
		return 0, t.bad("a 32-bit integer out of range (%d)", v)
	}
	return int32(v), err
}

// length reads a length that must fit in what is left of the region, at
// least per bytes each.
func (t *thriftReader) length(per int64) (int64, error) {
	u, err := t.uvarint()
	if err != nil {
		return 0, err
	}
	if per < 1 {
		per = 1
	}
	if u > uint64(t.left/per) {
		return 0, t.bad("a length of %d where only %d bytes are left", u, t.left)
	}
	return int64(u), nil
}

func (t *thriftReader) skipBytes(n int64) error {
	if n > t.left {
		return t.bad("ends in the middle of a value")
	}
	if _, err := t.r.Discard(int(n)); err != nil {
		return t.bad("ends in the middle of a value")
	}
	t.left -= n
	return nil
}

// str reads a binary value of at most max bytes (longer ones are refused,
// not read).
func (t *thriftReader) str(max int64) (string, error) {
	n, err := t.length(1)
	if err != nil {
		return "", err
	}
	if n > max {
		return "", t.bad("a string of %d bytes, over %d", n, max)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(t.r, b); err != nil {
		return "", t.bad("ends in the middle of a value")
	}
	t.left -= n
	return string(b), nil
}

// listHeader reads a list's element type and size; each element takes at
// least one byte, so the size is bounded by what is left.
func (t *thriftReader) listHeader() (elem byte, size int, err error) {
	b, err := t.readByte()
	if err != nil {
		return 0, 0, err
	}
	elem, n := b&0x0f, int64(b>>4)
	if n == 15 {
		if n, err = t.length(1); err != nil {
			return 0, 0, err
		}
	} else if n > t.left {
		return 0, 0, t.bad("a list of %d elements where only %d bytes are left", n, t.left)
	}
	return elem, int(n), nil
}

// fields reads a struct, calling fn with each field's id and type; fn
// reads the value, or returns skip to have it skipped.
func (t *thriftReader) fields(fn func(id int16, typ byte) error) error {
	if t.depth >= maxNesting {
		return t.bad("structs nested over %d deep", maxNesting)
	}
	t.depth++
	defer func() { t.depth-- }()
	var last int16
	for {
		b, err := t.readByte()
		if err != nil {
			return err
		}
		if b == tStop {
			return nil
		}
		typ := b & 0x0f
		id := last + int16(b>>4)
		if b>>4 == 0 {
			v, err := t.i64()
			if err != nil {
				return err
			}
			if v < math.MinInt16 || v > math.MaxInt16 {
				return t.bad("a field id out of range")
			}
			id = int16(v)
		}
		last = id
		if err := fn(id, typ); err == errSkip {
			if err := t.skip(typ); err != nil {
				return err
			}
		} else if err != nil {
			return err
		}
	}
}

var errSkip = errors.New("skip")

// skip reads past a value of type typ.
func (t *thriftReader) skip(typ byte) error {
	switch typ {
	case tTrue, tFalse:
		return nil
	case tByte:
		_, err := t.readByte()
		return err
	case tI16, tI32, tI64:
		_, err := t.uvarint()
		return err
	case tDouble:
		return t.skipBytes(8)
	case tBinary:
		n, err := t.length(1)
		if err != nil {
			return err
		}
		return t.skipBytes(n)
	case tList, tSet:
		elem, n, err := t.listHeader()
		if err != nil {
			return err
		}
		return t.skipElems(elem, n)
	case tMap:
		n, err := t.length(2)
		if err != nil || n == 0 {
			return err
		}
		kv, err := t.readByte()
		if err != nil {
			return err
		}
		for i := int64(0); i < n; i++ {
			if err := t.skipElem(kv >> 4); err != nil {
				return err
			}
			if err := t.skipElem(kv & 0x0f); err != nil {
				return err
			}
		}
		return nil
	case tStruct:
		return t.fields(func(int16, byte) error { return errSkip })
	}
	return t.bad("an unknown type %d", typ)
}

func (t *thriftReader) skipElems(elem byte, n int) error {
	for i := 0; i < n; i++ {
		if err := t.skipElem(elem); err != nil {
			return err
		}
	}
	return nil
}

// skipElem skips a list element: a boolean is a byte there.
func (t *thriftReader) skipElem(elem byte) error {
	if elem == tTrue || elem == tFalse {
		_, err := t.readByte()
		return err
	}
	if t.depth >= maxNesting {
		return t.bad("values nested over %d deep", maxNesting)
	}
	t.depth++
	defer func() { t.depth-- }()
	return t.skip(elem)
}

// boolField reads a boolean field's value (it is in its type).
func boolField(typ byte) bool { return typ == tTrue }
