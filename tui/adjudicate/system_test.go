package adjudicate

import (
	"reflect"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// systemCase is jo's label and refchecker's prediction of claims c01…c12.
var systemCase = []struct{ validity, ent, pred string }{
	{"correct", "entailment", "Entailment"},    // diagonal
	{"correct", "entailment", "neutral"},       // entailment → neutral
	{"correct", "entailment", "Neutral"},       // entailment → neutral
	{"correct", "contradiction", "entailment"}, // contradiction → entailment
	{"correct", "contradiction", "entailment"},
	{"correct", "contradiction", "ENTAILMENT"},
	{"correct", "neutral", "contradiction"}, // neutral → contradiction
	{"correct", "neutral", "neutral"},       // diagonal
	{"correct", "neutral", "maybe"},         // neutral → other
	{"correct", "contradiction", "contradiction"},
	{"correct", "entailment", ""},      // no prediction: not verified
	{"incorrect", "", "entailment"},    // judged incorrect: not verified
	{"correct", "bogus", "entailment"}, // entailment outside the schema: left out
}

func seedSystem(t testing.TB, s *store.Store) {
	seedClaims(t, s, len(systemCase), func(i int) string { return systemCase[i-1].pred },
		func(i int) map[string]map[string]string {
			c := systemCase[i-1]
			return map[string]map[string]string{"jo": {schema.ClaimValidity: c.validity, schema.Entailment: c.ent}}
		})
}

func TestSystemCells(t *testing.T) {
	s := openStore(t)
	seedSystem(t, s)
	h := newHarness(t, s, Options{Lead: "lead", StartSystem: true,
		Experts: []store.LabelSet{{Annotator: "jo"}, {Adjudicated: true}}}, 100, 30)
	rev := h.m.e.cells.rev
	if rev == nil {
		t.Fatalf("not loaded: %v", h.m.e.cells.err)
	}
	type cell struct {
		pair string
		ids  []string
	}
	var got []cell
	for _, c := range rev.Cells {
		var ids []string
		for _, it := range c.Items {
			ids = append(ids, it.ExtID)
		}
		got = append(got, cell{c.Expert + "→" + c.System, ids})
	}
	want := []cell{
		{"contradiction→entailment", []string{claimID(4), claimID(5), claimID(6)}},
		{"entailment→neutral", []string{claimID(2), claimID(3)}},
		{"neutral→contradiction", []string{claimID(7)}},
		{"neutral→other", []string{claimID(9)}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("cells\n%v\nwant\n%v", got, want)
	}
	if rev.N != 10 || rev.Agree != 3 {
		t.Errorf("n %d agree %d, want 10 3", rev.N, rev.Agree)
	}
	// The same claims as `annotate metrics` counts.
	m, err := report.Metrics(s, report.MetricsOptions{Selection: report.Selection{Annotator: "jo"}})
	if err != nil {
		t.Fatal(err)
	}
	if v := m.Verification["all"]; v.N != rev.N || !reflect.DeepEqual(v.Confusion, rev.Confusion) {
		t.Errorf("metrics n=%d %v, system view n=%d %v", v.N, v.Confusion, rev.N, rev.Confusion)
	}

	scr := h.screen()
	for _, w := range []string{"refchecker vs jo", "contradiction  → entailment         3  30.0%", "neutral        → other              1"} {
		if !strings.Contains(scr, w) {
			t.Errorf("missing %q:\n%s", w, scr)
		}
	}

	// enter walks the claims of the first cell, read-only but for flag and note.
	h.keys("enter")
	scr = h.screen()
	for _, w := range []string{"contradiction → entailment · claim 1 of 3", "jo          contradiction", "refchecker  entailment", "natural persons 4", "¶ gdpr-p1"} {
		if !strings.Contains(scr, w) {
			t.Errorf("walker: missing %q:\n%s", w, scr)
		}
	}
	h.keys("right", "right")
	if scr = h.screen(); !strings.Contains(scr, "claim 3 of 3") || !strings.Contains(scr, "refchecker  ENTAILMENT") {
		t.Errorf("third claim:\n%s", scr)
	}
	h.keys("1", "f")
	ref, _ := s.Resolve(claimID(6))
	if _, flagged, _ := s.ItemNote("lead", ref.ItemID); !flagged {
		t.Error("f did not flag")
	}
	if cur, _ := s.CurrentLabels("lead", ref.ItemID); len(cur) != 0 {
		t.Errorf("the system view wrote labels: %v", cur)
	}
	h.keys("esc", "down", "down", "enter")
	if scr = h.screen(); !strings.Contains(scr, "neutral → contradiction · claim 1 of 1") {
		t.Errorf("third cell:\n%s", scr)
	}
	// e switches to the adjudicated labels: none yet.
	h.keys("esc", "e")
	if scr = h.screen(); !strings.Contains(scr, "refchecker vs adjudicated") || !strings.Contains(scr, "No verified claim") {
		t.Errorf("adjudicated expert:\n%s", scr)
	}
	// v goes to adjudication: one annotator only, which the screen says.
	h.keys("v")
	if scr = h.screen(); !strings.Contains(scr, "at least two annotators") {
		t.Errorf("adjudication with one annotator:\n%s", scr)
	}
	h.keys("q")
	if !h.quit {
		t.Error("q did not quit")
	}
}

// The walker names its items and compares the field from the cell, not from
// a kind it knows: the help says what the kind's title says.
func TestSystemWalkerKindWords(t *testing.T) {
	for kind, want := range map[schema.Kind]string{schema.KindClaim: "claims", schema.KindQA: "QA pairs", schema.KindQuery: "queries", "unknown": "items"} {
		c := store.SystemCell{Field: "f", Items: []store.ItemRef{{Kind: string(kind)}}}
		if got := kindItems(nil, c); got != want {
			t.Errorf("%s: %q, want %q", kind, got, want)
		}
	}
	if got := kindNoun(nil, store.SystemCell{Items: []store.ItemRef{{Kind: string(schema.KindClaim)}}}); got != "claim" {
		t.Errorf("claim noun %q", got)
	}
	s := openStore(t)
	seedSystem(t, s)
	h := newHarness(t, s, Options{Lead: "lead", StartSystem: true, Experts: []store.LabelSet{{Annotator: "jo"}}}, 100, 30)
	for _, c := range h.m.e.cells.rev.Cells {
		if c.Field != schema.Entailment {
			t.Errorf("cell %s→%s compares %q, want entailment", c.Expert, c.System, c.Field)
		}
	}
	h.keys("enter")
	if scr := h.screen(); !strings.Contains(scr, "←/→ claims") {
		t.Errorf("walker help:\n%s", scr)
	}
}
