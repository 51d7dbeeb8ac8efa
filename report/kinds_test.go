package report

import (
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
)

func TestStatsOfOtherKinds(t *testing.T) {
	s := openStore(t)
	seed(t, s, func(b *builder) {
		for _, q := range []store.Query{
			{ID: "q1", Text: "t", Persona: "lay", Jurisdiction: "ON", Issue: "tenancy"},
			{ID: "q2", Text: "t", Persona: "lay", Jurisdiction: "BC", Issue: "tenancy"},
			{ID: "q3", Text: "t", Persona: "professional", Jurisdiction: "ON"},
		} {
			b.Query(q)
		}
		b.Label("jo", "q1", "query_validity", "valid")
		b.Label("jo", "q3", "query_validity", "invalid")
	})
	rep, err := store.ReadWith(s, Stats, Selection{})
	if err != nil {
		t.Fatal(err)
	}
	q := rep.Kinds["query"]
	if q == nil || q.Items != 3 || q.Fields["query_validity"]["valid"] != 1 || q.Fields["query_validity"]["invalid"] != 1 ||
		q.By["persona"]["lay"] != 2 || q.By["jurisdiction"]["ON"] != 2 || q.By["issue"][""] != 1 {
		t.Errorf("query stats %+v", q)
	}
	out := render(t, rep.WriteText)
	for _, want := range []string{"No QA pairs or claims.", "Queries: 3", "query_validity: valid 1, invalid 1", "by persona: lay 2, professional 1", "by issue: (none) 1, tenancy 2"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	if _, ok := rep.Kinds["document"]; ok {
		t.Error("a kind without items is not reported")
	}
}
