// Package emailmap reads the file that maps annotators to the e-mail
// addresses of their Label Studio accounts (`export --format label-studio
// --email-map FILE`, and the same file on import): Label Studio names the
// author of an annotation by the e-mail of a member of the organization
// and refuses an address it does not know.
//
// One annotator per line, the name then the address, separated by spaces or
// a tab (the address is the line's last word, so a name may hold spaces):
//
//	# annotator  e-mail
//	jo           jo.tremblay@firm.example
//	sam          s.roy@firm.example
//
// Blank lines and lines starting with # are skipped. Anything else that is
// not such a line, an address that is not one, a name or an address given
// twice, is an error naming the file and the line.
package emailmap

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/mail"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Map is a read file: annotator → address, and back.
type Map struct {
	Email map[string]string // annotator → e-mail
	Name  map[string]string // e-mail (lower case) → annotator
}

// maxSize bounds the file: a map of people, not a data set.
const maxSize = 1 << 20

// Read reads the file at path.
func Read(path string) (Map, error) {
	f, err := os.Open(path)
	if err != nil {
		return Map{}, fmt.Errorf("--email-map: %w", err)
	}
	defer f.Close()
	return Parse(path, f)
}

// Parse reads a map from r; name is the file's name in errors.
func Parse(name string, r io.Reader) (Map, error) {
	m := Map{Email: map[string]string{}, Name: map[string]string{}}
	b, err := io.ReadAll(io.LimitReader(r, maxSize+1))
	if err != nil {
		return m, fmt.Errorf("%s: %w", name, err)
	}
	if len(b) > maxSize {
		return m, fmt.Errorf("%s: more than %d bytes: an e-mail map has one short line per annotator", name, maxSize)
	}
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), maxSize)
	where := map[string]int{} // annotator or address → its line
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSuffix(sc.Text(), "\r")
		errf := func(format string, a ...any) error {
			return fmt.Errorf("%s:%d: %s", name, n, fmt.Sprintf(format, a...))
		}
		if !utf8.ValidString(line) {
			return m, errf("not UTF-8 text")
		}
		for i, c := range line {
			if c != '\t' && (unicode.IsControl(c) || unicode.Is(unicode.Bidi_Control, c)) {
				return m, errf("character %d (%U) is a control character", len([]rune(line[:i]))+1, c)
			}
		}
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		cut := strings.LastIndexFunc(t, unicode.IsSpace)
		if cut < 0 {
			return m, errf("want an annotator's name, then the e-mail of their Label Studio account (got %q)", t)
		}
		who, email := strings.TrimSpace(t[:cut]), t[cut+1:]
		a, err := mail.ParseAddress(email)
		if err != nil || a.Address != email || a.Name != "" {
			return m, errf("%q is not an e-mail address (want NAME EMAIL, e.g. jo jo@firm.example)", email)
		}
		if prev, dup := where["name "+who]; dup {
			return m, errf("annotator %q is given twice (line %d too)", who, prev)
		}
		key := strings.ToLower(email)
		if prev, dup := where["email "+key]; dup {
			return m, errf("%s is given twice (line %d too): one Label Studio account would hold the annotations of two annotators", email, prev)
		}
		where["name "+who], where["email "+key] = n, n
		m.Email[who], m.Name[key] = email, who
	}
	if err := sc.Err(); err != nil {
		return m, fmt.Errorf("%s: %w", name, err)
	}
	return m, nil
}
