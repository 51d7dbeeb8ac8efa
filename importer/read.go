package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
)

// maxRecord bounds one line or array element: far above any real QA pair, low
// enough that a runaway line (a file without newlines, a dumped blob) is
// reported instead of eating memory.
const maxRecord = 16 << 20

var bom = []byte("\xef\xbb\xbf")

// clean strips a UTF-8 byte order mark (Windows editors write one) and
// rejects a file with nothing in it.
func clean(name string, data []byte) ([]byte, error) {
	data = bytes.TrimPrefix(data, bom)
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fileLoc(name).errf("", "empty file")
	}
	return data, nil
}

func mib(n int) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// eachLine calls fn for every non-blank line of a JSON Lines file, with CRLF
// endings accepted, after the size and UTF-8 checks.
func eachLine(name string, data []byte, fn func(at loc, line []byte) error) error {
	for n := 1; len(data) > 0; n++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		at := lineLoc(name, n)
		if len(line) > maxRecord {
			return at.errf("", "record is %s, over the %d MiB limit", mib(len(line)), maxRecord>>20)
		}
		if i := invalidUTF8(line); i >= 0 {
			return at.errf("", "invalid UTF-8 at column %d (the input must be UTF-8)", utf8.RuneCount(line[:i])+1)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if err := fn(at, line); err != nil {
			return err
		}
	}
	return nil
}

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
	var m map[string]json.RawMessage
	err := json.Unmarshal(line, &m)
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

// document checks a whole JSON file (UTF-8, syntax) and returns it. A syntax
// error names the line and column, and the array element it is in.
func document(name string, data []byte) (json.RawMessage, error) {
	if i := invalidUTF8(data); i >= 0 {
		line, col := lineCol(data, i)
		return nil, lineLoc(name, line).errf("", "invalid UTF-8 at column %d (the input must be UTF-8)", col)
	}
	var raw json.RawMessage
	err := json.Unmarshal(data, &raw)
	if err == nil {
		return raw, nil
	}
	off := len(data)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = int(se.Offset) - 1
	}
	line, col := lineCol(data, off)
	at := lineLoc(name, line)
	at.record = failingElement(data)
	return nil, at.errf("", "bad JSON at column %d: %v", col, err)
}

// failingElement returns the index of the first element of a top-level array
// that does not decode, or -1 when data is not an array.
func failingElement(data []byte) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return -1
	}
	for i := 0; ; i++ {
		var raw json.RawMessage
		if !dec.More() || dec.Decode(&raw) != nil {
			return i
		}
	}
}

// elements splits a JSON array (already checked by document) into its
// elements; what names the array in messages.
func elements(at loc, what string, raw json.RawMessage) ([]json.RawMessage, error) {
	var out []json.RawMessage
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, at.errf(what, "want an array, got %s", kind(raw))
	}
	if len(out) == 0 {
		return nil, at.errf(what, "empty array: nothing to import")
	}
	for i, r := range out {
		if len(r) > maxRecord {
			return nil, recLoc(at.file, i).errf("", "record is %s, over the %d MiB limit", mib(len(r)), maxRecord>>20)
		}
	}
	return out, nil
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
