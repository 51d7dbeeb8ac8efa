package report

import (
	"testing"
	"time"
)

// BenchmarkDashboard1M is one refresh of the dashboard on the million-claim
// store (bench_test.go): the target is under 100 ms.
func BenchmarkDashboard1M(b *testing.B) {
	s := benchStore(b)
	if benchDB.took > 0 {
		b.Logf("store built in %v", benchDB.took.Round(time.Millisecond))
	}
	for b.Loop() {
		r, err := Dashboard(s, time.Now())
		if err != nil {
			b.Fatal(err)
		}
		if r.Agreement == nil || r.Agreement.Fields["entailment"].Items == 0 || r.Metrics == nil || len(r.Progress) == 0 {
			b.Fatalf("incomplete refresh: agreement %v (%s), metrics %v (%s), %d queues", r.Agreement != nil, r.AgreementErr, r.Metrics != nil, r.MetricsErr, len(r.Progress))
		}
	}
}
