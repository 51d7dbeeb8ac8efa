package parquetcheck

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// page types and encodings of parquet.thrift
const (
	pageData       = 0
	pageIndex      = 1
	pageDictionary = 2
	pageDataV2     = 3

	encPlain     = 0
	encPlainDict = 2
	encRLE       = 3
	encBitPacked = 4
	encRLEDict   = 8
	encByteSplit = 9
)

// pageChecker reads the pages of column chunks, one page in memory at a
// time (its buffers are reused).
type pageChecker struct {
	r     io.ReaderAt
	lim   Limits
	body  []byte // the page as stored
	plain []byte // the page decompressed
	zstd  *zstd.Decoder
}

func newPageChecker(r io.ReaderAt, lim Limits) *pageChecker {
	return &pageChecker{r: r, lim: lim}
}

// chunkResult is what a column chunk holds at most at once.
type chunkResult struct {
	largestPage int64 // uncompressed bytes of its largest data page
	dictionary  int64 // uncompressed bytes of its dictionary
	longestRow  int64 // values of its longest row (a repeated column)
}

func pageErr(page int, field, format string, a ...any) *Error {
	return &Error{Page: page, Field: field, Msg: fmt.Sprintf(format, a...)}
}

// chunk reads the pages of one column chunk: length bytes from start.
func (pc *pageChecker) chunk(start, length, dataOffset int64, l leaf, cm *columnMeta, rgRows int64) (chunkResult, error) {
	var res chunkResult
	br := bufio.NewReaderSize(io.NewSectionReader(pc.r, start, length), 64<<10)
	end := start + length
	pos := start
	var values int64
	hasDict := false
	var row int64 // values of the row being read (repeated columns)
	for page := 1; pos < end; page++ {
		t := &thriftReader{r: br, left: end - pos}
		h, err := readPageHeader(t)
		if err != nil {
			return res, pageErr(page, "page header", "%v", err)
		}
		pos += (end - pos) - t.left
		if !h.hasSub {
			return res, pageErr(page, "type", "a page of type %d without its header", h.typ)
		}
		if h.compressed < 0 || h.compressed > pc.lim.Page || int64(h.compressed) > end-pos {
			return res, pageErr(page, "compressed_page_size", "%d bytes, where the column chunk has %d left and a page may have %s", h.compressed, end-pos, mib(int64(pc.lim.Page)))
		}
		if h.uncompressed < 0 || h.uncompressed > pc.lim.Page {
			return res, pageErr(page, "uncompressed_page_size", "%d bytes, over the limit of %s a page", h.uncompressed, mib(int64(pc.lim.Page)))
		}
		if cm.codec == codecNone && h.compressed != h.uncompressed && h.typ != pageDataV2 {
			return res, pageErr(page, "uncompressed_page_size", "%d bytes, but the page is stored uncompressed in %d", h.uncompressed, h.compressed)
		}
		body := pc.read(br, int(h.compressed))
		if body == nil {
			return res, pageErr(page, "compressed_page_size", "the file ends inside the page")
		}
		pos += int64(h.compressed)
		switch h.typ {
		case pageDictionary:
			if hasDict || page != 1 {
				return res, pageErr(page, "type", "a dictionary page that is not the column chunk's first page")
			}
			hasDict = true
			if h.encoding != encPlain && h.encoding != encPlainDict {
				return res, pageErr(page, "dictionary_page_header.encoding", "encoding %d: a dictionary is PLAIN", h.encoding)
			}
			if per := minValueBits(l); h.numValues < 0 || int64(h.numValues)*per > 8*int64(h.uncompressed) {
				return res, pageErr(page, "dictionary_page_header.num_values", "%d values in a dictionary of %d bytes", h.numValues, h.uncompressed)
			}
			if _, err := pc.decompress(cm.codec, body, int(h.uncompressed)); err != nil {
				return res, pageErr(page, "compressed_page_size", "%v", err)
			}
			res.dictionary = int64(h.uncompressed)
		case pageData, pageDataV2:
			if h.numValues < 0 || h.numValues > pc.lim.PageValues {
				return res, pageErr(page, "num_values", "%d values, over the limit of %d a page", h.numValues, pc.lim.PageValues)
			}
			if values += int64(h.numValues); values > cm.numValues {
				return res, pageErr(page, "num_values", "the pages hold more values than the column chunk's %d", cm.numValues)
			}
			if l.maxRep == 0 && int64(h.numValues) > rgRows {
				return res, pageErr(page, "num_values", "%d values in a row group of %d rows", h.numValues, rgRows)
			}
			if (h.encoding == encPlainDict || h.encoding == encRLEDict) && !hasDict {
				return res, pageErr(page, "encoding", "dictionary indices, but the column chunk has no dictionary page")
			}
			var perr *Error
			if row, perr = pc.dataPage(h, body, l, cm.codec, row, &res); perr != nil {
				perr.Page = page
				return res, perr
			}
			res.largestPage = max(res.largestPage, int64(h.uncompressed))
		case pageIndex:
			return res, pageErr(page, "type", "an index page (no writer writes them; not read)")
		default:
			return res, pageErr(page, "type", "an unknown page type %d", h.typ)
		}
	}
	if values != cm.numValues {
		return res, &Error{Field: "num_values", Msg: fmt.Sprintf("the column chunk says %d values, its pages hold %d", cm.numValues, values)}
	}
	if cm.dataPageOffset < start || cm.dataPageOffset >= end && length > 0 {
		return res, &Error{Field: "data_page_offset", Msg: fmt.Sprintf("%d, outside the column chunk (bytes %d to %d)", cm.dataPageOffset, start, end)}
	}
	return res, nil
}

