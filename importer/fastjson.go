package importer

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/annotate-dev/annotate/internal/jsontext"
)

// A fast path for the JSON of import records. encoding/json decodes a record
// into a map of raw values, and each value again when it is read: nested
// labels are scanned four times, every raw value copied. These functions
// split an object or an array into the raw values of its members without
// copying them (the slices point into the record, which outlives its
// parsing), and read a string without escapes as it is. They accept only
// JSON that encoding/json accepts and give what it gives; anything they are
// not sure of (an escape, a syntax error, a number) makes them say no, and
// the caller asks encoding/json, whose errors the messages quote.

// splitObjectDup is splitObject that also returns the first key that
// appears a second time and the offset in b where that second occurrence
// starts (-1 when no key does: the key itself may be "").
func splitObjectDup(b []byte) (m map[string]json.RawMessage, dup string, dupAt int, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, "", 0, false
	}
	m = make(map[string]json.RawMessage, 8)
	dupAt = -1
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return m, "", -1, skipSpace(b, i+1) == len(b)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return nil, "", 0, false
		}
		keyAt := i
		end, plain := scanString(b, i)
		if end < 0 || !plain {
			return nil, "", 0, false
		}
		key := string(b[i+1 : end-1])
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return nil, "", 0, false
		}
		i = skipSpace(b, i+1)
		end = skipValue(b, i, 0)
		if end < 0 {
			return nil, "", 0, false
		}
		if _, seen := m[key]; seen && dupAt < 0 {
			dup, dupAt = key, keyAt
		}
		m[key] = b[i:end:end]
		var done bool
		if i, done = afterElement(b, end, '}'); done {
			if skipSpace(b, i) != len(b) {
				return nil, "", 0, false
			}
			return m, dup, dupAt, true
		}
		if i < 0 {
			return nil, "", 0, false
		}
	}
}

// decodeObject reads raw, a JSON object, into its members, by the fast path
// when it can and by encoding/json when it cannot; both find the same
// duplicate key (the first key that appears twice) and the offset where its
// second occurrence starts (-1: none). err is encoding/json's when raw
// is not JSON; a JSON value that is not an object gives m nil and no error.
func decodeObject(raw []byte) (m map[string]json.RawMessage, dup string, dupAt int, err error) {
	if m, dup, dupAt, ok := splitObjectDup(raw); ok {
		return m, dup, dupAt, nil
	}
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, "", -1, err
	}
	dup, dupAt = firstDuplicateKey(raw)
	return m, dup, dupAt, nil
}

// firstDuplicateKey returns the first key of raw, a valid JSON object, that
// appears a second time at its top level (keys compared once unescaped, as
// encoding/json compares them) and the offset where that occurrence starts;
// -1 when no key appears twice.
func firstDuplicateKey(raw []byte) (string, int) {
	d := json.NewDecoder(bytes.NewReader(raw))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return "", -1
	}
	seen := map[string]bool{}
	for d.More() {
		// The key starts after what precedes it: spaces and a comma.
		at := int(d.InputOffset())
		for at < len(raw) && (raw[at] == ',' || raw[at] == ' ' || raw[at] == '\t' || raw[at] == '\n' || raw[at] == '\r') {
			at++
		}
		t, err := d.Token()
		if err != nil {
			return "", -1
		}
		key, _ := t.(string)
		if seen[key] {
			return key, at
		}
		seen[key] = true
		var skip json.RawMessage
		if d.Decode(&skip) != nil {
			return "", -1
		}
	}
	return "", -1
}

// splitArray splits b, a JSON array, into its elements.
func splitArray(b []byte) (out []json.RawMessage, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return nil, false
	}
	out = []json.RawMessage{}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return out, skipSpace(b, i+1) == len(b)
	}
	for {
		end := skipValue(b, i, 0)
		if end < 0 {
			return nil, false
		}
		out = append(out, b[i:end:end])
		var done bool
		if i, done = afterElement(b, end, ']'); done {
			return out, skipSpace(b, i) == len(b)
		}
		if i < 0 {
			return nil, false
		}
	}
}

