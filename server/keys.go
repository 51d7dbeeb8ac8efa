package server

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/annotate-dev/annotate/internal/textsafe"
	gossh "golang.org/x/crypto/ssh"
)

// harmlessOptions are authorized_keys options the server enforces anyway
// (it never forwards ports, agents or X11 and runs no rc files), so a line
// carrying them means what it says. Any other option (from=, command=,
// expiry-time=, cert-authority, …) would be silently ignored, which could let
// in a key the lead meant to restrict: such a line is refused instead.
var harmlessOptions = map[string]bool{
	"restrict": true, "no-port-forwarding": true, "no-agent-forwarding": true,
	"no-x11-forwarding": true, "no-user-rc": true,
}

// maxKeyLine bounds one line of authorized_keys.
const maxKeyLine = 1 << 20

// ParseAuthorizedKeys reads an OpenSSH authorized_keys file and returns the
// annotator of each key by its SHA256 fingerprint ("SHA256:…"). The
// annotator's name is the key's comment, which is therefore required. Blank
// lines and # comments are skipped. Errors name the file and the line.
func ParseAuthorizedKeys(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("authorized keys: %w", err)
	}
	names := map[string]string{}
	firstLine := map[string]int{} // fingerprint -> line, to name both lines of a conflict
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), maxKeyLine) // RSA 16k keys are long lines
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fp, name, err := parseKeyLine(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if old, ok := names[fp]; ok && old != name {
			return nil, fmt.Errorf("%s:%d: this key is already given to %q on line %d; one key is one annotator", path, n, old, firstLine[fp])
		}
		names[fp], firstLine[fp] = name, n
	}
	if err := sc.Err(); err == bufio.ErrTooLong {
		return nil, fmt.Errorf("%s:%d: the line is longer than %d MiB: a line holds one key (a 16384-bit RSA key takes about 3 KB)", path, n+1, maxKeyLine>>20)
	} else if err != nil {
		return nil, fmt.Errorf("%s:%d: %w", path, n+1, err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s: no keys: add one line per annotator, e.g. \"ssh-ed25519 AAAA… jo\"", path)
	}
	return names, nil
}

// parseKeyLine parses one non-blank line into the key's fingerprint and the
// annotator named by its comment.
func parseKeyLine(line string) (fingerprint, name string, err error) {
	key, comment, options, rest, err := gossh.ParseAuthorizedKey([]byte(line))
	if err != nil {
		return "", "", fmt.Errorf("not an authorized_keys line: %w", err)
	}
	if len(bytes.TrimSpace(rest)) > 0 {
		return "", "", fmt.Errorf("unexpected text after the key")
	}
	for _, o := range options {
		if !harmlessOptions[strings.ToLower(o)] {
			return "", "", fmt.Errorf("option %q is not supported by annotate serve; remove it (only restrict and no-*-forwarding are accepted)", o)
		}
	}
	name = strings.TrimSpace(comment)
	if name == "" {
		return "", "", fmt.Errorf("the key has no comment: add the annotator's name after the key, e.g. \"%s AAAA… jo\"", key.Type())
	}
	if err := checkAnnotatorName(name); err != nil {
		return "", "", err
	}
	return gossh.FingerprintSHA256(key), name, nil
}

// checkAnnotatorName holds a name from a key's comment to the rules of the
// names labels are imported under: printable (no control character, no
// bidirectional control, no line or paragraph separator, valid UTF-8), and
// no comma, since names are given as comma-separated lists (--assign,
// --annotators). It must also be one word. The name is quoted with %+q so
// that the offending character shows as an escape, never raw.
func checkAnnotatorName(name string) error {
	refuse := func(why string, pos int) error {
		return fmt.Errorf("comment %+q: the annotator's name %s (character %d); names must be printable, one word, without commas", name, why, pos)
	}
	for i, pos := 0, 1; i < len(name); pos++ {
		r, size := utf8.DecodeRuneInString(name[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			return refuse("is not valid UTF-8", pos)
		case r == ',':
			return refuse("has a comma, which separates the names of a list (--assign jo,sam)", pos)
		case textsafe.IsBidiControl(r):
			return refuse(fmt.Sprintf("has the bidirectional control %U, which reorders text on a terminal", r), pos)
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029':
			return refuse(fmt.Sprintf("has the control character %U", r), pos)
		case unicode.IsSpace(r):
			return refuse("has a space: it must be one word (it is the name labels are recorded under)", pos)
		}
	}
	return nil
}
