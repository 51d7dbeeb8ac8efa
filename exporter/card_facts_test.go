package exporter

import (
	"slices"
	"testing"

	"github.com/annotate-dev/annotate/schema"
)

// The card lists what the exported configs declare once each, in the Hub's
// order whatever the configs' order, and cites a paper that asks for labels
// only when someone labelled.
func TestCardDeclaredFacts(t *testing.T) {
	paper := origin{name: "P"}
	a := factsKind{cardFacts{tasks: []string{"text-classification", "text-retrieval"}, risk: "r1", paper: &paper, paperIfLabelled: true}}
	b := factsKind{cardFacts{tasks: []string{"question-answering", "text-retrieval"}, risk: "r2"}}
	c := &card{configs: []*hfConfig{{name: "a", kind: a}, {name: "x"}, {name: "b", kind: b}}}

	tasks := c.declared(func(f cardFacts) []string { return f.tasks }, hubTaskOrder)
	if want := []string{"question-answering", "text-retrieval", "text-classification"}; !slices.Equal(tasks, want) {
		t.Errorf("tasks %q, want %q (the Hub order, each once)", tasks, want)
	}
	risks := c.declared(func(f cardFacts) []string { return []string{f.risk} }, nil)
	if want := []string{"r1", "r2"}; !slices.Equal(risks, want) {
		t.Errorf("risks %q, want %q (config order)", risks, want)
	}
	if ps := c.declaredPapers(false); len(ps) != 0 {
		t.Errorf("papers without labels %v, want none", ps)
	}
	if ps := c.declaredPapers(true); len(ps) != 1 || ps[0].name != "P" {
		t.Errorf("papers with labels %v, want [P]", ps)
	}
}

// factsKind is a config of the card's tests that says its facts.
type factsKind struct{ f cardFacts }

func (factsKind) Kind() schema.Kind  { return "toy" }
func (factsKind) Config() string     { return "toy" }
func (factsKind) Columns() []Column  { return nil }
func (x factsKind) facts() cardFacts { return x.f }

// A kind's title inside a sentence: lower-cased, an initialism kept.
func TestKindTitle(t *testing.T) {
	for k, want := range map[schema.Kind]string{schema.KindQA: "QA pairs", schema.KindQuery: "queries", schema.KindDocument: "documents"} {
		if got := kindTitle(k); got != want {
			t.Errorf("kindTitle(%s) = %q, want %q", k, got, want)
		}
	}
}
