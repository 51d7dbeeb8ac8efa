package report

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tally"

	"github.com/annotate-dev/annotate/internal/suggest"
)

// Selection names whose labels a report reads: --annotator NAME or
// --adjudicated. With neither, the only annotator with labels, if there is
// exactly one.
type Selection struct {
	Annotator   string
	Adjudicated bool
}

// rater is a resolved selection: one annotator, or adjudication.
type rater struct {
	id          int64 // annotator id; tally.Adjudicated for adjudication
	name        string
	adjudicated bool
}

// adjudicatedName is how JSON and text name the adjudicated label set.
const adjudicatedName = "adjudicated"

// ErrNoAdjudication is returned for --adjudicated when nothing is adjudicated.
var ErrNoAdjudication = errors.New("no adjudicated labels yet (adjudicate disagreements with `annotate review`, or choose --annotator NAME)")

// labelNames are the counts that say a rater has labels.
var labelNames = []string{tally.Label, tally.NotAsked, tally.Added}

// people are the annotators of a database as the reports see them.
type people struct {
	all      []store.Annotator
	labelled map[int64]bool // annotators with labels of their own
	final    bool           // some label is adjudicated
	// fields lists, per field, the annotators with a label that counts.
	fields map[string]map[int64]bool
}

func loadPeople(rx *store.ReadTx) (*people, error) {
	all, err := rx.Annotators()
	if err != nil {
		return nil, err
	}
	cs, err := rx.Counts(labelNames...)
	if err != nil {
		return nil, err
	}
	p := &people{all: all, labelled: map[int64]bool{}, fields: map[string]map[int64]bool{}}
	for _, c := range cs {
		if c.Rater == tally.Adjudicated {
			p.final = true
			continue
		}
		p.labelled[c.Rater] = true
		if c.Name == tally.Label {
			if p.fields[c.A] == nil {
				p.fields[c.A] = map[int64]bool{}
			}
			p.fields[c.A][c.Rater] = true
		}
	}
	return p, nil
}

// byName lists every annotator by name.
func (p *people) byName() []store.Annotator {
	out := slices.Clone(p.all)
	slices.SortFunc(out, func(a, b store.Annotator) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// withLabels lists the annotators with labels, in creation order.
func (p *people) withLabels() []store.Annotator {
	var out []store.Annotator
	for _, a := range p.all {
		if p.labelled[a.ID] {
			out = append(out, a)
		}
	}
	return out
}

// resolve turns a Selection into a rater, with errors that tell the user what
// to type next.
func resolve(rx *store.ReadTx, sel Selection) (rater, error) {
	if sel.Adjudicated && sel.Annotator != "" {
		return rater{}, errors.New("choose --annotator NAME or --adjudicated, not both")
	}
	p, err := loadPeople(rx)
	if err != nil {
		return rater{}, err
	}
	if sel.Adjudicated {
		if !p.final {
			return rater{}, ErrNoAdjudication
		}
		return rater{id: tally.Adjudicated, name: adjudicatedName, adjudicated: true}, nil
	}
	withLabels := p.withLabels()
	if sel.Annotator != "" {
		for _, a := range p.all {
			if a.Name == sel.Annotator {
				return rater{id: a.ID, name: a.Name}, nil
			}
		}
		return rater{}, fmt.Errorf("no annotator %q%s (%s)", sel.Annotator, suggest.Hint(sel.Annotator, annotatorNames(p.all)), knownAnnotators(withLabels))
	}
	switch len(withLabels) {
	case 0:
		return rater{}, errors.New("no annotator has labels yet: nothing to report (annotate, or import labels, first)")
	case 1:
		return rater{id: withLabels[0].ID, name: withLabels[0].Name}, nil
	}
	return rater{}, fmt.Errorf("%d annotators have labels: choose --annotator NAME (%s) or --adjudicated", len(withLabels), names(withLabels))
}

// ResolveLabels applies the reports' selection rule (--annotator NAME,
// --adjudicated, else the only annotator with labels) for other commands,
// such as export, so they choose the same labels and say the same thing
// when they cannot.
func ResolveLabels(rx *store.ReadTx, sel Selection) (store.LabelSet, error) {
	var out store.LabelSet
	err := func() error {
		who, err := resolve(rx, sel)
		if err != nil {
			return err
		}
		if who.adjudicated {
			out = store.LabelSet{Adjudicated: true}
		} else {
			out = store.LabelSet{Annotator: who.name}
		}
		return nil
	}()
	return out, err
}

// TooFewAnnotatorsError says agreement cannot be computed.
type TooFewAnnotatorsError struct {
	Have []string // the annotators that were selected
	All  int      // annotators with labels in the database
}

func (e *TooFewAnnotatorsError) Error() string {
	switch {
	case e.All < 2 && len(e.Have) == 0:
		return "agreement needs at least two annotators with labels; the database has none"
	case e.All < 2:
		return fmt.Sprintf("agreement needs at least two annotators with labels; the database has one (%s)", e.Have[0])
	}
	return fmt.Sprintf("agreement needs at least two annotators; --annotators names %d (%s)", len(e.Have), strings.Join(e.Have, ", "))
}

// explicit resolves --annotators (trimmed, without blanks and repeats), in
// the order given.
func explicit(p *people, want []string) ([]rater, error) {
	var asked []string
	for _, w := range want {
		if w = strings.TrimSpace(w); w != "" && !slices.Contains(asked, w) {
			asked = append(asked, w)
		}
	}
	var out []rater
	for _, w := range asked {
		i := slices.IndexFunc(p.all, func(a store.Annotator) bool { return a.Name == w })
		if i < 0 {
			return nil, fmt.Errorf("no annotator %q%s (%s)", w, suggest.Hint(w, annotatorNames(p.all)), knownAnnotators(p.withLabels()))
		}
		out = append(out, rater{id: p.all[i].ID, name: p.all[i].Name})
	}
	return out, nil
}

func knownAnnotators(all []store.Annotator) string {
	if len(all) == 0 {
		return "no annotator has labels yet"
	}
	return "annotators with labels: " + names(all)
}

func annotatorNames(all []store.Annotator) []string {
	s := make([]string, len(all))
	for i, a := range all {
		s[i] = a.Name
	}
	return s
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
