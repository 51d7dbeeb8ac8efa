package exporter

import (
	"errors"
	"fmt"
	"strings"

	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/store"
)

// selectLabels resolves whose labels to export with the reports' rule and
// messages (report/selection.go, which keeps its resolver to itself):
// --annotator NAME, --adjudicated, else the only annotator. It reads only the
// annotators, so a CSV export does not pay for a whole report; the command's
// tests check that export and stats give the same errors.
func selectLabels(s *store.Store, annotator string, adjudicated bool) (store.LabelSet, error) {
	if annotator != "" && adjudicated {
		return store.LabelSet{}, errors.New("choose --annotator NAME or --adjudicated, not both")
	}
	r, err := s.ReportReader()
	if err != nil {
		return store.LabelSet{}, err
	}
	defer r.Close()
	if adjudicated {
		ok, err := r.HasAdjudicated()
		if err != nil {
			return store.LabelSet{}, err
		}
		if !ok {
			return store.LabelSet{}, report.ErrNoAdjudication
		}
		return store.LabelSet{Adjudicated: true}, nil
	}
	all, err := r.Annotators()
	if err != nil {
		return store.LabelSet{}, err
	}
	names := make([]string, len(all))
	for i, a := range all {
		if a.Name == annotator {
			return store.LabelSet{Annotator: annotator}, nil
		}
		names[i] = a.Name
	}
	switch {
	case annotator != "" && len(all) == 0:
		return store.LabelSet{}, fmt.Errorf("no annotator %q (there are no annotators yet)", annotator)
	case annotator != "":
		return store.LabelSet{}, fmt.Errorf("no annotator %q (annotators: %s)", annotator, strings.Join(names, ", "))
	case len(all) == 0:
		return store.LabelSet{}, errors.New("no annotator yet: nothing is labelled (annotate, or import labels, first)")
	case len(all) == 1:
		return store.LabelSet{Annotator: all[0].Name}, nil
	}
	return store.LabelSet{}, fmt.Errorf("%d annotators: choose --annotator NAME (%s) or --adjudicated", len(all), strings.Join(names, ", "))
}
