package exporter

import (
	"errors"
	"github.com/annotate-dev/annotate/store/storetest"
	"slices"
	"testing"

	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// The card measures what the exported kinds declare (measured),
// not a list of its own: each kind whose config has rows, once however
// many of its configs are exported, in the configs' order, for the label
// set exported; a kind with no rows, or no label set at all, is not
// measured. A measure's error is the card's, and stops the ones after it.
func TestCardMeasuresTheKindsExported(t *testing.T) {
	s := openStore(t)
	var calls []string
	measure := func(name string, err error) func(*exporter, *store.ReadTx, report.Selection) (any, error) {
		return func(_ *exporter, _ *store.ReadTx, sel report.Selection) (any, error) {
			calls = append(calls, name+":"+sel.Annotator)
			return name + " report", err
		}
	}
	a := &measuredToy{kind: "toy_a", m: measure("a", nil)}
	b := &measuredToy{kind: "toy_b", m: measure("b", nil)}
	absent := &measuredToy{kind: "toy_absent", m: measure("absent", nil)}
	bare := bareToy("toy_bare") // measures nothing
	configs := []*hfConfig{{name: "b", rows: 2, kind: b}, {name: "a", rows: 1, kind: a}, {name: "a2", rows: 5, kind: a},
		{name: "absent", rows: 0, kind: absent}, {name: "bare", rows: 3, kind: bare}, {name: "qrels", rows: 4}}

	e := &exporter{s: s, labels: store.LabelSet{Annotator: "jo"}}
	r := e.reportsReader(configs)()
	if r.err != nil {
		t.Fatal(r.err)
	}
	if want := []string{"b:jo", "a:jo"}; !slices.Equal(calls, want) {
		t.Errorf("measured %v, want %v", calls, want)
	}
	c := &card{rep: r}
	if got := measuredOf[string](c, "toy_a"); got != "a report" {
		t.Errorf("toy_a measured %q", got)
	}
	if got := measuredOf[string](c, "toy_absent"); got != "" {
		t.Errorf("a kind with no rows measured %q", got)
	}
	if got := measuredOf[*report.StatsReport](c, schema.KindQA); got != nil {
		t.Errorf("QA pairs not exported, yet Table 1 measured")
	}

	calls = nil
	e.labels = store.LabelSet{}
	if r := e.reportsReader(configs)(); r.err != nil || len(calls) != 0 || r.measured != nil {
		t.Errorf("no label set: err %v, measured %v (calls %v)", r.err, r.measured, calls)
	}

	calls = nil
	boom := errors.New("boom")
	b.m = measure("b", boom)
	e.labels = store.LabelSet{Adjudicated: true}
	if r := e.reportsReader(configs)(); !errors.Is(r.err, boom) || !slices.Equal(calls, []string{"b:"}) {
		t.Errorf("a failing measure: err %v, calls %v; want boom after b only", r.err, calls)
	}
}

// The QA pairs measure Table 1 and the claims the metrics of a system:
// the kinds' own declarations, the card's sections read them back.
func TestQAAndClaimDeclareTheirMeasures(t *testing.T) {
	for _, k := range []schema.Kind{schema.KindQA, schema.KindClaim} {
		if x, ok := exportOf(k); !ok {
			t.Errorf("%s has no config", k)
		} else if _, ok := x.(measured); !ok {
			t.Errorf("%s declares no measured report", k)
		}
	}
	e := &exporter{s: openStore(t)}
	claims, _ := exportOf(schema.KindClaim)
	m, err := claims.(measured).measure(e, storetest.Read(t, e.s), report.Selection{Annotator: "jo"})
	if err != nil || m.(*report.MetricsReport) != nil {
		t.Errorf("claims without predictions: %v, %v; want no metrics", m, err)
	}
}

// measuredToy is a config of the card's tests whose kind measures a report.
type measuredToy struct {
	kind schema.Kind
	m    func(*exporter, *store.ReadTx, report.Selection) (any, error)
}

func (x *measuredToy) Kind() schema.Kind { return x.kind }
func (x *measuredToy) Config() string    { return string(x.kind) }
func (*measuredToy) Columns() []Column   { return nil }
func (x *measuredToy) measure(e *exporter, rx *store.ReadTx, sel report.Selection) (any, error) {
	return x.m(e, rx, sel)
}

// bareToy is a config of the card's tests whose kind measures nothing.
type bareToy schema.Kind

func (x bareToy) Kind() schema.Kind { return schema.Kind(x) }
func (x bareToy) Config() string    { return string(x) }
func (bareToy) Columns() []Column   { return nil }
