package tui

import (
	"testing"

	"github.com/annotate-dev/annotate/report"
)

// The errors panel counts categorised generated claims in the noun the
// generated-claim kind declares (schema: "generated claim"), singular and
// plural, not in a word of its own.
func TestDashboardErrorsSummaryNounFromKind(t *testing.T) {
	for n, want := range map[int]string{0: "0 generated claims", 1: "1 generated claim", 3: "3 generated claims"} {
		d := &dashboardScreen{rep: &report.DashboardReport{Gen: &report.GenReport{Errors: &report.ErrorDistribution{Claims: n}}}}
		if got := d.summary(panelErrors); got != want {
			t.Errorf("%d categorised claims: summary %q, want %q", n, got, want)
		}
	}
}
