package report

import (
	"time"

	"github.com/annotate-dev/annotate/store"
)

// The lead's dashboard (annotate dashboard): the reports the one-shot
// commands print, built in one snapshot per refresh (store.Dashboard), so
// that every number on it is the number `agreement`, `metrics`, `ir`, `gen`
// and `cost` print on the same state. A report with nothing to report yet
// (no second annotator, no run…) is a panel's note, not a failure.

// DashboardDays is how many days the sparklines show.
const DashboardDays = 14

// dashboardGold is the gold set's annotator (`annotate ir`'s default --gold).
const dashboardGold = "gold"

// DashboardReport is one refresh.
type DashboardReport struct {
	Taken    time.Time
	Progress []store.QueueProgress
	Days     []store.LabelDay
	Cost     *CostReport // from the sessions and the kept counts (see dashboardCost)

	Agreement    *AgreementReport
	AgreementErr string
	Metrics      *MetricsReport // the expert against DefaultSystem
	MetricsErr   string
	IR           *IRReport
	IRErr        string
	Gen          *GenReport
	GenErr       string

	fingerprint uint64 // of the state the reports were built on
}

// Dashboard builds one refresh of the dashboard. prev is the last refresh
// (nil: none): when nothing the reports read has changed since (the
// snapshot's fingerprint), its reports are kept rather than computed
// again, so that a poll of an idle campaign costs the read alone. A report
// is never changed once built, so prev may be shared.
func Dashboard(s *store.Store, now time.Time, prev *DashboardReport) (*DashboardReport, error) {
	r := &DashboardReport{Taken: now}
	d, err := s.Dashboard(now, DashboardDays, func(d *store.Dashboard, view *store.Store) error {
		r.fingerprint = d.Fingerprint
		if prev != nil && prev.fingerprint == d.Fingerprint {
			r.Agreement, r.AgreementErr, r.Metrics, r.MetricsErr = prev.Agreement, prev.AgreementErr, prev.Metrics, prev.MetricsErr
			r.IR, r.IRErr, r.Gen, r.GenErr = prev.IR, prev.IRErr, prev.Gen, prev.GenErr
			return nil
		}
		var err error
		if r.Agreement, err = Agreement(view, AgreementOptions{}); err != nil {
			r.Agreement, r.AgreementErr = nil, err.Error()
		}
		sel := expertSelection(view)
		if r.Metrics, err = Metrics(view, MetricsOptions{Selection: sel}); err != nil {
			r.Metrics, r.MetricsErr = nil, err.Error()
		}
		if r.IR, err = IR(view, IROptions{K: 10, Gold: dashboardGold, RankBy: "ndcg", Selection: sel}); err != nil {
			r.IR, r.IRErr = nil, err.Error()
		}
		if r.Gen, err = Gen(view, GenOptions{Selection: sel}); err != nil {
			r.Gen, r.GenErr = nil, err.Error()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	r.Progress, r.Days = withoutGold(d.Queues), d.Days
	r.Cost = dashboardCost(d)
	return r, nil
}

// expertSelection is whose labels the dashboard scores systems against: the
// adjudicated labels once the lead has adjudicated, else the first
// annotator (creation order) with labels (the only one, when the commands
// need no --annotator); the panels name it.
func expertSelection(view *store.Store) Selection {
	var sel Selection
	view.Read(func(rx *store.ReadTx) error {
		p, err := loadPeople(rx)
		if err != nil {
			return err
		}
		if p.final {
			sel.Adjudicated = true
			return nil
		}
		for _, a := range p.all {
			if p.labelled[a.ID] && a.Name != dashboardGold { // the qrels are no expert
				sel.Annotator = a.Name
				break
			}
		}
		return nil
	})
	return sel
}

// withoutGold leaves out the gold set's annotator when it has finished
// nothing: its labels are imported qrels, not work in a queue.
func withoutGold(qs []store.QueueProgress) []store.QueueProgress {
	var out []store.QueueProgress
	for _, q := range qs {
		if q.Annotator == dashboardGold && q.Done == 0 && q.Batch == "" {
			continue
		}
		out = append(out, q)
	}
	return out
}

// dashboardCost is the cost report from what is cheap to read: each
// annotator's session hours (the sessions table) and items finished (the
// kept counts). Cost is paid by the session hour, so the costs and totals
// are `annotate cost`'s; only the share of each session among the kinds and
// the active hours, which need a pass over the label log, are left out.
func dashboardCost(d *store.Dashboard) *CostReport {
	hours := map[string]float64{}
	for _, sp := range d.Sessions {
		hours[sp.Annotator] += float64(store.SpanLength(sp).Milliseconds()) / 3.6e6 // as SessionHours
	}
	var rates []store.AnnotatorRate
	for _, a := range d.Annotators {
		rates = append(rates, a.AnnotatorRate)
	}
	var work []store.KindWork
	for k := range d.Done {
		work = append(work, store.KindWork{Annotator: k[0], Kind: k[1]})
	}
	return computeCost(rates, work, hours, d.Done)
}

// FieldOrder lists the report's fields in the order `agreement` prints them.
func (r *AgreementReport) FieldOrder() []string { return r.order }

// CoefText and PercentText print a statistic as the reports' text does
// ("—" when undefined): the dashboard shows the same figures.
func CoefText(x *float64) string { return coefOf(x) }

// PercentText is a share in percent with one decimal, as the reports print it.
func PercentText(x *float64) string { return pctOf(x) }

// RunOrder lists the runs in the order `ir` prints them.
func (r *IRReport) RunOrder() []string { return r.runOrder }

// ClassOrder lists the expert's classes in the order `metrics` prints the
// confusion (the column "other" follows them).
func (v *Verification) ClassOrder() []string { return v.classes }
