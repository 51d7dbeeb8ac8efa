package main

import (
	"fmt"
	"os"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/internal/suggest"
	"github.com/annotate-dev/annotate/store"
)

// closeAnnotators are the known annotators a new name is probably a typo
// of: another case, or within 2 edits (1 for names of 2 or 3 characters:
// "jo" and "al" are two people, "jo" and "joe" may be one).
func closeAnnotators(name string, known []string) []string {
	return suggest.Close(name, known, suggest.Edits(name))
}

// checkIdentity checks the --as name before anything is written as it. A
// known annotator is fine; a new name close to a known one is refused with
// did-you-mean and the way to create it on purpose; any other new name is
// accepted, and isNew says so (it is created when its session starts).
func checkIdentity(s *store.Store, name string) (isNew bool, err error) {
	if err := checkName("--as", name); err != nil {
		return false, err
	}
	all, err := s.Annotators()
	if err != nil {
		return false, err
	}
	var known []string
	for _, a := range all {
		if a.Name == name {
			return false, nil
		}
		known = append(known, a.Name)
	}
	if m := closeAnnotators(name, known); len(m) > 0 {
		return false, lang.Errorf("no annotator %q yet; did you mean %s? (to create %q on purpose: annotate annotator add %s)",
			name, lang.OrList(m), name, shellWord(name))
	}
	return true, nil
}

// lead is the --as name of a command that writes as the lead (review,
// review --accept): given with --as or $ANNOTATE_USER, never taken from
// $USER, and checked as checkIdentity does.
func (g *globals) lead(s *store.Store, what string) (string, error) {
	explicit := os.Getenv("ANNOTATE_USER") != ""
	if f := g.asFlag; f != nil && f.Changed {
		explicit = true
	}
	if !explicit || g.as == "" {
		return "", fmt.Errorf("%s records decisions as the lead: name yourself with --as NAME (or set ANNOTATE_USER); $USER is not used for the lead", what)
	}
	if _, err := checkIdentity(s, g.as); err != nil {
		return "", err
	}
	return g.as, nil
}

// shellWord quotes a name for a command line when it needs it.
func shellWord(s string) string {
	for _, r := range s {
		if !(r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return "'" + s + "'"
		}
	}
	return s
}

// checkAssignees refuses an --assign name that is new but close to a known
// annotator, as --as does: a batch assigned to "Jo" beside jo would wait
// for someone who does not exist.
func checkAssignees(s *store.Store, names []string) error {
	for _, n := range names {
		if _, err := checkIdentity(s, n); err != nil {
			return fmt.Errorf("--assign: %w", err)
		}
	}
	return nil
}
