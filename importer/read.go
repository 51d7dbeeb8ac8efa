package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// maxRecord bounds one line or array element: far above any real QA pair, low
// enough that a runaway line (a file without newlines, a dumped blob) is
// reported instead of eating memory. It is enforced while reading: a longer
// record is counted, never held.
const maxRecord = 16 << 20

// maxCell bounds one value (a text, a list as JSON) of a record: a
// record holds at most one cell this big.
const maxCell = maxRecord

// tooBigCell is a value over maxCell.
type tooBigCell struct{ size int64 }

func (e *tooBigCell) Error() string {
	return fmt.Sprintf("a value of %s, over the %d MiB limit of one value", mib(e.size), maxCell>>20)
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// textReader reads one input as a stream and knows where it is: the 1-based
// line and column (in characters) of the next byte.
type textReader struct {
	name      string
	r         *bufio.Reader
	closer    io.Closer
	line, col int
	buf       []byte // the record being read, reused
	skipping  bool   // value reads past a value without keeping it
	// afterBig, when set, is called once a record over bigLine has been
	// handed on, its buffer dropped: the import's pipeline waits there
	// for the writer (pipeline.go).
	afterBig func(size int64) error
}

// reuse empties the record buffer for the next record; one that held a
// record over bigLine is dropped instead, so that a big record's bytes
// are never written over (they may be kept: kinds.go) and its memory goes
// back with it.
func (t *textReader) reuse() {
	if cap(t.buf) > bigLine {
		t.buf = nil
	}
	t.buf = t.buf[:0]
}

// handedOn is called after the record of size bytes has been handed on.
func (t *textReader) handedOn(size int64) error {
	if size <= bigLine {
		return nil
	}
	t.reuse()
	if t.afterBig == nil {
		return nil
	}
	return t.afterBig(size)
}

func (t *textReader) Close() error { return t.closer.Close() }

// advance moves the position over b, which has just been consumed.
func (t *textReader) advance(b []byte) {
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			break
		}
		t.line++
		t.col = 1
		b = b[i+1:]
	}
	t.col += utf8.RuneCount(b)
}

// peekNonSpace skips JSON whitespace and returns the next byte without
// consuming it; io.EOF at the end.
func (t *textReader) peekNonSpace() (byte, error) {
	for {
		c, err := t.r.ReadByte()
		if err != nil {
			return 0, err
		}
		switch c {
		case ' ', '\t', '\r':
			t.col++
		case '\n':
			t.line++
			t.col = 1
		default:
			t.r.UnreadByte()
			return c, nil
		}
	}
}

// expect consumes the byte c, which peekNonSpace has just returned.
func (t *textReader) expect(c byte) {
	t.r.ReadByte()
	t.advance([]byte{c})
}

// syntaxErr is bad JSON at the reader's position.
func (t *textReader) syntaxErr(record int, format string, args ...any) *InputError {
	at := lineLoc(t.name, t.line)
	at.record = record
	return at.errf("", "bad JSON at column %d: %s", t.col, fmt.Sprintf(format, args...))
}

// tooBig is a record over maxRecord; size is its whole length.
type tooBig struct{ size int64 }

func (e *tooBig) Error() string {
	return fmt.Sprintf("record is %s, over the %d MiB limit", mib(e.size), maxRecord>>20)
}

// tooBig is the error of a record of size over maxRecord at l.
func (l loc) tooBig(field string, size int64) *InputError {
	e := l.errf(field, "%v", &tooBig{size})
	e.Err = &tooBig{size}
	return e
}

