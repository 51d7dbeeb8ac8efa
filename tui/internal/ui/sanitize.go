package ui

import (
	"strings"
	"unicode/utf8"
)

// Sanitize makes text from imported files inert before it is displayed: an
// escape sequence, a control character or a bidirectional override can never
// move the cursor, change colours or reorder the screen. Control characters
// become their visible "control picture" (ESC shows as ␛, BEL as ␇, CR as ␍),
// C1 controls, invalid UTF-8 and bidi controls become "�". Newlines are kept
// (the wrapper breaks on them); a tab becomes a space.
func Sanitize(s string) string {
	if isPlain(s) {
		return frenchSpacing(s)
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
		case r == '\n':
			b.WriteByte('\n')
		case r == '\t':
			b.WriteByte(' ')
		case r < 0x20:
			b.WriteRune(0x2400 + r) // ␀ … ␟, ␛ for ESC
		case r == 0x7f:
			b.WriteRune('\u2421') // ␡
		case r >= 0x80 && r <= 0x9f:
			b.WriteRune('\uFFFD') // C1 controls, including CSI (0x9b)
		case r == '\u2028' || r == '\u2029':
			b.WriteByte('\n')
		case isBidiControl(r):
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return frenchSpacing(b.String())
}

// frenchSpacing glues guillemets and high punctuation to their word with a
// no-break space, as French typography does, so that a line never starts
// with "»" or ":" nor ends with "«" ("« conformément »", "article 8 :").
var frenchSpacing = strings.NewReplacer("« ", "«\u00a0", " »", "\u00a0»", " :", "\u00a0:", " ;", "\u00a0;",
	" !", "\u00a0!", " ?", "\u00a0?").Replace

// SanitizeLine is Sanitize for text shown on one line (ids, names, inputs):
// a newline shows as ␤.
func SanitizeLine(s string) string {
	return strings.ReplaceAll(Sanitize(s), "\n", "\u2424")
}

// isPlain reports whether s is printable ASCII plus newlines (the fast path).
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 || (c < 0x20 && c != '\n') || c == 0x7f {
			return false
		}
	}
	return true
}

func isBidiControl(r rune) bool {
	return (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') || r == '\u061c'
}

// cleanInput makes typed or pasted text one line of plain text: newlines
// and tabs become spaces; control characters, bidirectional formatting and
// invalid UTF-8 are dropped.
func cleanInput(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size <= 1:
		case r == '\n' || r == '\r' || r == '\t' || r == '\u2028' || r == '\u2029':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || isBidiControl(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
