package guidelines

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/annotate-dev/annotate/internal/smallfile"
	"github.com/annotate-dev/annotate/internal/suggest"
)

// Parsed is one field's section read from a guidelines file.
type Parsed struct {
	Field string
	Text  string // the section, its heading included, ending in one newline
	Line  int    // line of its heading
}

// ParseError is a guidelines file that cannot be imported: the file, the
// line, the field (if one is named) and why.
type ParseError struct {
	File  string
	Line  int
	Field string
	Msg   string
}

func (e *ParseError) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("%s:%d: field %q: %s", e.File, e.Line, e.Field, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// heading is a field's section heading, as the embedded sections begin:
// "## name — title" (or "## name" alone), the name in lower case with
// underscores. The introduction's headings ("## Keys", "## What you will
// see") are capitalised or several words, so they are not fields.
var heading = regexp.MustCompile(`^##\s+([a-z][a-z0-9_]*)\s*(?:$|[—–-]\s)`)

// Parse reads a guidelines file in the format `annotate guidelines` prints:
// one "## field — title" section per field, each running to the next such
// heading. What comes before the first section (the introduction, an HTML
// comment) is not a field and is left out; headings inside ``` fences do not
// count. A section naming no known field, a field given twice, a section
// with nothing under its heading, invalid UTF-8 or a file with no section at
// all is an error naming the file and the line.
func Parse(file string, data []byte) ([]Parsed, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if !utf8.Valid(data) {
		line := 1 + bytes.Count(data[:firstInvalid(data)], []byte("\n"))
		return nil, &ParseError{File: file, Line: line, Msg: "invalid UTF-8"}
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	var out []Parsed
	var body []string
	seen := map[string]int{}
	flush := func() error {
		if len(out) == 0 {
			return nil
		}
		p := &out[len(out)-1]
		text := strings.TrimRight(strings.Join(body, "\n"), " \t\n")
		if strings.TrimSpace(text[strings.IndexByte(text+"\n", '\n'):]) == "" {
			return &ParseError{File: file, Line: p.Line, Field: p.Field, Msg: "the section is empty: write the guidelines under its heading"}
		}
		if len(text) > MaxSection {
			return &ParseError{File: file, Line: p.Line, Field: p.Field, Msg: fmt.Sprintf("the section is %.1f MiB, over the %d MiB limit of a section", float64(len(text))/(1<<20), MaxSection>>20)}
		}
		p.Text = text + "\n"
		return nil
	}
	fence := false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = !fence
		}
		m := heading.FindStringSubmatch(l)
		if fence || m == nil {
			if len(out) > 0 {
				body = append(body, l)
			}
			continue
		}
		name := m[1]
		if !slices.Contains(Fields(), name) {
			return nil, &ParseError{File: file, Line: i + 1, Field: name,
				Msg: "no such field" + suggest.Hint(name, Fields()) + " (fields: " + strings.Join(Fields(), ", ") + ")"}
		}
		if at, dup := seen[name]; dup {
			return nil, &ParseError{File: file, Line: i + 1, Field: name, Msg: fmt.Sprintf("a second section (the first is on line %d)", at)}
		}
		if err := flush(); err != nil {
			return nil, err
		}
		seen[name] = i + 1
		out = append(out, Parsed{Field: name, Line: i + 1})
		body = []string{l}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, &ParseError{File: file, Line: 1, Msg: `no field section: each field's guidelines start with a heading "## FIELD — title"`}
	}
	return out, nil
}

// MaxFile bounds a guidelines file, MaxSection one field's section: far
// above any guidelines a team writes, low enough that a runaway file is
// refused before it takes memory.
const (
	MaxFile    = 4 << 20
	MaxSection = 1 << 20
)

// ReadFile reads a guidelines file of at most MaxFile bytes; a longer one
// is refused naming the section where it passes the limit.
func ReadFile(path string) ([]byte, error) {
	data, err := smallfile.Read(path, MaxFile)
	var tb *smallfile.TooBig
	if !errors.As(err, &tb) {
		return data, err
	}
	line, field := 1, ""
	for i, l := range strings.Split(string(tb.Prefix), "\n") {
		if m := heading.FindStringSubmatch(l); m != nil {
			line, field = i+1, m[1]
		}
	}
	msg := fmt.Sprintf("the file is %.1f MiB, over the %d MiB limit of a guidelines file", float64(tb.Size)/(1<<20), MaxFile>>20)
	if field != "" {
		msg += " (this section runs past it)"
	}
	return nil, &ParseError{File: path, Line: line, Field: field, Msg: msg}
}

func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}
