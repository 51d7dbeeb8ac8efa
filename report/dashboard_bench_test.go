package report

import (
	"testing"
	"time"
)

// BenchmarkDashboard1M is one refresh of the dashboard on the million-claim
// store (bench_test.go), the target being under 100 ms: Changed is a
// refresh after a label (every report built), Idle a poll with nothing
// changed since the last one (the reports kept).
func BenchmarkDashboard1M(b *testing.B) {
	s := benchStore(b)
	if benchDB.took > 0 {
		b.Logf("store built in %v", benchDB.took.Round(time.Millisecond))
	}
	check := func(r *DashboardReport, err error) *DashboardReport {
		if err != nil {
			b.Fatal(err)
		}
		if r.Agreement == nil || r.Agreement.Fields["entailment"].Items == 0 || r.Metrics == nil || len(r.Progress) == 0 {
			b.Fatalf("incomplete refresh: agreement %v (%s), metrics %v (%s), %d queues", r.Agreement != nil, r.AgreementErr, r.Metrics != nil, r.MetricsErr, len(r.Progress))
		}
		return r
	}
	b.Run("Changed", func(b *testing.B) {
		for b.Loop() {
			check(dashboardOf(s, time.Now(), nil))
		}
	})
	b.Run("Idle", func(b *testing.B) {
		prev := check(dashboardOf(s, time.Now(), nil))
		for b.Loop() {
			prev = check(dashboardOf(s, time.Now(), prev))
		}
	})
}
