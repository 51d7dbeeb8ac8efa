package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tally"
)

// The cost report (annotate cost, CanLegalRAGBench Ethics: $20 CAD an hour
// for students, $40 for the paralegal, about $6,000 CAD in all): per
// annotator and task kind, the items, the active hours (the sum of the gaps
// between key presses, each counted up to 5 minutes), the session hours
// (wall clock, a session shared out among the kinds of its decisions by
// their active time) and the cost, paid by the session hour; minutes per
// item, and per query for kinds whose items belong to a query (relevance
// judgments); totals. The lead's adjudications are the task "review".

// CostReport is the report; its JSON keys are docs/json.md's.
type CostReport struct {
	Annotators map[string]*AnnotatorCost `json:"annotators"`
	Total      *CostTotal                `json:"total"`
	order      []string
}

// AnnotatorCost is one annotator's work and pay.
type AnnotatorCost struct {
	Rate         *float64             `json:"rate"`
	Currency     string               `json:"currency"`
	Role         string               `json:"role"`
	Items        int                  `json:"items"`
	ActiveHours  float64              `json:"active_hours"`
	SessionHours float64              `json:"session_hours"`
	Cost         *float64             `json:"cost"` // null without a rate
	Kinds        map[string]*KindCost `json:"kinds"`
}

// KindCost is one annotator's work on one task kind.
type KindCost struct {
	Items           int      `json:"items"`
	ActiveHours     float64  `json:"active_hours"`
	SessionHours    float64  `json:"session_hours"`
	Cost            *float64 `json:"cost"`
	MinutesPerItem  *float64 `json:"minutes_per_item"`
	MinutesPerQuery *float64 `json:"minutes_per_query,omitempty"`
	Queries         int      `json:"queries,omitempty"`
}

// CostTotal sums every annotator; the cost only over those with a rate, in
// one currency (several currencies: Cost is null and Costs has each).
type CostTotal struct {
	Items        int                  `json:"items"`
	ActiveHours  float64              `json:"active_hours"`
	SessionHours float64              `json:"session_hours"`
	Cost         *float64             `json:"cost"`
	Currency     string               `json:"currency"`
	Costs        map[string]float64   `json:"costs"`
	NoRate       []string             `json:"no_rate"` // annotators with work and no rate
	Kinds        map[string]*KindCost `json:"kinds"`
}

// Cost builds the cost report.
func Cost(rx *store.ReadTx) (*CostReport, error) {
	rates, work, err := rx.CostWork()
	if err != nil {
		return nil, err
	}
	hours, err := rx.SessionHours()
	if err != nil {
		return nil, err
	}
	var done map[[2]string]int
	err = func() error {
		cs, err := rx.Counts(tally.Done)
		if err != nil {
			return err
		}
		as, err := rx.Annotators()
		if err != nil {
			return err
		}
		name := map[int64]string{}
		for _, a := range as {
			name[a.ID] = a.Name
		}
		done = map[[2]string]int{}
		for _, c := range cs {
			done[[2]string{name[c.Rater], c.A}] += c.N
		}
		return nil
	}()
	if err != nil {
		return nil, err
	}
	return computeCost(rates, work, hours, done), nil
}

func computeCost(rates []store.AnnotatorRate, work []store.KindWork, hours map[string]float64, done map[[2]string]int) *CostReport {
	r := &CostReport{Annotators: map[string]*AnnotatorCost{},
		Total: &CostTotal{Costs: map[string]float64{}, NoRate: []string{}, Kinds: map[string]*KindCost{}}}
	rateOf := map[string]store.AnnotatorRate{}
	for _, a := range rates {
		rateOf[a.Name] = a
	}
	get := func(name string) *AnnotatorCost {
		a := r.Annotators[name]
		if a == nil {
			rt := rateOf[name]
			a = &AnnotatorCost{Rate: rt.Rate, Currency: rt.Currency, Role: rt.Role, Kinds: map[string]*KindCost{}, SessionHours: hours[name]}
			r.Annotators[name] = a
			r.order = append(r.order, name)
		}
		return a
	}
	for _, w := range work {
		k := &KindCost{Items: w.Items, ActiveHours: float64(w.ActiveMs) / 3.6e6, SessionHours: w.SessionMs / 3.6e6}
		if w.Kind != store.ReviewKind {
			k.Items = done[[2]string{w.Annotator, w.Kind}]
		}
		if k.Items == 0 && w.ActiveMs == 0 && w.SessionMs == 0 {
			// Labels that are not work: judgments imported as a gold set
			// (qrels), which count as no one's items and took no time.
			continue
		}
		a := get(w.Annotator)
		if w.Queries > 0 {
			k.Queries = w.Queries
			k.MinutesPerQuery = ratioF(k.SessionHours*60, w.Queries)
		}
		k.MinutesPerItem = ratioF(k.SessionHours*60, k.Items)
		if a.Rate != nil {
			k.Cost = ptr(*a.Rate * k.SessionHours)
		}
		a.Kinds[w.Kind] = k
		a.Items += k.Items
		a.ActiveHours += k.ActiveHours
		t := r.Total.Kinds[w.Kind]
		if t == nil {
			t = &KindCost{}
			r.Total.Kinds[w.Kind] = t
		}
		t.Items += k.Items
		t.Queries += k.Queries
		t.ActiveHours += k.ActiveHours
		t.SessionHours += k.SessionHours
	}
	// Annotators with sessions and no decision yet still cost their time.
	for name, h := range hours {
		if h > 0 {
			get(name)
		}
	}
	slices.Sort(r.order)
	currencies := map[string]bool{}
	for _, name := range r.order {
		a := r.Annotators[name]
		r.Total.Items += a.Items
		r.Total.ActiveHours += a.ActiveHours
		r.Total.SessionHours += a.SessionHours
		if a.Rate == nil {
			r.Total.NoRate = append(r.Total.NoRate, name)
			continue
		}
		a.Cost = ptr(*a.Rate * a.SessionHours)
		r.Total.Costs[a.Currency] += *a.Cost
		currencies[a.Currency] = true
	}
	for _, t := range r.Total.Kinds {
		t.MinutesPerItem = ratioF(t.SessionHours*60, t.Items)
		if t.Queries > 0 {
			t.MinutesPerQuery = ratioF(t.SessionHours*60, t.Queries)
		}
	}
	if len(currencies) == 1 {
		for c := range currencies {
			r.Total.Currency = c
			r.Total.Cost = ptr(r.Total.Costs[c])
		}
		// One currency: a task's cost is the sum of what each annotator's
		// time on it cost (those without a rate left out).
		for kind, t := range r.Total.Kinds {
			for _, name := range r.order {
				if k := r.Annotators[name].Kinds[kind]; k != nil && k.Cost != nil {
					t.Cost = ptr(*k.Cost + valueOr(t.Cost))
				}
			}
		}
	}
	return r
}