// read returns the next n bytes of br in a reused buffer, nil when the
// file ends first.
func (pc *pageChecker) read(br *bufio.Reader, n int) []byte {
	if cap(pc.body) < n {
		pc.body = make([]byte, n)
	}
	b := pc.body[:n]
	if _, err := io.ReadFull(br, b); err != nil {
		return nil
	}
	return b
}

// minValueBits is the fewest bits a PLAIN value of the leaf takes.
func minValueBits(l leaf) int64 {
	switch l.typ {
	case 0: // BOOLEAN
		return 1
	case 1, 4, 6: // INT32, FLOAT, BYTE_ARRAY (its 4-byte length)
		return 32
	case 2, 5: // INT64, DOUBLE
		return 64
	case 3: // INT96
		return 96
	case 7:
		return 8 * int64(l.typeLength)
	}
	return 8
}

// dataPage checks a data page's body: it decompresses to its declared size,
// and its levels and dictionary indices declare no more values than the
// page has. row is the length of the row going on from the last page.
func (pc *pageChecker) dataPage(h pageHeader, body []byte, l leaf, codec int32, row int64, res *chunkResult) (int64, *Error) {
	n := int64(h.numValues)
	var levels, values []byte
	if h.typ == pageDataV2 {
		if h.defLen < 0 || h.repLen < 0 || int64(h.defLen)+int64(h.repLen) > int64(h.compressed) || int64(h.defLen)+int64(h.repLen) > int64(h.uncompressed) {
			return row, pageErr(0, "definition_levels_byte_length", "%d and %d bytes of levels in a page of %d", h.defLen, h.repLen, h.compressed)
		}
		if h.numNulls < 0 || h.numNulls > h.numValues || h.numRows < 0 || h.numRows > h.numValues {
			return row, pageErr(0, "num_nulls", "%d nulls and %d rows in a page of %d values", h.numNulls, h.numRows, h.numValues)
		}
		k := int(h.defLen + h.repLen)
		levels = body[:k]
		want := int(h.uncompressed) - k
		if codec == codecNone || !h.compressedV {
			if len(body)-k != want {
				return row, pageErr(0, "uncompressed_page_size", "%d bytes, but the page holds %d", h.uncompressed, len(body))
			}
			values = body[k:]
		} else {
			v, err := pc.decompress(codec, body[k:], want)
			if err != nil {
				return row, pageErr(0, "compressed_page_size", "%v", err)
			}
			values = v
		}
	} else {
		plain := body
		if codec != codecNone {
			v, err := pc.decompress(codec, body, int(h.uncompressed))
			if err != nil {
				return row, pageErr(0, "compressed_page_size", "%v", err)
			}
			plain = v
		}
		levels, values = plain, nil
	}
	// repetition levels, then definition levels
	rest := levels
	for _, lv := range []struct {
		max  int
		enc  int32
		size int32
		name string
		rep  bool
	}{{l.maxRep, h.repEncoding, h.repLen, "repetition levels", true}, {l.maxDef, h.defEncoding, h.defLen, "definition levels", false}} {
		if lv.max == 0 {
			if h.typ == pageDataV2 {
				rest = rest[min(int(lv.size), len(rest)):]
			}
			continue
		}
		bw := bits.Len(uint(lv.max))
		var data []byte
		switch {
		case h.typ == pageDataV2:
			data, rest = rest[:lv.size], rest[lv.size:]
		case lv.enc == encRLE:
			if len(rest) < 4 {
				return row, pageErr(0, lv.name, "the page ends before its %s", lv.name)
			}
			k := int64(binary.LittleEndian.Uint32(rest))
			if k > int64(len(rest)-4) {
				return row, pageErr(0, lv.name, "%d bytes of %s in a page of %d", k, lv.name, len(rest))
			}
			data, rest = rest[4:4+k], rest[4+k:]
		case lv.enc == encBitPacked:
			k := (n*int64(bw) + 7) / 8
			if k > int64(len(rest)) {
				return row, pageErr(0, lv.name, "the page ends inside its %s", lv.name)
			}
			rest = rest[k:]
			continue
		default:
			return row, pageErr(0, lv.name, "encoding %d is not a level encoding (RLE or BIT_PACKED)", lv.enc)
		}
		var each func(v uint64, k int64)
		if lv.rep {
			each = func(v uint64, k int64) {
				if v == 0 {
					row = 1 // each of the k values starts a row
				} else {
					row += k
				}
				res.longestRow = max(res.longestRow, row)
			}
		}
		if err := runs(data, bw, n, each); err != nil {
			return row, pageErr(0, lv.name, "%v", err)
		}
	}
	if h.typ != pageDataV2 {
		values = rest
	}
	switch h.encoding {
	case encPlain, encByteSplit:
	case encRLE:
		if l.typ != 0 {
			return row, pageErr(0, "encoding", "RLE values in a column that is not BOOLEAN")
		}
		if len(values) < 4 || int64(binary.LittleEndian.Uint32(values)) > int64(len(values)-4) {
			return row, pageErr(0, "encoding", "the RLE values' length is beyond the page")
		}
		values = values[4 : 4+binary.LittleEndian.Uint32(values)]
		if err := runs(values, 1, n, nil); err != nil {
			return row, pageErr(0, "encoding", "%v", err)
		}
	case encPlainDict, encRLEDict:
		if len(values) == 0 {
			if n > 0 && h.numNulls < h.numValues && l.maxDef == 0 {
				return row, pageErr(0, "encoding", "dictionary indices missing")
			}
			break
		}
		bw := int(values[0])
		if bw > 32 {
			return row, pageErr(0, "encoding", "dictionary indices of %d bits (at most 32)", bw)
		}
		if err := runs(values[1:], bw, n, nil); err != nil {
			return row, pageErr(0, "encoding", "dictionary indices: %v", err)
		}
	case encDeltaBinary, encDeltaLength, encDeltaBytes:
		if err := deltaValues(h.encoding, values, n, int64(pc.lim.Page)); err != nil {
			return row, pageErr(0, "encoding", "%v", err)
		}
	default:
		return row, pageErr(0, "encoding", "encoding %d is not a Parquet encoding", h.encoding)
	}
	return row, nil
}

