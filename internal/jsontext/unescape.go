package jsontext

import (
	"encoding/binary"
	"math/bits"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// The one reader of JSON strings of the fast paths (the importer's lines,
// a restore's lines, a backup's rows packed by SQLite's json_array), each
// of which hands what it declines to encoding/json.

// AppendUnescaped appends the text of s, the inside of a JSON string (the
// bytes between its quotes), as encoding/json's Unmarshal reads it: the
// short escapes (\" \\ \/ \b \f \n \r \t), \uXXXX, a surrogate pair
// written as two \u escapes as the one character, and half a pair not
// followed by the other half as U+FFFD. ok is false when s is not the
// inside of a JSON string: a control character, a quote not escaped, an
// escape JSON does not have, a \u without four hexadecimal digits, or a
// backslash at the end (what it appended is then to be dropped).
//
// Bytes outside escapes are copied as they are: encoding/json replaces
// each byte of invalid UTF-8 by U+FFFD, so a caller that wants its string
// either checks UTF-8 first (utf8.Valid) or writes the text again with
// AppendString, which replaces them as encoding/json's Marshal does.
func AppendUnescaped(b, s []byte) ([]byte, bool) {
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			if c < 0x20 || c == '"' {
				return b, false
			}
			j := i + 1
			// Eight bytes at a time up to the first stop (most of a text
			// is runs), then a byte at a time at the end.
			for j+8 <= len(s) {
				if m := stopMask(binary.LittleEndian.Uint64(s[j:])); m != 0 {
					j += bits.TrailingZeros64(m) / 8
					break
				}
				j += 8
			}
			for j < len(s) && !stops[s[j]] {
				j++
			}
			b = append(b, s[i:j]...)
			i = j
			continue
		}
		if i+1 >= len(s) {
			return b, false
		}
		c = s[i+1]
		i += 2
		switch c {
		case '"', '\\', '/':
			b = append(b, c)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := hex4(s, i)
			if !ok {
				return b, false
			}
			i += 4
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
					r2, _ = hex4(s, i+2)
				}
				if pair := utf16.DecodeRune(r, r2); pair != unicode.ReplacementChar {
					r = pair
					i += 6
				} else {
					r = unicode.ReplacementChar
				}
			}
			b = utf8.AppendRune(b, r)
		default:
			return b, false
		}
	}
	return b, true
}

// AppendUnescapedString is AppendUnescaped of a string, not copied.
func AppendUnescapedString(b []byte, s string) ([]byte, bool) {
	return AppendUnescaped(b, unsafe.Slice(unsafe.StringData(s), len(s)))
}

// Unescape is AppendUnescaped into a string of its own, made once (the
// importer reads texts of many megabytes).
func Unescape(s []byte) (string, bool) {
	b, ok := AppendUnescaped(make([]byte, 0, len(s)), s) // an escape is never shorter than what it stands for
	if !ok || len(b) == 0 {
		return "", ok
	}
	// b is this function's own and is not written again: the string may
	// hold its bytes, as strings.Builder's String does.
	return unsafe.String(unsafe.SliceData(b), len(b)), true
}

// stops are the bytes that end a run copied as it is: a backslash, and
// what a JSON string holds only escaped.
var stops = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['\\'], t['"'] = true, true
	return t
}()

// stopMask has the top bit set of the first byte of x (in memory order)
// that is a stop, and maybe of bytes after it, none before: a byte equal to
// '"' or '\\' leaves a zero byte in x xor that byte repeated, and a byte v
// has v - c borrow into its top bit, with the top bit of v clear, when v <
// c (for c ≤ 0x80); a borrow only runs upward, past the first such byte.
func stopMask(x uint64) uint64 {
	const ones, tops = 0x0101010101010101, 0x8080808080808080
	q, bs := x^(ones*'"'), x^(ones*'\\')
	return ((q-ones)&^q | (bs-ones)&^bs | (x-ones*0x20)&^x) & tops
}

// hex4 reads the four hexadecimal digits of s at i; ok is false when
// there are not four.
func hex4(s []byte, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for k := i; k < i+4; k++ {
		c := s[k]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
