package textsafe

import (
	"fmt"
	"io"
	"unicode/utf8"
)

// Writer applies the rules to everything written through it, so that a
// program can route all its output through one place and no command can
// forget to sanitise a string. A rune cut between two writes (a buffered
// writer flushing mid-character) is held back until its end arrives; Flush
// writes out whatever is held when the output ends.
//
// In JSON mode (JSON returns true) the writer carries JSON documents made by
// encoding/json, which already writes C0 controls as \u escapes and invalid
// UTF-8 as U+FFFD but leaves C1 and bidirectional controls, U+2028/U+2029
// excepted, as raw UTF-8. The writer writes every control character (C0
// other than newline and tab, DEL, C1, U+2028, U+2029 and the bidirectional
// controls) as a \uXXXX escape instead: inside a JSON string that is the same
// value, so a program reading the output sees exactly the data, while the
// bytes reaching a terminal are inert. encoding/json never writes those
// characters outside a string, so the document stays valid JSON.
type Writer struct {
	W    io.Writer
	JSON func() bool // nil: text mode
	held []byte      // the first bytes of a rune cut by the last write
}

// Write sanitises p and writes it; it reports len(p) on success, since the
// held bytes will be written by a later call.
func (w *Writer) Write(p []byte) (int, error) {
	buf := p
	if len(w.held) > 0 {
		buf = append(w.held, p...)
		w.held = nil
	}
	cut := incompleteTail(buf)
	if cut < len(buf) {
		w.held = append([]byte(nil), buf[cut:]...)
		buf = buf[:cut]
	}
	var out string
	if w.JSON != nil && w.JSON() {
		out = inertJSON(string(buf))
	} else {
		out = Text(string(buf))
	}
	if _, err := io.WriteString(w.W, out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes the bytes held back at the end of the output (an incomplete
// rune, shown as "�").
func (w *Writer) Flush() error {
	if len(w.held) == 0 {
		return nil
	}
	w.held = nil
	_, err := io.WriteString(w.W, "\uFFFD")
	return err
}

// incompleteTail returns where a rune that starts within the last three bytes
// of b and is cut short begins, or len(b).
func incompleteTail(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-3; i-- {
		c := b[i]
		if c < 0x80 {
			return len(b) // ASCII: nothing cut
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			return len(b)
		}
	}
	return len(b)
}

// inertJSON writes the control characters of a JSON text as \u escapes. It
// writes no JSON string (encoding/json and internal/jsontext wrote them): it
// rewrites, inside the strings of a finished document, the characters JSON
// allows raw and a terminal would obey.
func inertJSON(s string) string {
	var b []byte
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		escape := (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || IsC1(r) ||
			r == '\u2028' || r == '\u2029' || IsBidiControl(r)
		if r == utf8.RuneError && size <= 1 {
			escape = true
			r = '\uFFFD'
		}
		if escape {
			if b == nil {
				b = append(make([]byte, 0, len(s)+16), s[:i]...)
			}
			b = fmt.Appendf(b, `\u%04x`, r)
		} else if b != nil {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	if b == nil {
		return s
	}
	return string(b)
}