// eachLine calls fn for every non-blank line of a JSON Lines input, with CRLF
// endings accepted, after the size and UTF-8 checks.
func (t *textReader) eachLine(fn func(at loc, line []byte) error) error {
	for n := 1; ; n++ {
		line, size, err := t.readLine(maxRecord)
		if err == io.EOF && size == 0 {
			return nil
		}
		if err != nil && err != io.EOF {
			return err
		}
		at := lineLoc(t.name, n)
		if size > maxRecord {
			return at.tooBig(fieldAt(line), size)
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if i := invalidUTF8(line); i >= 0 {
			return at.errf("", "invalid UTF-8 at column %d (the input must be UTF-8)", utf8.RuneCount(line[:i])+1)
		}
		if len(bytes.TrimSpace(line)) > 0 {
			if err := fn(at, line); err != nil {
				return err
			}
			if err := t.handedOn(size); err != nil {
				return err
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

// readLine returns the next line without its newline and the line's length;
// a line over limit is read to its end but not kept past the limit (what is
// kept names the field it runs over in: fieldAt).
func (t *textReader) readLine(limit int64) ([]byte, int64, error) {
	t.reuse()
	var size int64
	var spill [][]byte // a line over bigLine: its pieces, joined once at its end
	for {
		chunk, err := t.r.ReadSlice('\n')
		if keep := limit + 1 - size; keep > 0 {
			piece := chunk[:min(int64(len(chunk)), keep)]
			switch {
			case spill == nil && len(t.buf)+len(piece) <= max(cap(t.buf), bigLine):
				t.buf = append(t.buf, piece...)
			default:
				// Doubling a huge buffer would hold three times the line
				// for a moment: its pieces are kept instead, then copied
				// once into a buffer of its exact size.
				if spill == nil {
					spill = append(spill, t.buf)
					t.buf = nil
				}
				spill = append(spill, append([]byte(nil), piece...))
			}
		}
		size += int64(len(chunk))
		if spill != nil && err != bufio.ErrBufferFull {
			t.buf = bytes.Join(spill, nil)
			spill = nil
			if size > hugeRecord {
				// The pieces go back to the system before the line's
				// values are decoded beside it.
				giveBack()
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == nil:
			return t.buf[:len(t.buf)-1], size - 1, nil
		default:
			return t.buf, size, err
		}
	}
}

// value reads the JSON value that starts at the next non-space byte and
// returns its bytes (valid only until the next read) and where it starts. It
// only finds the value's end (brackets, strings); json.Unmarshal checks it.
func (t *textReader) value(record int) ([]byte, pos, error) {
	c, err := t.peekNonSpace()
	if err == io.EOF {
		return nil, pos{}, t.syntaxErr(record, "unexpected end of the file (is it cut short?)")
	}
	if err != nil {
		return nil, pos{}, err
	}
	start := pos{t.line, t.col}
	if c == '}' || c == ']' || c == ',' || c == ':' {
		return nil, start, t.syntaxErr(record, "unexpected %q", c)
	}
	scalar := c != '{' && c != '[' && c != '"'
	depth, inString, escaped := 0, false, false
	t.reuse()
	var size int64
	for {
		err = nil
		if t.r.Buffered() == 0 {
			_, err = t.r.Peek(1) // fills the buffer
		}
		chunk, _ := t.r.Peek(t.r.Buffered())
		if len(chunk) == 0 {
			if err == io.EOF {
				if scalar {
					return t.take(start, size, record)
				}
				return nil, start, t.syntaxErr(record, "unexpected end of the file inside a value that starts at line %d (is the file cut short?)", start.line)
			}
			return nil, start, err
		}
		end := -1
	scan:
		for i, c := range chunk {
			switch {
			case scalar:
				switch c {
				case ',', ']', '}', ' ', '\t', '\r', '\n':
					end = i
					break scan
				}
			case inString:
				switch {
				case escaped:
					escaped = false
				case c == '\\':
					escaped = true
				case c == '"':
					inString = false
					if depth == 0 {
						end = i + 1
						break scan
					}
				}
			case c == '"':
				inString = true
			case c == '{' || c == '[':
				depth++
			case c == '}' || c == ']':
				depth--
				if depth == 0 {
					end = i + 1
					break scan
				}
			}
		}
		n := len(chunk)
		if end >= 0 {
			n = end
		}
		size += int64(n)
		if size <= maxRecord && !t.skipping {
			t.buf = append(t.buf, chunk[:n]...)
		}
		t.advance(chunk[:n])
		t.r.Discard(n)
		if end >= 0 {
			return t.take(start, size, record)
		}
	}
}

// skip reads past the JSON value at the next non-space byte, keeping
// none of it (a value over maxRecord is still refused).
func (t *textReader) skip() error {
	t.skipping = true
	defer func() { t.skipping = false }()
	_, _, err := t.value(-1)
	return err
}

func (t *textReader) take(start pos, size int64, record int) ([]byte, pos, error) {
	if size > maxRecord {
		at := lineLoc(t.name, start.line)
		at.record = record
		return nil, start, at.tooBig(fieldAt(t.buf), size)
	}
	return t.buf, start, nil
}

// bigLine is the size past which a line's buffer is not grown by
// doubling, nor kept for the next line.
const bigLine = 1 << 20

// fieldAt names the top-level key of the JSON object whose value prefix
// (the start of a record cut at a limit) ends inside: the field that made
// the record too long, most often one huge text. "" when there is none.
func fieldAt(prefix []byte) string {
	depth, inString, escaped, wantKey := 0, false, false, false
	keyStart, last := -1, ""
	for i, c := range prefix {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
				if keyStart >= 0 {
					var k string
					if json.Unmarshal(prefix[keyStart:i+1], &k) == nil {
						last = k
					}
					keyStart = -1
				}
			}
			continue
		}
		switch c {
		case '"':
			inString = true
			if depth == 1 && wantKey {
				keyStart, wantKey = i, false
			}
		case '{', '[':
			depth++
			wantKey = depth == 1 && c == '{'
		case '}', ']':
			depth--
		case ',':
			wantKey = depth == 1
		}
	}
	if depth < 1 {
		return ""
	}
	return last
}

// errStop ends a walk early without an error.
var errStop = errors.New("stop")

// eachElement reads the JSON array that starts at the next non-space byte,
// calling fn with each element's bytes and where it starts. It returns the
// number of elements.
func (t *textReader) eachElement(fn func(i int, raw []byte, at pos) error) (int, error) {
	if c, err := t.peekNonSpace(); err != nil || c != '[' {
		return 0, t.syntaxErr(-1, "want an array")
	}
	t.expect('[')
	for i := 0; ; i++ {
		c, err := t.peekNonSpace()
		if err == io.EOF {
			return i, t.syntaxErr(i, "unexpected end of the file (is it cut short?)")
		}
		if err != nil {
			return i, err
		}
		if c == ']' && i == 0 {
			t.expect(']')
			return 0, nil
		}
		raw, start, err := t.value(i)
		if err != nil {
			return i, err
		}
		if err := fn(i, raw, start); err != nil {
			return i, err
		}
		if err := t.handedOn(int64(len(raw))); err != nil {
			return i, err
		}
		c, err = t.peekNonSpace()
		switch {
		case err == io.EOF:
			return i + 1, t.syntaxErr(i, "unexpected end of the file after record %d (is it cut short?)", i+1)
		case err != nil:
			return i + 1, err
		case c == ',':
			t.expect(',')
		case c == ']':
			t.expect(']')
			return i + 1, nil
		default:
			return i + 1, t.syntaxErr(i+1, "want ',' or ']' after record %d, got %q", i+1, c)
		}
	}
}

// eachKey reads the JSON object that starts at the next non-space byte,
// calling fn with each key; fn must read the key's value (value or
// eachElement).
func (t *textReader) eachKey(fn func(key string) error) error {
	if c, err := t.peekNonSpace(); err != nil || c != '{' {
		return t.syntaxErr(-1, "want an object")
	}
	t.expect('{')
	seen := map[string]bool{}
	for i := 0; ; i++ {
		c, err := t.peekNonSpace()
		if err != nil {
			return t.syntaxErr(-1, "unexpected end of the file (is it cut short?)")
		}
		if c == '}' && i == 0 {
			t.expect('}')
			return nil
		}
		if c != '"' {
			return t.syntaxErr(-1, "want a key, got %q", c)
		}
		raw, start, err := t.value(-1)
		if err != nil {
			return err
		}
		var key string
		if invalidUTF8(raw) >= 0 || json.Unmarshal(raw, &key) != nil {
			return lineLoc(t.name, start.line).errf("", "bad JSON at column %d: a key that is not a valid string", start.col)
		}
		if seen[key] {
			return lineLoc(t.name, start.line).errf(key, "%s (column %d)", duplicateKey, start.col)
		}
		seen[key] = true
		if c, err := t.peekNonSpace(); err != nil || c != ':' {
			return t.syntaxErr(-1, "want ':' after the key %q", key)
		}
		t.expect(':')
		if err := fn(key); err != nil {
			// A value too long to read is named by its key.
			var ie *InputError
			var tb *tooBig
			if errors.As(err, &ie) && ie.Field == "" && errors.As(ie.Err, &tb) {
				ie.Field = key
			}
			return err
		}
		c, err = t.peekNonSpace()
		switch {
		case err != nil:
			return t.syntaxErr(-1, "unexpected end of the file (is it cut short?)")
		case c == ',':
			t.expect(',')
		case c == '}':
			t.expect('}')
			return nil
		default:
			return t.syntaxErr(-1, "want ',' or '}' after the value of %q, got %q", key, c)
		}
	}
}

// atEnd checks nothing but whitespace follows a JSON document.
func (t *textReader) atEnd() error {
	if c, err := t.peekNonSpace(); err != io.EOF {
		if err != nil {
			return err
		}
		return t.syntaxErr(-1, "%q after the end of the JSON document", c)
	}
	return nil
}

// pos is where a value starts: 1-based line and column (in characters).
type pos struct{ line, col int }

// element decodes one array element, found at start, into its keys: invalid
// UTF-8 and bad JSON are placed by line and column.
func element(name string, record int, raw []byte, start pos) (map[string]json.RawMessage, error) {
	place := func(off int) (loc, int) {
		line, col := lineCol(raw, off)
		if line == 1 {
			col += start.col - 1
		}
		return lineLoc(name, start.line+line-1), col
	}
	if i := invalidUTF8(raw); i >= 0 {
		at, col := place(i)
		return nil, at.errf("", "invalid UTF-8 at column %d (the input must be UTF-8)", col)
	}
	m, dup, dupAt, err := decodeObject(raw)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		at, col := place(int(se.Offset) - 1)
		at.record = record
		return nil, at.errf("", "bad JSON at column %d: %v", col, se)
	}
	if err != nil || m == nil {
		return nil, recLoc(name, record).errf("", "want a JSON object, got %s", kind(raw))
	}
	if dupAt >= 0 {
		at, col := place(dupAt)
		at.record = record
		return nil, at.errf(dup, "%s (column %d)", duplicateKey, col)
	}
	return m, nil
}

// duplicateKey is the message for a key an object names twice: which of
// the values was meant is not for the importer to guess.
const duplicateKey = "duplicate key: the object gives it twice (keep one)"

// invalidUTF8 returns the offset of the first byte that is not UTF-8, or -1.
func invalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}

// lineCol converts a byte offset of data to a 1-based line and column.
func lineCol(data []byte, off int) (int, int) {
	off = min(max(off, 0), len(data))
	line := bytes.Count(data[:off], []byte("\n")) + 1
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return line, utf8.RuneCount(data[start:off]) + 1
}

// object decodes one JSONL line into its keys.
func object(at loc, line []byte) (map[string]json.RawMessage, error) {
	m, dup, dupAt, err := decodeObject(line)
	if err == nil && dupAt >= 0 {
		_, col := lineCol(line, dupAt)
		return nil, at.errf(dup, "%s (column %d)", duplicateKey, col)
	}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		_, col := lineCol(line, int(se.Offset)-1)
		return nil, at.errf("", "bad JSON at column %d: %v", col, se)
	case errors.As(err, &te):
		return nil, at.errf("", "want a JSON object, got %s", article(te.Value))
	case err != nil:
		return nil, at.errf("", "bad JSON: %v (is the line cut short?)", err)
	case m == nil:
		return nil, at.errf("", "want a JSON object, got null")
	}
	return m, nil
}

// kind names the JSON type of a raw value for "want X, got Y" messages.
func kind(raw json.RawMessage) string {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func article(jsonType string) string {
	switch jsonType {
	case "array", "object":
		return "an " + jsonType
	case "bool":
		return "a boolean"
	}
	return "a " + jsonType
}