func ratioF(a float64, b int) *float64 {
	if b == 0 {
		return nil
	}
	return ptr(a / float64(b))
}

// WriteText renders the cost report.
func (r *CostReport) WriteText(w io.Writer) error {
	if len(r.order) == 0 {
		fmt.Fprintln(w, "No work recorded yet.")
		return nil
	}
	labels := []string{"annotator"}
	labels = append(labels, r.order...)
	t := newTable(w, labels)
	t.row("annotator", "task", "items", "active h", "session h", "min/item", "rate", "cost")
	for _, name := range r.order {
		a := r.Annotators[name]
		for _, k := range sortedKeys(a.Kinds) {
			c := a.Kinds[k]
			t.row(name, k, itoa(c.Items), hoursText(c.ActiveHours), hoursText(c.SessionHours), minutesText(c.MinutesPerItem), "", money(c.Cost, a.Currency))
		}
		rate := undefinedText
		if a.Rate != nil {
			rate = fmt.Sprintf("%.2f %s/h", *a.Rate, a.Currency)
		}
		t.row(name, "(all)", itoa(a.Items), hoursText(a.ActiveHours), hoursText(a.SessionHours), "", rate, money(a.Cost, a.Currency))
	}
	if err := t.flush(); err != nil {
		return err
	}
	var costs []string
	for _, c := range sortedKeys(r.Total.Costs) {
		costs = append(costs, fmt.Sprintf("%.2f %s", r.Total.Costs[c], c))
	}
	if len(costs) == 0 {
		costs = []string{undefinedText}
	}
	fmt.Fprintf(w, "\nTotal: %s, %s active hours, %s session hours, cost %s\n", count(r.Total.Items, "item"), hoursText(r.Total.ActiveHours),
		hoursText(r.Total.SessionHours), strings.Join(costs, " + "))
	for _, k := range sortedKeys(r.Total.Kinds) {
		c := r.Total.Kinds[k]
		line := fmt.Sprintf("  %s: %s, %s min per item", k, count(c.Items, "item"), minutesText(c.MinutesPerItem))
		if c.MinutesPerQuery != nil {
			line += fmt.Sprintf(", %s min per query (%s)", minutesText(c.MinutesPerQuery), count(c.Queries, "query"))
		}
		fmt.Fprintln(w, line)
	}
	if len(r.Total.NoRate) > 0 {
		fmt.Fprintf(w, "No rate (their time is not costed): %s; set one with annotate annotator set NAME --rate R --currency C\n", strings.Join(r.Total.NoRate, ", "))
	}
	fmt.Fprintln(w, "Cost is paid by the session hour (wall clock, shared out among tasks by active time). Active time is the sum of the gaps between key presses on an item, each gap counted up to 5 minutes.")
	return nil
}

func hoursText(h float64) string { return fmt.Sprintf("%.2f", h) }

func minutesText(m *float64) string {
	if m == nil {
		return undefinedText
	}
	return fmt.Sprintf("%.1f", *m)
}

func money(c *float64, currency string) string {
	if c == nil {
		return undefinedText
	}
	return strings.TrimSpace(fmt.Sprintf("%.2f %s", *c, currency))
}

func valueOr(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}
