// Package textsafe makes data strings inert before they reach a terminal: an
// annotator name, an item id or a source name read from an imported file can
// never move the cursor, change the window title, ring the bell or reorder
// the line. The annotation screens (package tui) and every output of the
// command line (cmd/annotate) use the same rules, defined here once.
//
// Text rules: a C0 control character shows as its Unicode "control picture"
// (ESC as ␛, BEL as ␇, CR as ␍), DEL as ␡; C1 controls (U+0080–U+009F,
// including the one-byte CSI U+009B), bidirectional controls (every
// character of Unicode's Bidi_Control property: embeddings, overrides,
// isolates and the LRM, RLM and ALM marks) and invalid UTF-8 as "�"; the
// line and paragraph separators U+2028 and U+2029 as "␤" (they are not line
// breaks of the output: a terminal or pager that took them for one would
// break a line where the program did not). Newline and tab are kept; a CR
// just before a newline (CRLF) is dropped.
package textsafe

import (
	"strings"
	"unicode/utf8"
)

// Text returns s with the rules above applied.
func Text(s string) string {
	if plain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune('\uFFFD')
		case r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// CRLF: the CR carries no meaning of its own.
		case r == '\n' || r == '\t':
			b.WriteByte(byte(r))
		case r < 0x20:
			b.WriteRune(0x2400 + r) // ␀ … ␟, ␛ for ESC
		case r == 0x7f:
			b.WriteRune('\u2421') // ␡
		case IsC1(r):
			b.WriteRune('\uFFFD')
		case r == '\u2028' || r == '\u2029':
			b.WriteRune('\u2424') // ␤
		case IsBidiControl(r):
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// plain reports whether s is printable ASCII plus newlines and tabs, which
// Text leaves as it is (the fast path).
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 || (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}

// IsC1 reports whether r is a C1 control character (U+0080–U+009F). Some
// terminals obey them even UTF-8 encoded: U+009B is a CSI, U+009D an OSC.
func IsC1(r rune) bool { return r >= 0x80 && r <= 0x9f }

// IsBidiControl reports whether r is a bidirectional formatting character
// (Unicode's Bidi_Control property), which can make a line read differently
// from its bytes.
func IsBidiControl(r rune) bool {
	return (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') || r == '\u061c' || r == '\u200e' || r == '\u200f'
}
