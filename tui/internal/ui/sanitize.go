package ui

import (
	"strings"
	"unicode/utf8"

	"github.com/annotate-dev/annotate/internal/textsafe"
)

// Text is text that is inert on a terminal: a constant of the program, or
// data (anything read from a file, the database or an annotator) made inert
// by Data or DataLine. The renderers of data (Labelled, WrapStyled,
// WrapStyledAt, the item renderings built on them) take a Text, so they
// cannot be handed a raw string: a string variable does not convert to Text
// implicitly, and converting one with Text(…) anywhere but in this file is
// refused by TestNoRawTextConversion. Texts concatenate with + (and with
// constants); a TextBuilder assembles one piece by piece.
type Text string

// Data makes data inert for a multi-line rendering (Sanitize).
func Data(s string) Text { return Text(Sanitize(s)) }

// DataLine makes data inert for a rendering on one line (SanitizeLine).
func DataLine(s string) Text { return Text(SanitizeLine(s)) }

// TextBuilder assembles a Text from Texts (Data, DataLine, constants).
type TextBuilder struct{ b strings.Builder }

// Add appends t.
func (b *TextBuilder) Add(t Text) { b.b.WriteString(string(t)) }

// Len is the length in bytes of what was added (for spans).
func (b *TextBuilder) Len() int { return b.b.Len() }

// Text is what was added.
func (b *TextBuilder) Text() Text { return Text(b.b.String()) }

// Sanitize makes text from imported files inert before it is displayed, by
// the rules every output of annotate shares (internal/textsafe: an escape
// sequence, a control character or a bidirectional override can never move
// the cursor, change colours or reorder the screen). On screen a tab becomes
// a space, and French spacing is applied.
func Sanitize(s string) string {
	return frenchSpacing(strings.ReplaceAll(textsafe.Text(s), "\t", " "))
}

// frenchSpacing glues guillemets and high punctuation to their word with a
// no-break space, so a line never starts with "»" or "?".
var frenchSpacing = strings.NewReplacer("« ", "«\u00a0", " »", "\u00a0»", " :", "\u00a0:", " ;", "\u00a0;",
	" !", "\u00a0!", " ?", "\u00a0?").Replace

// SanitizeLine is Sanitize for text shown on one line (ids, names, inputs):
// a newline shows as ␤.
func SanitizeLine(s string) string {
	return strings.ReplaceAll(Sanitize(s), "\n", "\u2424")
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
		case r < 0x20 || r == 0x7f || textsafe.IsC1(r) || textsafe.IsBidiControl(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