// quickString reads raw, a JSON string, as encoding/json would, making the
// string once: encoding/json unquotes a string with escapes into a buffer
// of its own and copies that into the string (twice the size of a text
// of 16 MiB, beside the line it is read from). ok is false for what it
// leaves to encoding/json: not a string, or invalid UTF-8 (which
// encoding/json replaces).
func quickString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	end, plain := scanString(raw, 0)
	if end != len(raw) {
		return "", false
	}
	if plain {
		return string(raw[1 : len(raw)-1]), true
	}
	return jsontext.Unescape(raw[1 : len(raw)-1])
}

// decodeString is json.Unmarshal(raw, s), quicker, and with one copy of
// the string.
func decodeString(raw []byte, s *string) error {
	if v, ok := quickString(raw); ok {
		*s = v
		return nil
	}
	return json.Unmarshal(raw, s)
}

func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// maxDepth bounds nesting, below encoding/json's own limit (10000).
const maxDepth = 1000

// skipValue returns the end of the JSON value starting at b[i], -1 when it
// is not valid JSON (or not one this fast path takes).
func skipValue(b []byte, i, depth int) int {
	if i >= len(b) || depth > maxDepth {
		return -1
	}
	switch c := b[i]; {
	case c == '"':
		end, _ := scanString(b, i)
		return end
	case c == '{':
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == '}' {
			return i + 1
		}
		for {
			if i >= len(b) || b[i] != '"' {
				return -1
			}
			end, _ := scanString(b, i)
			if end < 0 {
				return -1
			}
			i = skipSpace(b, end)
			if i >= len(b) || b[i] != ':' {
				return -1
			}
			if i = skipValue(b, skipSpace(b, i+1), depth+1); i < 0 {
				return -1
			}
			var done bool
			if i, done = afterElement(b, i, '}'); done || i < 0 {
				return i
			}
		}
	case c == '[':
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == ']' {
			return i + 1
		}
		for {
			if i = skipValue(b, i, depth+1); i < 0 {
				return -1
			}
			var done bool
			if i, done = afterElement(b, i, ']'); done || i < 0 {
				return i
			}
		}
	case c == 't':
		return literal(b, i, "true")
	case c == 'f':
		return literal(b, i, "false")
	case c == 'n':
		return literal(b, i, "null")
	case c == '-' || c >= '0' && c <= '9':
		return scanNumber(b, i)
	}
	return -1
}

func literal(b []byte, i int, word string) int {
	if len(b)-i < len(word) || string(b[i:i+len(word)]) != word {
		return -1
	}
	return i + len(word)
}

// scanNumber returns the end of the number at b[i] (RFC 8259's grammar).
func scanNumber(b []byte, i int) int {
	if b[i] == '-' {
		i++
	}
	digits := func() bool {
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i > start
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case !digits():
		return -1
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			return -1
		}
	}
	return i
}

// scanString returns the end of the string at b[i] (after its closing
// quote) and whether it has no escape; -1 when it is not a valid JSON
// string: a control character, a bad escape, invalid UTF-8 (encoding/json
// would replace it), or no end.
func scanString(b []byte, i int) (end int, plain bool) {
	plain = true
	for i++; i < len(b); {
		c := b[i]
		switch {
		case c == '"':
			return i + 1, plain
		case c < 0x20:
			return -1, false
		case c == '\\':
			plain = false
			if i+1 >= len(b) {
				return -1, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) {
					return -1, false
				}
				for _, h := range b[i+2 : i+6] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return -1, false
					}
				}
				i += 6
			default:
				return -1, false
			}
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				return -1, false
			}
			i += n
		}
	}
	return -1, false
}

// afterElement reads what follows an element of an object or an array: a
// comma (it returns where the next element starts) or the closing byte
// (done: it returns the index after it); -1 for anything else.
func afterElement(b []byte, i int, closing byte) (next int, done bool) {
	i = skipSpace(b, i)
	switch {
	case i >= len(b):
		return -1, false
	case b[i] == ',':
		return skipSpace(b, i+1), false
	case b[i] == closing:
		return i + 1, true
	}
	return -1, false
}
