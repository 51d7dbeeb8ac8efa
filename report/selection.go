package report

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/store"
)

// Selection names whose labels a report reads: --annotator NAME or
// --adjudicated. With neither, the only annotator if there is exactly one.
type Selection struct {
	Annotator   string
	Adjudicated bool
}

// rater is a resolved selection: one annotator, or adjudication.
type rater struct {
	id          int64 // annotator id; 0 for adjudication (how the store keys it)
	name        string
	adjudicated bool
}

// adjudicatedName is how JSON and text name the adjudicated label set.
const adjudicatedName = "adjudicated"

// ErrNoAdjudication is returned for --adjudicated when nothing is adjudicated.
var ErrNoAdjudication = errors.New("no adjudicated labels yet (adjudicate disagreements with `annotate review`, or choose --annotator NAME)")

// resolve turns a Selection into a rater, with errors that tell the user what
// to type next.
func resolve(r *store.ReportReader, sel Selection) (rater, error) {
	if sel.Adjudicated && sel.Annotator != "" {
		return rater{}, errors.New("choose --annotator NAME or --adjudicated, not both")
	}
	if sel.Adjudicated {
		ok, err := r.HasAdjudicated()
		if err != nil {
			return rater{}, err
		}
		if !ok {
			return rater{}, ErrNoAdjudication
		}
		return rater{name: adjudicatedName, adjudicated: true}, nil
	}
	all, err := r.Annotators()
	if err != nil {
		return rater{}, err
	}
	if sel.Annotator != "" {
		for _, a := range all {
			if a.Name == sel.Annotator {
				return rater{id: a.ID, name: a.Name}, nil
			}
		}
		return rater{}, fmt.Errorf("no annotator %q (%s)", sel.Annotator, knownAnnotators(all))
	}
	switch len(all) {
	case 0:
		return rater{}, errors.New("no annotator yet: nothing is labelled (annotate, or import labels, first)")
	case 1:
		return rater{id: all[0].ID, name: all[0].Name}, nil
	}
	return rater{}, fmt.Errorf("%d annotators: choose --annotator NAME (%s) or --adjudicated", len(all), names(all))
}

// resolveMany resolves --annotators (empty: every annotator) for agreement,
// which needs at least two.
func resolveMany(r *store.ReportReader, want []string) ([]rater, error) {
	all, err := r.Annotators()
	if err != nil {
		return nil, err
	}
	var asked []string // trimmed, without blanks and repeats
	for _, w := range want {
		if w = strings.TrimSpace(w); w != "" && !slices.Contains(asked, w) {
			asked = append(asked, w)
		}
	}
	// In the order asked for (the pairs follow it), else creation order.
	var out []rater
	if len(asked) == 0 {
		for _, a := range all {
			out = append(out, rater{id: a.ID, name: a.Name})
		}
	}
	for _, w := range asked {
		i := slices.IndexFunc(all, func(a store.Annotator) bool { return a.Name == w })
		if i < 0 {
			return nil, fmt.Errorf("no annotator %q (%s)", w, knownAnnotators(all))
		}
		out = append(out, rater{id: all[i].ID, name: all[i].Name})
	}
	if len(out) < 2 {
		return nil, &TooFewAnnotatorsError{Have: namesOf(out), All: len(all)}
	}
	return out, nil
}

// TooFewAnnotatorsError says agreement cannot be computed.
type TooFewAnnotatorsError struct {
	Have []string // the annotators that were selected
	All  int      // annotators in the database
}

func (e *TooFewAnnotatorsError) Error() string {
	switch {
	case e.All < 2 && len(e.Have) == 0:
		return "agreement needs at least two annotators; the database has none"
	case e.All < 2:
		return fmt.Sprintf("agreement needs at least two annotators; the database has one (%s)", e.Have[0])
	}
	return fmt.Sprintf("agreement needs at least two annotators; --annotators names %d (%s)", len(e.Have), strings.Join(e.Have, ", "))
}

func knownAnnotators(all []store.Annotator) string {
	if len(all) == 0 {
		return "there are no annotators yet"
	}
	return "annotators: " + names(all)
}

func names(all []store.Annotator) string {
	s := make([]string, len(all))
	for i, a := range all {
		s[i] = a.Name
	}
	return strings.Join(s, ", ")
}

func namesOf(rs []rater) []string {
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = r.name
	}
	return s
}
