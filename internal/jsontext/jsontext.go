// Package jsontext is the one writer of JSON strings of hand-built JSON
// texts (a backup's rows, a run's chunk ids, an id list handed to SQLite's
// json_each): the bytes encoding/json writes, without its allocations.
package jsontext

import (
	"strconv"
	"unicode/utf8"
)

const hex = "0123456789abcdef"

// AppendString appends s as a JSON string, byte for byte as encoding/json's
// Marshal writes it: ", \ and the control characters escaped (\n, \r, \t,
// the others as \u00XX), <, > and & as \u003c, \u003e and \u0026, the line
// and paragraph separators as \u2028 and \u2029, and a byte that is not
// UTF-8 as \ufffd.
func AppendString[S ~string | ~[]byte](b []byte, s S) []byte { return appendString(b, s, true) }

// AppendStringNoHTML is AppendString with <, > and & left as they are, byte
// for byte as an encoding/json Encoder writes it after SetEscapeHTML(false):
// the exports' rows, which data tools read, not browsers.
func AppendStringNoHTML[S ~string | ~[]byte](b []byte, s S) []byte { return appendString(b, s, false) }

func appendString[S ~string | ~[]byte](b []byte, s S, html bool) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!html || c != '<' && c != '>' && c != '&') {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		// At most four bytes converted: a conversion this short is made
		// on the stack, so a []byte costs no allocation either.
		r, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// Strings is v as a JSON array of strings ([] for none).
func Strings(v []string) string {
	b := []byte{'['}
	for i, s := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendString(b, s)
	}
	return string(append(b, ']'))
}

// Ints is v as a JSON array of integers ([] for none).
func Ints(v []int64) string {
	b := []byte{'['}
	for i, n := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, n, 10)
	}
	return string(append(b, ']'))
}
