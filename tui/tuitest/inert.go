package tuitest

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/annotate-dev/annotate/internal/textsafe"
)

// Hostile is data that would drive a terminal if it reached one raw: the
// 256-colour SGR of issue 16 (a query's issue turned the screen pink), a
// screen clear, an OSC that sets the title, an OSC 8 hyperlink, an OSC 52
// clipboard write, BEL, CR, BS, DEL, a C1 CSI as a character and as a raw
// byte (invalid UTF-8), bidirectional overrides, isolates and marks, and the
// line and paragraph separators.
const Hostile = "pink\x1b[38;5;201m PINK \x1b[2J clear \x1b]0;title\x07 \x1b]8;;http://x.test\x1b\\link\x1b]8;;\x1b\\ " +
	"\x1b]52;c;cHduZWQ=\x07 bell\x07 cr\r bs\x08 del\x7f c1\u009b31m raw\x9b31m rlo\u202eabc\u202c iso\u2067x\u2069 " +
	"rlm\u200f ls\u2028ps\u2029 end"

// sgr matches the styling sequences the screens' own styles write; any
// other escape in a rendering came from data.
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// NotInert says what in a rendering could drive a terminal ("" : nothing).
func NotInert(raw string) string {
	if strings.Contains(raw, "\x1b[38;5;201m") {
		return "the data's SGR \\e[38;5;201m"
	}
	rest := sgr.ReplaceAllString(raw, "")
	for i := 0; i < len(rest); {
		r, size := utf8.DecodeRuneInString(rest[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return fmt.Sprintf("the byte %#x (not UTF-8) at %d", rest[i], i)
		case r == 0x1b:
			return fmt.Sprintf("an escape sequence %q that is no style", rest[i:min(len(rest), i+12)])
		case r < 0x20 && r != '\n', r == 0x7f, textsafe.IsC1(r):
			return fmt.Sprintf("the control character %U", r)
		case textsafe.IsBidiControl(r), r == '\u2028', r == '\u2029':
			return fmt.Sprintf("the character %U", r)
		}
		i += size
	}
	return ""
}
