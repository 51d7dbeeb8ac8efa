package exporter

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/annotate-dev/annotate/internal/textsafe"
)

// The one layer through which a string from the data or the flags
// (annotator, source, run and system names, label values, the guidelines'
// authors, --name, --contact…) reaches the dataset card. The Hub renders
// the card's body as Markdown with HTML and its header as YAML, so a name
// must never become a link, an image, raw HTML, a heading, a list, a table
// cell or a header key: every section writes data through md, cell, code,
// cellCode or fenced, and the header through yamlString.

// mdEscaped are the characters that can start Markdown or HTML inside a
// line: emphasis, code spans, links, images and footnotes (the bracket),
// raw HTML and entities, table cells, strikethrough, math, emoji shortcodes
// and the autolinks of URLs (the colon of "https:") and e-mail addresses.
// A backslash before any ASCII punctuation shows the character itself.
const mdEscaped = "\\`*_{}[]<>#|~&$:@"

// md escapes a data string for Markdown text, anywhere in a line: the
// characters of mdEscaped are backslash-escaped, the dot of "www." too (a
// bare domain becomes a link on the Hub), a line break or control character
// becomes a space, and what would open a block at the start of a line (a
// list's "-", "+" or "1.", a heading's "=" underline, four spaces of code)
// is escaped or trimmed. Markdown drops the spaces around a line anyway,
// so trimming them changes nothing shown. The value shows as stored and
// cannot change the document around it.
func md(s string) string {
	s = strings.TrimSpace(strings.Map(spaceControls, s))
	var b strings.Builder
	digits := 0 // leading digits: "1." or "1)" would open an ordered list
	for i, r := range s {
		switch {
		case strings.ContainsRune(mdEscaped, r),
			i == 0 && strings.ContainsRune("-+=", r),
			i == digits && digits > 0 && (r == '.' || r == ')') && (i+1 == len(s) || s[i+1] == ' '),
			r == '.' && i >= 3 && strings.EqualFold(s[i-3:i], "www"):
			b.WriteByte('\\')
		}
		if i == digits && r >= '0' && r <= '9' {
			digits++
		}
		b.WriteRune(r)
	}
	return b.String()
}

// cell keeps a data value inside one Markdown table cell: md escapes the
// pipe that would end it.
func cell(s string) string { return md(s) }

// docCell keeps the card's own text (which may use Markdown) in one cell.
func docCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// code writes s as an inline code span, with a fence longer than any run of
// backticks in it: inside it nothing is Markdown or HTML, and it shows s
// exactly (control characters as spaces). Outside a table
// only; cellCode is the one for a table cell.
func code(s string) string {
	s = strings.Map(spaceControls, s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	// Markdown takes one space off each end of a span that has both (so
	// that a span can start or end with a backtick): pad to keep them.
	if strings.TrimSpace(s) != "" && strings.ContainsAny(s[:1]+s[len(s)-1:], "` ") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// cellCode is code inside a table cell: a table splits its rows at every
// pipe, even inside a code span, unless the pipe is escaped (the table
// takes the backslash away again).
func cellCode(s string) string { return strings.ReplaceAll(code(s), "|", `\|`) }

// fenced writes text as a fenced code block with the given info string: a
// fence longer than any run of backticks in it, so no line of it can close
// the block; control characters but line feeds and tabs become spaces (a
// carriage return would end a line).
func fenced(text, info string) string {
	text = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return r
		}
		return spaceControls(r)
	}, text)
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return fence + info + "\n" + text + fence + "\n"
}

// spaceControls maps a control or bidirectional formatting character to a
// space (strings.Map also turns invalid UTF-8 into U+FFFD).
func spaceControls(r rune) rune {
	if unicode.IsControl(r) || textsafe.IsBidiControl(r) {
		return ' '
	}
	return r
}

// yamlString writes s as a YAML double-quoted scalar that reads back as s
// in YAML 1.1 and 1.2 parsers alike (PyYAML, the Hub's and yaml.v3): the
// quote and the backslash are escaped, and so is every character YAML does
// not allow in a document or reads as a line break (C0 and C1 controls,
// DEL, NEL, U+2028, U+2029, the byte-order mark, U+FFFE and U+FFFF). Bytes
// that are not UTF-8 cannot be YAML at all: they become U+FFFD.
func yamlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20, r >= 0x7f && r < 0xa0, r == 0x2028, r == 0x2029, r == 0xfeff, r == 0xfffe, r == 0xffff:
			b.WriteString(`\u`)
			h := strconv.FormatInt(int64(r), 16)
			b.WriteString(strings.Repeat("0", 4-len(h)) + h)
		default:
			b.WriteRune(r) // an invalid byte decodes as U+FFFD, written as such
		}
	}
	b.WriteByte('"')
	return b.String()
}
