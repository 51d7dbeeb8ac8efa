package adjudicate

import (
	"reflect"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// seedCitations: two QA pairs jo and sam judge alike but for the declared
// citation_accuracy of q1 (jo exact, sam partial).
func seedCitations(t *testing.T, s *store.Store) {
	t.Helper()
	storetest.DeclareExample(t, s)
	storetest.Seed(t, s, func(b *storetest.Builder) {
		for _, q := range []struct{ id, jo, sam string }{{"q1", "exact", "partial"}, {"q2", "wrong", "wrong"}} {
			b.QA(q.id, "GDPR", "en", "factual_recall")
			for who, v := range map[string]string{"jo": q.jo, "sam": q.sam} {
				b.Labels(who, q.id, "question_validity=valid", "category=factual_recall", "persona=citizen",
					"answer_correctness=correct", "citation_accuracy="+v)
			}
		}
	})
}

// A declared field is reviewed like a built-in one: a unit where the
// annotators differ, its options in the declared order with their words,
// a digit gives the final label; A accepts its agreements.
func TestDeclaredFieldIsAdjudicated(t *testing.T) {
	s := openStore(t)
	seedCitations(t, s)
	h := newHarness(t, s, Options{Lead: "lead"}, 100, 30)
	var got []string
	for _, u := range h.m.e.adj.rev.Units {
		got = append(got, u.ExtID+" "+u.Field)
	}
	if want := []string{"q1 " + storetest.ExampleField}; !reflect.DeepEqual(got, want) {
		t.Fatalf("units %v, want %v", got, want)
	}
	scr := h.screen()
	for _, w := range []string{"citation_accuracy pick the final label", "[2] partial: some right, some wrong or missing · sam",
		"[3] exact: exactly the provisions that answer the question · jo"} {
		if !strings.Contains(scr, w) {
			t.Fatalf("missing %q:\n%s", w, scr)
		}
	}
	h.keys("2") // sam's: partial
	h.keys("A", "y")
	for id, want := range map[string]string{"q1": "partial", "q2": "wrong"} {
		ref, err := storetest.Read(t, s).Resolve(id)
		if err != nil {
			t.Fatal(err)
		}
		d, err := storetest.Read(t, s).AdjudicationItem(ref, nil, "lead", false)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Final[storetest.ExampleField]; got != want {
			t.Errorf("%s: final citation_accuracy %q, want %q (final %v)", id, got, want, d.Final)
		}
	}
}