// runs walks the run-length / bit-packed hybrid data of values bw bits
// wide, refusing runs that declare more than n values (bit-packed groups
// of eight may pad the last one) or bytes beyond data. each, if not nil,
// is told every value and its count.
func runs(data []byte, bw int, n int64, each func(v uint64, k int64)) error {
	var total int64
	for i := 0; i < len(data); {
		u, w := binary.Uvarint(data[i:])
		if w <= 0 {
			return fmt.Errorf("a bad run header at byte %d", i)
		}
		i += w
		count := int64(u >> 1)
		if u&1 == 1 { // bit-packed: count groups of 8
			if count > (n+7)/8+1 {
				return fmt.Errorf("a run of %d values in a page of %d", 8*count, n)
			}
			k := count * int64(bw) // bytes: 8 values × bw bits
			if k > int64(len(data)-i) {
				return fmt.Errorf("a run of %d values that goes past the page", 8*count)
			}
			if total >= n && count > 0 {
				return fmt.Errorf("runs of more values than the page's %d", n)
			}
			total += 8 * count
			if each != nil {
				unpack(data[i:i+int(k)], bw, min(8*count, max(n-(total-8*count), 0)), each)
			}
			i += int(k)
		} else {
			if total+count > n {
				return fmt.Errorf("runs of %d values or more, in a page of %d", total+count, n)
			}
			total += count
			vb := (bw + 7) / 8
			if vb > len(data)-i {
				return fmt.Errorf("a run that goes past the page")
			}
			var v uint64
			for b := 0; b < vb; b++ {
				v |= uint64(data[i+b]) << (8 * b)
			}
			i += vb
			if each != nil && count > 0 {
				each(v, count)
			}
		}
		if total > n+7 {
			return fmt.Errorf("runs of %d values, in a page of %d", total, n)
		}
	}
	return nil
}

