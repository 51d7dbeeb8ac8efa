package main

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/annotate-dev/annotate/internal/names"
	"github.com/annotate-dev/annotate/internal/suggest"
	"github.com/annotate-dev/annotate/internal/textsafe"
)

// checkName refuses a name the commands would store and print back: empty
// or blank, or holding a control character, a bidirectional control or a
// comma (lists of names are comma-separated). what names the flag or
// argument, e.g. "--assign".
func checkName(what, name string) error {
	if strings.TrimSpace(name) == "" {
		return fmt.Errorf("%s: a name cannot be empty or blank", what)
	}
	for _, r := range name {
		switch {
		case r == ',':
			return fmt.Errorf("%s %q: a name cannot hold a comma", what, name)
		case unicode.IsControl(r) || textsafe.IsBidiControl(r):
			return fmt.Errorf("%s %q: a name cannot hold control characters", what, name)
		}
	}
	return nil
}

// checkAnnotator holds an annotator's name to the one rule of names
// (package names); what names the flag or argument, e.g. "--as".
func checkAnnotator(what, name string) error {
	if err := names.Check(name); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// parseAnnotators is parseNames for a list of annotators (--assign): each
// holds to the rule of names.
func parseAnnotators(flag, list string) ([]string, error) {
	out, err := parseNames(flag, list)
	if err != nil {
		return nil, err
	}
	for _, n := range out {
		if err := checkAnnotator(flag, n); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// parseNames splits a comma-separated list of names, trimming the spaces
// around each, and refuses an empty entry, an invalid name or a name given
// twice.
func parseNames(flag, list string) ([]string, error) {
	var names []string
	seen := map[string]bool{}
	for i, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			return nil, fmt.Errorf("%s %q: name %d is empty", flag, list, i+1)
		}
		if err := checkName(flag, n); err != nil {
			return nil, err
		}
		if seen[n] {
			return nil, fmt.Errorf("%s %q: %s is listed twice", flag, list, n)
		}
		seen[n] = true
		names = append(names, n)
	}
	return names, nil
}

// notFoundError says a name is unknown, with the close ones or the list.
func notFoundError(what, typed string, known []string) error {
	msg := fmt.Sprintf("no %s %q", what, typed)
	if m := suggest.Close(typed, known, suggest.Edits(typed)); len(m) > 0 {
		return fmt.Errorf("%s; did you mean %s?", msg, orList(quoteAll(m)))
	}
	if len(known) == 0 {
		return fmt.Errorf("%s (there is none yet)", msg)
	}
	whats := what + "s"
	if strings.HasSuffix(what, "ch") {
		whats = what + "es"
	}
	if len(known) > 12 {
		return fmt.Errorf("%s (%d %s, e.g. %s)", msg, len(known), whats, strings.Join(known[:12], ", "))
	}
	return fmt.Errorf("%s (%s: %s)", msg, whats, strings.Join(known, ", "))
}
