// Package roles holds the rule of the lead's role: which annotators may do
// what only the lead does (review and adjudicate, accept agreements,
// review gold answers, change the guidelines, cut batches, change the
// taxonomy, open the dashboard, declare fields) and who may make a lead.
// It is pure: the commands and annotate serve hand it the annotators and
// their roles as the database holds them.
package roles

import (
	"fmt"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/internal/names"
	"github.com/annotate-dev/annotate/internal/suggest"
)

// Lead is the role of the annotators who may do the lead's actions
// (annotate annotator set NAME --role lead, or annotator add NAME --lead).
const Lead = "lead"

// Person is an annotator and their role ("" : none).
type Person struct {
	Name string
	Role string
}

// IsLead reports whether a role, as given, is the lead's (any case).
func IsLead(role string) bool { return strings.EqualFold(strings.TrimSpace(role), Lead) }

// Leads lists the leads, in the people's order.
func Leads(people []Person) []string {
	var out []string
	for _, p := range people {
		if IsLead(p.Role) {
			out = append(out, p.Name)
		}
	}
	return out
}

// MakeFirst is how the first lead is made, for the messages that need one.
const MakeFirst = "annotate annotator add NAME --lead (while no annotator is a lead, anyone may make the first; after that only a lead grants the role)"

// Need says whether who may do action (e.g. "annotate review"), which only
// a lead does: nil for a lead; else why not and what to do.
func Need(people []Person, who, action string) error {
	leads := Leads(people)
	if slices.Contains(leads, who) {
		return nil
	}
	if len(leads) == 0 {
		return fmt.Errorf("%s is the lead's, and no annotator is a lead yet: make one with %s, then name yourself with --as NAME",
			action, MakeFirst)
	}
	known := slices.ContainsFunc(people, func(p Person) bool { return p.Name == who })
	if hint := suggest.Hint(who, leads); !known && hint != "" {
		return fmt.Errorf("%s is the lead's: there is no annotator %q%s (leads: %s)",
			action, who, hint, strings.Join(leads, ", "))
	}
	return fmt.Errorf("%s is the lead's: %s does not have the role lead (leads: %s; a lead grants it: annotate annotator set %s --role lead --as LEAD)",
		action, who, strings.Join(leads, ", "), names.ShellWord(who))
}

// MayChange says whether by may set name's role to role: granting the
// lead's role, or taking it from a lead, is a lead's action once a lead
// exists; while none does, anyone may make the first. The last lead is
// never left without a successor. Other roles (student, paralegal: the
// cost report's) are anyone's to set on a non-lead.
func MayChange(people []Person, by, name, role string) error {
	leads := Leads(people)
	wasLead, toLead := slices.Contains(leads, name), IsLead(role)
	if wasLead == toLead {
		return nil
	}
	if len(leads) == 0 {
		return nil // the first lead
	}
	what := "making a lead"
	if wasLead {
		what = "taking the role lead from " + name
	}
	if err := Need(people, by, what); err != nil {
		return err
	}
	if wasLead && len(leads) == 1 {
		return fmt.Errorf("%s is the only lead: make another lead first (annotate annotator set NAME --role lead)", name)
	}
	return nil
}