// unpack calls each with the first k values of bit-packed data, bw bits
// each, least significant bit first.
func unpack(data []byte, bw int, k int64, each func(v uint64, k int64)) {
	pos := 0
	for i := int64(0); i < k && (pos+bw+7)/8 <= len(data); i++ {
		var v uint64
		for got := 0; got < bw; {
			off := (pos + got) % 8
			take := min(8-off, bw-got)
			v |= (uint64(data[(pos+got)/8]>>off) & (1<<take - 1)) << got
			got += take
		}
		pos += bw
		each(v, 1)
	}
}

// decompress decodes a page body of codec into exactly n bytes, refusing
// one that decodes to more (never decoding past n+1) or fewer.
func (pc *pageChecker) decompress(codec int32, src []byte, n int) ([]byte, error) {
	if cap(pc.plain) < n+1 {
		pc.plain = make([]byte, n+1)
	}
	dst := pc.plain[:n+1]
	got := 0
	var err error
	switch codec {
	case codecNone:
		got = copy(dst, src)
		if len(src) > n {
			got = n + 1
		}
	case codecSnappy:
		k, derr := snappy.DecodedLen(src)
		if derr != nil {
			return nil, fmt.Errorf("not valid Snappy: %v", derr)
		}
		if k != n {
			return nil, fmt.Errorf("the page decompresses to %d bytes, not the %d it declares", k, n)
		}
		var out []byte
		if out, err = snappy.Decode(dst[:n], src); err == nil {
			got = len(out)
		}
	case codecGzip:
		var zr *gzip.Reader
		if zr, err = gzip.NewReader(bytes.NewReader(src)); err == nil {
			got, err = readUpTo(zr, dst)
		}
	case codecBrotli:
		got, err = readUpTo(brotli.NewReader(bytes.NewReader(src)), dst)
	case codecZstd:
		if pc.zstd == nil {
			if pc.zstd, err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(uint64(pc.lim.Page)+1), zstd.WithDecoderLowmem(true)); err != nil {
				return nil, err
			}
		}
		if err = pc.zstd.Reset(bytes.NewReader(src)); err == nil {
			got, err = readUpTo(pc.zstd, dst)
		}
	case codecLz4Raw:
		got, err = lz4.UncompressBlock(src, dst)
	default:
		return nil, fmt.Errorf("codec %d is not read", codec)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot decompress the page: %v", err)
	}
	if got > n {
		return nil, fmt.Errorf("the page decompresses to more than the %d bytes it declares", n)
	}
	if got != n {
		return nil, fmt.Errorf("the page decompresses to %d bytes, not the %d it declares", got, n)
	}
	return dst[:n], nil
}

// readUpTo fills dst from r, stopping at the end of r or of dst.
func readUpTo(r io.Reader, dst []byte) (int, error) {
	n, err := io.ReadFull(r, dst)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil
	}
	return n, err
}
