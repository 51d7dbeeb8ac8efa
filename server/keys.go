package server

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/annotate-dev/annotate/internal/names"
	"github.com/annotate-dev/annotate/internal/smallfile"
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

// maxKeysFile bounds the authorized_keys file: some 50,000 ed25519 keys, or
// 1,400 of 16384-bit RSA. It is read line by line, never whole.
const maxKeysFile = 4 << 20

// ParseAuthorizedKeys reads an OpenSSH authorized_keys file and returns the
// annotator of each key by its SHA256 fingerprint ("SHA256:…"). The
// annotator's name is the key's comment, which is therefore required, and
// follows the rule of every annotator name (package names): a name new but
// close to one of known, the database's annotators, (or to a name on an
// earlier line) is refused as a typo, as --as refuses it. Blank lines and
// # comments are skipped. Errors name the file and the line.
func ParseAuthorizedKeys(path string, known []string) (map[string]string, error) {
	return parseAuthorizedKeys(path, names.NewRule(known))
}

func parseAuthorizedKeys(path string, rule *names.Rule) (map[string]string, error) {
	f, err := smallfile.Stream(path, maxKeysFile)
	if err != nil {
		return nil, fmt.Errorf("authorized keys: %w", err)
	}
	defer f.Close()
	byKey := map[string]string{}
	firstLine := map[string]int{} // fingerprint -> line, to name both lines of a conflict
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), maxKeyLine) // RSA 16k keys are long lines
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fp, name, err := parseKeyLine(line)
		if err == nil {
			if err = rule.Take(name); err != nil {
				err = fmt.Errorf("the key's comment: %w", err)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if old, ok := byKey[fp]; ok && old != name {
			return nil, fmt.Errorf("%s:%d: this key is already given to %q on line %d; one key is one annotator", path, n, old, firstLine[fp])
		}
		byKey[fp], firstLine[fp] = name, n
	}
	var tooBig *smallfile.TooBig
	if err := sc.Err(); err == bufio.ErrTooLong {
		return nil, fmt.Errorf("%s:%d: the line is longer than %d MiB: a line holds one key (a 16384-bit RSA key takes about 3 KB)", path, n+1, maxKeyLine>>20)
	} else if errors.As(err, &tooBig) {
		return nil, fmt.Errorf("authorized keys: %w: a line holds one key, and %d MiB is thousands of them (is this the right file?)", err, maxKeysFile>>20)
	} else if err != nil {
		return nil, fmt.Errorf("%s:%d: %w", path, n+1, err)
	}
	if len(byKey) == 0 {
		return nil, fmt.Errorf("%s: no keys: add one line per annotator, e.g. \"ssh-ed25519 AAAA… jo\"", path)
	}
	return byKey, nil
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
	if err := names.Check(name); err != nil {
		return "", "", fmt.Errorf("the key's comment: %w", err)
	}
	return gossh.FingerprintSHA256(key), name, nil
}
