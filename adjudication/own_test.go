package adjudication

import (
	"errors"
	"strings"
	"testing"
)

// A lead who labelled a unit: its decision is refused with the reason,
// unless AllowOwn, when it is recorded as theirs; bulk accepts hold such
// units back (or mark them); the plan shows them as the lead's.
func TestAdjudicatorOwnUnits(t *testing.T) {
	a := Adjudicator{Lead: "ana", Labelled: map[int64]map[string]bool{1: {"persona": true}, 5: {"gold_answer": true}}}
	if own, err := a.Decide(1, "gdpr-001", "category"); own || err != nil {
		t.Errorf("a field ana did not label: own=%v, %v", own, err)
	}
	own, err := a.Decide(1, "gdpr-001", "persona")
	var oe *OwnError
	if !own || !errors.As(err, &oe) || !strings.Contains(err.Error(), "ana labelled persona of gdpr-001: a lead never adjudicates a unit in which they gave a label") {
		t.Errorf("ana's own unit: own=%v, %v", own, err)
	}
	if !a.Own(5, "") || a.Own(2, "") {
		t.Error("Own(item, \"\") should say whether the lead labelled the item at all")
	}
	acc := []Acceptance{{Item: 1, Field: "category", Value: "factual_recall"}, {Item: 1, Field: "persona", Value: "citizen"}, {Item: 2, Field: "persona", Value: "citizen"}}
	kept, held := a.Keep(acc)
	if held != 1 || len(kept) != 2 || kept[0].Own || kept[1].Item != 2 {
		t.Errorf("kept %v, held %d; want persona of item 1 held", kept, held)
	}
	if msg := HeldMessage("ana", held); !strings.Contains(msg, "1 left for another lead: ana labelled them") || !strings.Contains(msg, "--allow-own") {
		t.Errorf("held message %q", msg)
	}
	a.AllowOwn = true
	if own, err := a.Decide(1, "gdpr-001", "persona"); !own || err != nil {
		t.Errorf("--allow-own: own=%v, %v; want allowed and recorded as own", own, err)
	}
	kept, held = a.Keep(acc)
	if held != 0 || len(kept) != 3 || !kept[1].Own || kept[0].Own || kept[2].Own {
		t.Errorf("--allow-own kept %v, held %d; want all, persona of item 1 marked own", kept, held)
	}
	p := Plan{Units: []Unit{{Ref: Ref{ID: 1}, Verdicts: Verdicts{Field: "persona"}}, {Ref: Ref{ID: 1}, Verdicts: Verdicts{Field: "category"}}}}
	a.Mark(&p)
	if !p.Units[0].Own || p.Units[1].Own {
		t.Errorf("marked %+v", p.Units)
	}
}
