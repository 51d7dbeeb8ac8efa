package report

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// dashboardStore: two annotators on one QA pair's claims, jo with a rate,
// and RefChecker predictions to score jo against.
func dashboardStore(t *testing.T, adjudicate bool) *store.Store {
	s := openStore(t)
	seed(t, s, func(b *builder) {
		b.QA("q", "GDPR", "en", "factual_recall")
		for _, who := range []string{"jo", "sam"} {
			b.Labels(who, "q", "question_validity=valid", "answer_correctness=correct")
		}
		preds := []string{"entailment", "neutral", "contradiction", "entailment"}
		jo := []string{"entailment", "neutral", "neutral", "entailment"}
		sam := []string{"entailment", "contradiction", "neutral", "entailment"}
		for i, id := range []string{"c1", "c2", "c3", "c4"} {
			b.Claim("q", id, map[string]string{"refchecker": preds[i]})
			b.Labels("jo", id, "claim_validity=correct", "entailment="+jo[i])
			b.Labels("sam", id, "claim_validity=correct", "entailment="+sam[i])
		}
		if adjudicate {
			b.Adjudicate("lead", "c2", "entailment", "neutral")
		}
	})
	rate := 20.0
	if _, err := s.SetAnnotator(nil, "jo", &rate, "CAD", "student"); err != nil {
		t.Fatal(err)
	}
	return s
}

// The dashboard's reports are the commands' reports on the same state
// (the commands' reports are the reference): same JSON.
func TestDashboardIsTheCommandsReports(t *testing.T) {
	s := dashboardStore(t, false)
	r, err := dashboardOf(s, time.Now(), nil)
	if err != nil {
		t.Fatal(err)
	}
	same := func(name string, got, want any) {
		t.Helper()
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("%s:\n dashboard %s\n command   %s", name, g, w)
		}
	}
	agr, err := store.ReadWith(s, Agreement, AgreementOptions{})
	if err != nil {
		t.Fatal(err)
	}
	same("agreement", r.Agreement, agr)
	// Cohen's kappa of jo and sam on entailment, by hand: 3 of 4 agree
	// (p_o = 0.75); jo's marginals E 2, N 2, C 0 and sam's E 2, N 1, C 1
	// give p_e = (2·2 + 2·1 + 0·1)/16 = 0.375; κ = (0.75-0.375)/0.625 = 0.6.
	if p := r.Agreement.Fields["entailment"].Pairs; len(p) != 1 || CoefText(p[0].CohenKappa) != "0.600" {
		t.Errorf("entailment pairs %+v, want one with Cohen's kappa 0.600", p)
	}
	met, err := store.ReadWith(s, Metrics, MetricsOptions{Selection: Selection{Annotator: "jo"}})
	if err != nil {
		t.Fatal(err)
	}
	same("metrics (jo, the first annotator with labels)", r.Metrics, met)
	if r.MetricsErr != "" || r.Metrics.Annotator != "jo" {
		t.Errorf("metrics of %q (%s), want jo", r.Metrics.Annotator, r.MetricsErr)
	}
	if r.IR != nil || r.IRErr == "" || r.Gen != nil || r.GenErr == "" {
		t.Errorf("no run and no generated answer: want notes, got IR %v %q, gen %v %q", r.IR != nil, r.IRErr, r.Gen != nil, r.GenErr)
	}
	cost, err := store.ReadValue(s, Cost)
	if err != nil {
		t.Fatal(err)
	}
	// Labels imported took no session: no time has been paid yet; the
	// items are those `progress` counts done (the reference).
	same("cost total", r.Cost.Total.Cost, cost.Total.Cost)
	want, err := storetest.Read(t, s).Progress("jo", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	done := 0
	for _, p := range want {
		done += p.Done
	}
	if a := r.Cost.Annotators["jo"]; a == nil || a.Items != done || done == 0 || a.Rate == nil || *a.Rate != 20 {
		t.Errorf("jo's cost row %+v, want %d items at 20", a, done)
	}
	var got []store.QueueProgress
	for _, q := range r.Progress {
		if q.Annotator == "jo" {
			got = append(got, q)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("jo's queues %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Kind != want[i].Kind || got[i].Done != want[i].Done || got[i].Total != want[i].Total {
			t.Errorf("jo's queue %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// With adjudicated labels the systems are scored against them.
func TestDashboardScoresTheAdjudication(t *testing.T) {
	s := dashboardStore(t, true)
	r, err := dashboardOf(s, time.Now(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Metrics == nil || !r.Metrics.Adjudicated {
		t.Errorf("metrics %+v (%s), want the adjudicated labels", r.Metrics, r.MetricsErr)
	}
}

// A refresh with nothing changed keeps the last refresh's reports; a label
// makes it compute them again.
func TestDashboardKeepsReportsWhileNothingChanges(t *testing.T) {
	s := dashboardStore(t, false)
	first, err := dashboardOf(s, time.Now(), nil)
	if err != nil {
		t.Fatal(err)
	}
	again, err := dashboardOf(s, time.Now(), first)
	if err != nil {
		t.Fatal(err)
	}
	if again.Agreement != first.Agreement || again.Metrics != first.Metrics {
		t.Errorf("nothing changed, yet the reports were built again")
	}
	ref, err := storetest.Read(t, s).Resolve("c2")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordLabel(store.Label{Annotator: "sam", ItemID: ref.ItemID, Field: "entailment", Value: "neutral"}); err != nil {
		t.Fatal(err)
	}
	after, err := dashboardOf(s, time.Now(), again)
	if err != nil {
		t.Fatal(err)
	}
	// sam now agrees with jo on c2: 4 of 4 entailment labels agree.
	if after.Agreement == again.Agreement || PercentText(after.Agreement.Fields["entailment"].PercentAgreement) != "100.0" {
		t.Errorf("after sam's label, entailment agreement %s, want 100.0 from a new report", PercentText(after.Agreement.Fields["entailment"].PercentAgreement))
	}
}

// dashboardOf is one refresh in a snapshot of its own, as the screen reads it.
func dashboardOf(s *store.Store, now time.Time, prev *DashboardReport) (*DashboardReport, error) {
	var r *DashboardReport
	err := s.Read(func(rx *store.ReadTx) (err error) {
		r, err = Dashboard(rx, now, prev)
		return err
	})
	return r, err
}
