package report

import "github.com/annotate-dev/annotate/store"

// ResolveLabels applies the reports' selection rule (--annotator NAME,
// --adjudicated, else the only annotator) for other commands, such as export,
// so they choose the same labels and say the same thing when they cannot.
func ResolveLabels(s *store.Store, sel Selection) (store.LabelSet, error) {
	r, err := s.ReportReader()
	if err != nil {
		return store.LabelSet{}, err
	}
	defer r.Close()
	who, err := resolve(r, sel)
	if err != nil {
		return store.LabelSet{}, err
	}
	if who.adjudicated {
		return store.LabelSet{Adjudicated: true}, nil
	}
	return store.LabelSet{Annotator: who.name}, nil
}
