package exporter

// Labels made with a system's prediction preselected (annotate --suggest)
// are published apart from blind ones: when the label set has any, the qa
// and claims configs get a last column, suggested_by, naming for each row
// the labels made so. A dataset labelled blind keeps its columns as they were.

var suggestedColumn = Column{"suggested_by", TypeStrings, false,
	"the labels of this row made with a system's prediction preselected (annotate --suggest), as `field=system`; empty when every label was made blind (anchored labels overstate agreement with that system)"}

// withSuggested adds the suggested_by column when the label set has a label
// made with a suggestion.
func (e *exporter) withSuggested(l layout) layout {
	if !e.hasSuggested() {
		return l
	}
	l.suggested = true
	l.cols = append(l.cols, suggestedColumn)
	return l
}

// hasSuggested reports whether a current label of the label set was made
// with a suggestion (read once per export).
func (e *exporter) hasSuggested() bool {
	if e.suggestedKnown {
		return e.suggested
	}
	e.suggestedKnown = true
	if e.labels.Annotator == "" && !e.labels.Adjudicated {
		return false
	}
	counts, err := e.snap.SuggestedLabels()
	if err != nil {
		e.suggestedErr = err // returned by the export once its layouts are made
		return false
	}
	for _, c := range counts {
		if e.labels.Adjudicated && c.Annotator == "" || !e.labels.Adjudicated && c.Annotator == e.labels.Annotator {
			e.suggested = true
		}
	}
	return e.suggested
}

func (l layout) suggestedValue(r row, s []string) row {
	if !l.suggested {
		return r
	}
	if s == nil {
		s = []string{}
	}
	return append(r, s)
}
