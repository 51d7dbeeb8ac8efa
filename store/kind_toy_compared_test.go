package store

import (
	"reflect"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/tally"
)

// The system view over a kind of the tests: the toy kind (kind_toy_test.go)
// declares that systems predict its toy_fun, and the view compares them with
// no edit to its generic code.

func (toyKind) PredictedField() string { return "toy_fun" }

func (toyKind) Enters(f *tally.Family, m *tally.Member, r int64) (string, string) {
	v, ok := f.Counted(m, r)["toy_fun"]
	if !ok {
		return "", ""
	}
	return tally.StepReady, v
}

func TestSystemDisagreementsOfAnotherKind(t *testing.T) {
	s := openTemp(t)
	// id: sysA's prediction ("" none), jo's label.
	toys := []struct{ id, pred, label string }{
		{"toy-1", "fun", "fun"},   // agree
		{"toy-2", "fun", "dull"},  // dull → fun
		{"toy-3", "dull", "dull"}, // agree
		{"toy-4", "fun", "dull"},  // dull → fun
		{"toy-5", "meh", "fun"},   // fun → other (outside the classes)
		{"toy-6", "", "fun"},      // not predicted: left out
		{"toy-7", "fun", ""},      // not labelled: left out
	}
	ids := map[string]int64{}
	err := s.Import(func(tx *Tx) error {
		for _, c := range toys {
			id, _, err := tx.PutItem(kindToy, c.id, 0, 0, "h-"+c.id, "toys.jsonl", false)
			if err != nil {
				return err
			}
			ids[c.id] = id
			preds := map[string]string{"sysB": "dull"}
			if c.pred != "" {
				preds["sysA"] = c.pred
			}
			if err := tx.PutPredictions(id, "toy_fun", preds); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range toys {
		if c.label == "" {
			continue
		}
		if _, err := s.RecordLabel(Label{Annotator: "jo", ItemID: ids[c.id], Field: "toy_fun", Value: c.label}); err != nil {
			t.Fatal(err)
		}
	}
	rev, err := s.pooled().SystemDisagreements(SystemQuery{System: "sysA", Labels: LabelSet{Annotator: "jo"}, Kind: string(kindToy)})
	if err != nil {
		t.Fatal(err)
	}
	// Counted by hand from the table above: toys 1–5 enter, 1 and 3 agree.
	if rev.Kind != "toy" || rev.Field != "toy_fun" || rev.N != 5 || rev.Agree != 2 || !reflect.DeepEqual(rev.Classes, []string{"fun", "dull"}) {
		t.Errorf("review: kind %q field %q N %d agree %d classes %v; want toy, toy_fun, 5, 2, [fun dull]", rev.Kind, rev.Field, rev.N, rev.Agree, rev.Classes)
	}
	want := map[string]map[string]int{"fun": {"fun": 1, OtherClass: 1}, "dull": {"fun": 2, "dull": 1}}
	for e, row := range want {
		for sys, n := range row {
			if rev.Confusion[e][sys] != n {
				t.Errorf("confusion[%s][%s] = %d, want %d", e, sys, rev.Confusion[e][sys], n)
			}
		}
	}
	var cells []string
	for _, c := range rev.Cells {
		var items []string
		for _, it := range c.Items {
			items = append(items, it.ExtID+"/"+it.Kind)
		}
		cells = append(cells, c.Expert+"→"+c.System+" "+c.Field+" "+strings.Join(items, ","))
	}
	wantCells := []string{"dull→fun toy_fun toy-2/toy,toy-4/toy", "fun→other toy_fun toy-5/toy"}
	if !reflect.DeepEqual(cells, wantCells) {
		t.Errorf("cells:\n%q\nwant\n%q", cells, wantCells)
	}
	// The walker's detail reads the toy's predictions of its field.
	d, err := s.pooled().AdjudicationItem(rev.Cells[0].Items[0], []string{"jo"}, "lead", true)
	if err != nil {
		t.Fatal(err)
	}
	if d.PredictedField != "toy_fun" || !reflect.DeepEqual(d.Predictions, map[string]string{"sysA": "fun", "sysB": "dull"}) || d.Labels["jo"]["toy_fun"] != "dull" {
		t.Errorf("detail: field %q predictions %v labels %v", d.PredictedField, d.Predictions, d.Labels["jo"])
	}
	// Without a kind, the view compares the first kind declaring a predicted
	// field in queue order: claims (none here), not toys.
	if rev, err := s.pooled().SystemDisagreements(SystemQuery{System: "sysA", Labels: LabelSet{Annotator: "jo"}}); err != nil || rev.Kind != "claim" || rev.Field != "entailment" || rev.N != 0 {
		t.Errorf("default kind: %q %q N %d (%v), want claim, entailment, 0", rev.Kind, rev.Field, rev.N, err)
	}
	if _, err := s.pooled().SystemDisagreements(SystemQuery{System: "sysA", Labels: LabelSet{Annotator: "jo"}, Kind: "query"}); err == nil || !strings.Contains(err.Error(), `kind "query": its systems predict no field`) {
		t.Errorf("a kind without predictions: %v", err)
	}
}
