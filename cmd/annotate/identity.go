package main

import (
	"fmt"
	"os"
	"slices"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/internal/names"
	"github.com/annotate-dev/annotate/roles"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

// annotatorNames lists the annotators the database knows, by name.
func annotatorNames(s *store.Store) ([]string, error) {
	all, err := store.ReadValue(s, (*store.ReadTx).Annotators)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(all))
	for i, a := range all {
		out[i] = a.Name
	}
	return out, nil
}

// checkIdentity checks a name before anything is written as it (--as,
// --assign, annotator set), by the one rule of names (package names): a
// known annotator is fine; a new name close to a known one is refused with
// did-you-mean and the way to create it on purpose; any other new name is
// accepted, and isNew says so. what names the flag, e.g. "--as".
func checkIdentity(s *store.Store, what, name string) (isNew bool, err error) {
	known, err := annotatorNames(s)
	if err != nil {
		return false, err
	}
	if err := names.New(name, known); err != nil {
		return false, lang.Errorf("%s: %w", what, err)
	}
	return !slices.Contains(known, name), nil
}

// asGivenOnPurpose reports whether the --as name was given on purpose:
// with --as, $ANNOTATE_USER or the config file's annotator, not taken from
// $USER (which names whoever is logged in, not a role).
func (g *globals) asGivenOnPurpose() bool {
	if f := g.asFlag; f != nil && f.Changed {
		return true
	}
	return os.Getenv("ANNOTATE_USER") != "" || g.config != nil && g.config.Annotator != ""
}

// needLead is the annotator a lead action runs as, and the one check of
// every lead action (review and review --accept, the answer review,
// guidelines edit and import, batch create, --taxonomy, the dashboard and
// the review it opens): the name given on purpose, never $USER, and an
// annotator whose role is lead (roles.Need, which says how to make one).
func (g *globals) needLead(s *store.Store, action string) (string, error) {
	if !g.asGivenOnPurpose() || g.as == "" {
		return "", fmt.Errorf("%s is the lead's: name yourself with --as NAME (or set ANNOTATE_USER); $USER is not used for the lead", action)
	}
	people, err := people(s)
	if err != nil {
		return "", err
	}
	if err := roles.Need(people, g.as, action); err != nil {
		return "", err
	}
	return g.as, nil
}

// people lists the annotators with their roles, for package roles.
func people(s *store.Store) ([]roles.Person, error) {
	rs, err := store.ReadValue(s, (*store.ReadTx).Roles)
	if err != nil {
		return nil, err
	}
	return personsOf(rs), nil
}

func personsOf(rs []store.AnnotatorRate) []roles.Person {
	out := make([]roles.Person, len(rs))
	for i, r := range rs {
		out[i] = roles.Person{Name: r.Name, Role: r.Role}
	}
	return out
}

// openForBatch opens the database for a batch's write: another process's
// write (an import) is waited for, then the batch is checked
// (mayCreateBatch). The store is closed when it returns an error.
func (g *globals) openForBatch(cmd *cobra.Command, assign []string) (*store.Store, error) {
	s, err := g.openExisting()
	if err != nil {
		return nil, err
	}
	err = s.WaitForWriters(cmd.Context(), g.sayWaiting(cmd, s))
	if err == nil {
		err = g.mayCreateBatch(s, assign)
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// mayCreateBatch checks a batch before it is cut: batch create is the
// lead's, and its assignees' names are checked as --as is.
func (g *globals) mayCreateBatch(s *store.Store, assign []string) error {
	if _, err := g.needLead(s, "annotate batch create"); err != nil {
		return err
	}
	return checkAssignees(s, assign)
}

// checkAssignees refuses an --assign name that is new but close to a known
// annotator, as --as does: a batch assigned to "Jo" beside jo would wait
// for someone who does not exist.
func checkAssignees(s *store.Store, list []string) error {
	for _, n := range list {
		if _, err := checkIdentity(s, "--assign", n); err != nil {
			return err
		}
	}
	return nil
}
