// Package names holds the one rule for annotator names, applied on every
// path that creates an annotator: the command line (--as, --assign,
// annotator add and set), every import format, and annotate serve's
// authorized_keys comments. A name is what labels are recorded under and
// what every report prints back, so it must be printable, one word, and
// free of the characters that separate the names of a list.
package names

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/internal/suggest"
	"github.com/annotate-dev/annotate/internal/textsafe"
)

// Separators are the characters that separate the names of a list
// (--assign jo,sam; "Agreement between jo, sam"), which a name never holds.
const Separators = ",;"

// Error says why a name is not one.
type Error struct {
	Name string
	Why  string     // in English; SayIn says it in a reader's language
	why  lang.Sayer // the catalog's message
}

// bad is the Error of a name, why a message of the catalog (lang.Key).
func bad(name, why string, args ...any) *Error {
	w := lang.Phrase(why, args...)
	return &Error{Name: name, Why: w.SayIn(nil), why: w}
}

func (e *Error) Error() string { return e.SayIn(nil) }

// SayIn is the error in a reader's language (lang.Say).
func (e *Error) SayIn(l *lang.Printer) string {
	// %+q shows an offending character as an escape, never raw.
	return l.Sprintf("%+q is not a name: %s", e.Name, e.why.SayIn(l))
}

// Check refuses what cannot be an annotator's name: nothing, invalid UTF-8,
// a space, a list separator, a control, bidirectional or invisible
// formatting character (anything unicode.IsPrint refuses).
func Check(name string) error {
	if name == "" {
		return bad(name, lang.Key("a name cannot be empty"))
	}
	if strings.TrimSpace(name) == "" {
		return bad(name, lang.Key("a name cannot be blank"))
	}
	for i, pos := 0, 1; i < len(name); pos++ {
		r, size := utf8.DecodeRuneInString(name[i:])
		i += size
		// The character's code is said as fmt says it, %U: an id, not a
		// number a language writes its own way.
		code := fmt.Sprintf("%U", r)
		switch {
		case r == utf8.RuneError && size == 1:
			return bad(name, lang.Key("it is not valid UTF-8 (character %d)"), pos)
		case strings.ContainsRune(Separators, r):
			return bad(name, lang.Key("it holds %q, which separates the names of a list (jo,sam) (character %d)"), r, pos)
		case textsafe.IsBidiControl(r):
			return bad(name, lang.Key("it holds the bidirectional control %s, which reorders text on a terminal (character %d)"), code, pos)
		case r == '\u2028' || r == '\u2029':
			return bad(name, lang.Key("it holds the line or paragraph separator %s (character %d)"), code, pos)
		case unicode.IsControl(r):
			return bad(name, lang.Key("it holds the control character %s (character %d)"), code, pos)
		case unicode.IsSpace(r):
			return bad(name, lang.Key("it holds a space: a name is one word (jo, sam.k, jo_smith) (character %d)"), pos)
		case !unicode.IsPrint(r):
			return bad(name, lang.Key("it holds %s, which does not print (character %d)"), code, pos)
		}
	}
	return nil
}

// CloseError refuses a new name close to known ones: probably a typo.
type CloseError struct {
	Name    string
	Matches []string // the known names it is close to
}

func (e *CloseError) Error() string { return e.SayIn(nil) }

// SayIn is the error in a reader's language (lang.Say).
func (e *CloseError) SayIn(l *lang.Printer) string {
	q := make(lang.OrList, len(e.Matches))
	for i, m := range e.Matches {
		q[i] = strconv.Quote(m)
	}
	return l.Sprintf("no annotator %q yet; did you mean %s? (to create %q on purpose: annotate annotator add %s)",
		e.Name, q.SayIn(l), e.Name, ShellWord(e.Name))
}

// Close lists the known names a new name is probably a typo of: the same
// in another case, or within 2 edits (1 for names of 2 or 3 characters:
// "jo" and "al" are two people, "jo" and "joe" may be one). Numbered
// names that differ only in their numbers ("a1" and "a2", "expert-1" and
// "expert-12") are a series on purpose, not typos of each other.
func Close(name string, known []string) []string {
	var out []string
	for _, k := range suggest.Close(name, known, suggest.Edits(name)) {
		if !numberedSiblings(name, k) {
			out = append(out, k)
		}
	}
	return out
}

// numberedSiblings reports whether a and b hold digits and are the same
// once their digits are taken out (case aside), with different numbers.
func numberedSiblings(a, b string) bool {
	skeleton := func(s string) (rest, digits string) {
		var r, d strings.Builder
		for _, c := range s {
			if c >= '0' && c <= '9' {
				d.WriteRune(c)
				r.WriteRune('#') // where a number stands
			} else {
				r.WriteRune(unicode.ToLower(c))
			}
		}
		return r.String(), d.String()
	}
	ra, da := skeleton(a)
	rb, db := skeleton(b)
	collapse := func(s string) string {
		for strings.Contains(s, "##") {
			s = strings.ReplaceAll(s, "##", "#")
		}
		return s
	}
	return da != "" && db != "" && da != db && collapse(ra) == collapse(rb)
}

// New checks a name about to be created without being asked for on
// purpose: Check, then refused with a *CloseError when it is close to a
// known name. A known name is fine. Only `annotate annotator add` creates a
// close name, on purpose.
func New(name string, known []string) error {
	if err := Check(name); err != nil {
		return err
	}
	for _, k := range known {
		if k == name {
			return nil
		}
	}
	if m := Close(name, known); len(m) > 0 {
		return &CloseError{Name: name, Matches: m}
	}
	return nil
}

// Rule applies New to a stream of names, each one accepted becoming known:
// an import that brings "jo" and "Jo", both new, is refused on the second.
type Rule struct {
	known []string
	seen  map[string]bool
}

// NewRule starts from the annotators the database knows.
func NewRule(known []string) *Rule {
	r := &Rule{seen: map[string]bool{}}
	for _, k := range known {
		r.add(k)
	}
	return r
}

func (r *Rule) add(name string) {
	if !r.seen[name] {
		r.seen[name] = true
		r.known = append(r.known, name)
	}
}

// Take checks name (a map lookup once it is known) and makes it known.
func (r *Rule) Take(name string) error {
	if r.seen[name] {
		return nil
	}
	if err := New(name, r.known); err != nil {
		return err
	}
	r.add(name)
	return nil
}

// ShellWord quotes a name for a command line when it needs it.
func ShellWord(s string) string {
	for _, r := range s {
		if !(r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}
