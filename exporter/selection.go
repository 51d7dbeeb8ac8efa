package exporter

import (
	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/store"
)

// selectLabels resolves whose labels to export with the reports' own rule and
// messages: --annotator NAME, --adjudicated, else the only annotator.
func selectLabels(rx *store.ReadTx, annotator string, adjudicated bool) (store.LabelSet, error) {
	return report.ResolveLabels(rx, report.Selection{Annotator: annotator, Adjudicated: adjudicated})
}
