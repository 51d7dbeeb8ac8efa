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

// The card measures what the exported kinds declare (kindExport.measure),
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
	a := &kindExport{kind: schema.Kind("toy_a"), measure: measure("a", nil)}
	b := &kindExport{kind: schema.Kind("toy_b"), measure: measure("b", nil)}
	absent := &kindExport{kind: schema.Kind("toy_absent"), measure: measure("absent", nil)}
	bare := &kindExport{kind: schema.Kind("toy_bare")} // measures nothing
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
	b.measure = measure("b", boom)
	e.labels = store.LabelSet{Adjudicated: true}
	if r := e.reportsReader(configs)(); !errors.Is(r.err, boom) || !slices.Equal(calls, []string{"b:"}) {
		t.Errorf("a failing measure: err %v, calls %v; want boom after b only", r.err, calls)
	}
}

// The QA pairs measure Table 1 and the claims the metrics of a system:
// the kinds' own declarations, the card's sections read them back.
func TestQAAndClaimDeclareTheirMeasures(t *testing.T) {
	for _, k := range []schema.Kind{schema.KindQA, schema.KindClaim} {
		if x, ok := exportOf(k); !ok || x.measure == nil {
			t.Errorf("%s declares no measured report", k)
		}
	}
	e := &exporter{s: openStore(t)}
	claims, _ := exportOf(schema.KindClaim)
	m, err := claims.measure(e, storetest.Read(t, e.s), report.Selection{Annotator: "jo"})
	if err != nil || m.(*report.MetricsReport) != nil {
		t.Errorf("claims without predictions: %v, %v; want no metrics", m, err)
	}
}
