package store

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/annotate-dev/annotate/internal/jsontext"
)

// The restore's fast read of a line. A backup's line is what
// appendBackupRow wrote: `{"col":value,…}`, the manifest's columns in its
// order, each value null, an integer, a real or a string in the escapes of
// jsontext.AppendString. decodeRow reads any JSON object (encoding/json into a
// map, then each value again): a profile of the restore put a fifth of its
// time there. fastRow reads the exporter's shape only, byte by byte, into
// the values decodeRow would give, and declines anything else — other keys
// or another order, spaces, a blob, an escape it does not know, bytes that
// are not UTF-8, a number outside JSON's grammar, a value of the wrong
// type — which then goes to decodeRow, so every error message is
// decodeRow's. TestFastRowIsDecodeRow holds the two to each other on
// lines of every kind, mangled at random.

// lineDecoder reads one table's lines into its manifest's columns.
type lineDecoder struct {
	t       BackupTable
	cols    []string // the manifest's columns, the order of the values
	keys    [][]byte // `{"col":` then `,"col":` (packedKeys)
	types   []string // each column's declared type
	notNull []bool
	at      map[string]int // column -> its place in cols
}

func newLineDecoder(t BackupTable) (*lineDecoder, error) {
	d := &lineDecoder{t: t, cols: t.manifest, at: map[string]int{}}
	if d.cols == nil {
		d.cols = t.Columns
	}
	for i, c := range d.cols {
		j := -1
		for k, tc := range t.Columns {
			if tc == c {
				j = k
			}
		}
		if j < 0 {
			return nil, fmt.Errorf("store: %s has no column %s", t.Name, c)
		}
		d.types = append(d.types, t.types[j])
		d.notNull = append(d.notNull, t.notNull[j])
		d.at[c] = i
	}
	for _, k := range packedKeys(d.cols) {
		d.keys = append(d.keys, []byte(k))
	}
	return d, nil
}

// decode reads line, row n of its file, into vals (one a column of d.cols).
func (d *lineDecoder) decode(n int, line []byte, vals []any) error {
	if d.fastRow(line, vals) {
		return nil
	}
	cols, got, err := decodeRow(d.t, n, line)
	if err != nil {
		return err
	}
	if len(cols) != len(d.cols) {
		// decodeRow holds every line to the manifest's columns.
		return &RowError{Table: d.t.Name, Row: n, Msg: fmt.Sprintf("%d columns, want the manifest's %d", len(cols), len(d.cols))}
	}
	for i, c := range cols {
		vals[d.at[c]] = got[i]
	}
	return nil
}

// fastRow reads a line in the exporter's shape into vals; false: the line
// is not in that shape (vals then hold nothing to use).
func (d *lineDecoder) fastRow(s []byte, vals []any) bool {
	for i, key := range d.keys {
		if !bytes.HasPrefix(s, key) {
			return false
		}
		v, rest, ok := fastValue(s[len(key):])
		if !ok || checkType(v, d.types[i], d.notNull[i]) != "" {
			return false
		}
		vals[i] = v
		s = rest
	}
	return len(s) == 1 && s[0] == '}'
}

// fastValue reads one value at the start of s: null, a JSON number (an
// int64 without a fraction or exponent, else a float64, as decodeValue
// reads them) or a string; the rest of s follows.
func fastValue(s []byte) (any, []byte, bool) {
	if len(s) == 0 {
		return nil, s, false
	}
	switch c := s[0]; {
	case c == 'n':
		if bytes.HasPrefix(s, []byte("null")) {
			return nil, s[4:], true
		}
	case c == '"':
		return fastString(s)
	case c == '-' || c >= '0' && c <= '9':
		return fastNumber(s)
	}
	return nil, s, false
}

// fastNumber reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, JSON's
// number, as decodeValue reads it.
func fastNumber(s []byte) (any, []byte, bool) {
	i := 0
	if s[0] == '-' {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return nil, s, false
	}
	whole := true
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return nil, s, false
		}
		whole = false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return nil, s, false
		}
		whole = false
	}
	tok := string(s[:i])
	if whole {
		n, err := strconv.ParseInt(tok, 10, 64)
		return n, s[i:], err == nil
	}
	f, err := strconv.ParseFloat(tok, 64)
	return f, s[i:], err == nil
}

// fastString reads a JSON string of valid UTF-8, its escapes read by
// jsontext.Unescape as encoding/json reads them.
func fastString(s []byte) (any, []byte, bool) {
	i, escaped := 1, false
	for ; i < len(s) && s[i] != '"'; i++ {
		switch c := s[i]; {
		case c < 0x20:
			return nil, s, false
		case c == '\\':
			escaped = true
			i++
		}
	}
	if i >= len(s) {
		return nil, s, false
	}
	body, rest := s[1:i], s[i+1:]
	if !utf8.Valid(body) {
		return nil, s, false
	}
	if !escaped {
		return string(body), rest, true
	}
	v, ok := jsontext.Unescape(body)
	if !ok {
		return nil, s, false
	}
	return v, rest, true
}
