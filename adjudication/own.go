package adjudication

import (
	"fmt"
	"strings"

	"github.com/annotate-dev/annotate/internal/names"
)

// The rule of the lead's own units: a lead never adjudicates a unit (an
// item and field) in which they gave a label of their own, since their
// decision would weigh their own judgement against the others'. Such a
// unit is shown like any other, but its decision (a pick on the screen, a
// bulk accept, a gold answer's review) is refused with the reason, unless
// the lead passes --allow-own; a decision made so is recorded as such
// (Acceptance.Own, the event's own_unit), and agreement and the dataset
// card count them. The store hands the rule the lead's labels; every path
// that writes a lead's decision asks it.

// Adjudicator is the lead deciding, and the units they labelled.
type Adjudicator struct {
	Lead string
	// Labelled holds, per item, the fields with a current label of the
	// lead's own (as an annotator).
	Labelled map[int64]map[string]bool
	// AllowOwn (--allow-own): decide those units anyway, recorded as such.
	AllowOwn bool
}

// Own reports whether the lead labelled the unit (item, field); field ""
// asks whether they labelled the item at all (a gold answer they wrote).
func (a Adjudicator) Own(item int64, field string) bool {
	fs := a.Labelled[item]
	if field == "" {
		return len(fs) > 0
	}
	return fs[field]
}

// OwnError refuses a decision on a unit the lead labelled.
type OwnError struct {
	Lead, Item, Field string
}

func (e *OwnError) Error() string {
	unit := e.Field + " of " + e.Item
	if e.Field == "" {
		unit = e.Item
	}
	return fmt.Sprintf("%s labelled %s: a lead never adjudicates a unit in which they gave a label (another lead decides it, or --allow-own decides it anyway, recorded as such)",
		e.Lead, unit)
}

// Decide says whether the lead may decide the unit: an *OwnError when it
// is theirs and AllowOwn is off; else own says whether the decision is to
// be recorded as the lead's on their own unit.
func (a Adjudicator) Decide(item int64, ext, field string) (own bool, err error) {
	if !a.Own(item, field) {
		return false, nil
	}
	if !a.AllowOwn {
		return true, &OwnError{Lead: a.Lead, Item: ext, Field: field}
	}
	return true, nil
}

// Keep splits a bulk accept: the acceptances the lead may write (with
// AllowOwn, their own units too, marked Own) and how many of their own
// units were held back.
func (a Adjudicator) Keep(acc []Acceptance) (kept []Acceptance, held int) {
	for _, x := range acc {
		if a.Own(x.Item, x.Field) {
			if !a.AllowOwn {
				held++
				continue
			}
			x.Own = true
		}
		kept = append(kept, x)
	}
	return kept, held
}

// Mark sets Own on the plan's units the lead labelled, so the screen shows
// them as theirs before any key is pressed.
func (a Adjudicator) Mark(p *Plan) {
	for i := range p.Units {
		p.Units[i].Own = a.Own(p.Units[i].ID, p.Units[i].Field)
	}
}

// HeldMessage says why a bulk accept left units out.
func HeldMessage(lead string, held int) string {
	if held == 0 {
		return ""
	}
	return fmt.Sprintf("%d left for another lead: %s labelled them (a lead never adjudicates a unit in which they gave a label; --allow-own accepts them, recorded as such: annotate review --accept --allow-own --as %s)",
		held, lead, names.ShellWord(strings.TrimSpace(lead)))
}
