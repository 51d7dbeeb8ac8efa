package report

import (
	"testing"

	"github.com/annotate-dev/annotate/store"
)

// Queries have no source; they make no "(no source)" row in Table 1. A QA
// pair without a source does.
func TestNoSourceRow(t *testing.T) {
	s := openStore(t)
	seed(t, s, func(b *builder) {
		b.QA("p1", "GDPR", "en", "factual_recall")
		b.Query(store.Query{ID: "q1", Text: "Can my landlord enter?"})
		b.Label("jo", "p1", "question_validity", "valid")
	})
	rep, err := store.ReadWith(s, Stats, Selection{Annotator: "jo"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := rep.Sources[""]; ok || len(rep.Sources) != 1 {
		t.Errorf("sources %v: a query made a row", keysOf(rep.Sources))
	}
	seed(t, s, func(b *builder) { b.QA("p2", "", "en", "factual_recall") })
	rep, err = store.ReadWith(s, Stats, Selection{Annotator: "jo"})
	if err != nil {
		t.Fatal(err)
	}
	if st, ok := rep.Sources[""]; !ok || st == nil {
		t.Errorf("sources %v: no row for the pair without a source", keysOf(rep.Sources))
	}
}

func keysOf[V any](m map[string]V) []string { return sortedKeys(m) }
