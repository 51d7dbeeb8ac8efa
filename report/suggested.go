package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/annotate-dev/annotate/store"
)

// Blind and suggested labels (annotate --suggest SYSTEM): a label made with
// a system's prediction preselected is anchored on it, so a report says how
// many of the labels it read were made so, and metrics will not score a
// system against labels it suggested unless asked to.

// SuggestedError is metrics' refusal to score a system against labels made
// with its own suggestion.
type SuggestedError struct {
	System string
	N      int // the rater's current labels made with System's suggestion
}

func (e *SuggestedError) Error() string {
	return fmt.Sprintf("%d of the labels were made with %s's suggestion preselected; scoring %s against them overstates its agreement (anchoring); pass --include-suggested to score them anyway",
		e.N, e.System, e.System)
}

// suggestedOf sums the current labels of a rater (an annotator's name, or
// the adjudicated set) made with a suggestion, by system.
func suggestedOf(counts []store.SuggestedCount, rt rater) map[string]int {
	out := map[string]int{}
	for _, c := range counts {
		if rt.adjudicated && c.Annotator == "" || !rt.adjudicated && c.Annotator == rt.name {
			out[c.System] += c.N
		}
	}
	return out
}

// suggestedByAnnotator sums the current labels made with a suggestion by
// annotator ("adjudicated" for the lead's), whatever the system.
func suggestedByAnnotator(counts []store.SuggestedCount) map[string]int {
	out := map[string]int{}
	for _, c := range counts {
		who := c.Annotator
		if who == "" {
			who = adjudicatedName
		}
		out[who] += c.N
	}
	return out
}

// writeSuggested says how many of the labels read were made with a
// suggestion (nothing when every label is blind).
func writeSuggested(w io.Writer, what string, n map[string]int) {
	if len(n) == 0 {
		return
	}
	var parts []string
	for _, k := range sortedKeys(n) {
		parts = append(parts, fmt.Sprintf("%s %d", k, n[k]))
	}
	fmt.Fprintf(w, "\nLabels made with a suggestion preselected (annotate --suggest), %s: %s; the others were made blind.\n", what, strings.Join(parts, ", "))
}

// suggestedByField counts, for each of the fields, the current labels made
// with a suggestion by annotator ("adjudicated" for the lead's).
func suggestedByField(rx *store.ReadTx, fields []string) (map[string]map[string]int, error) {
	counts, err := rx.SuggestedLabels()
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]int{}
	for _, f := range fields {
		var of []store.SuggestedCount
		for _, c := range counts {
			if c.Field == f {
				of = append(of, c)
			}
		}
		if len(of) > 0 {
			out[f] = suggestedByAnnotator(of)
		}
	}
	return out, nil
}
