package tui

import (
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
)

// The query kind has a screen of its own (kind_query.go) and nothing else in the
// TUI names it: the queue, the flow and the save are the generic ones.
func TestQueryScreen(t *testing.T) {
	s := openStore(t)
	err := s.Import(func(tx *store.Tx) error {
		for _, q := range []store.Query{
			{ID: "q-1", Text: "Can my landlord evict me without notice?", Persona: "lay", Jurisdiction: "ON", Issue: "tenancy"},
			{ID: "q-2", Text: "What notice period applies?", Persona: "professional", Jurisdiction: "BC"},
		} {
			if _, _, err := tx.PutQuery(q, q.ID, "t", false); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, s, Options{Kind: "query"})
	h.at("q-1", "query_validity")
	v := h.view()
	for _, want := range []string{"Can my landlord evict me without notice?", "lay", "ON", "tenancy"} {
		if !strings.Contains(v, want) {
			t.Errorf("screen lacks %q:\n%s", want, v)
		}
	}
	h.keys("y")
	h.at("q-2", "query_validity")
	h.keys("n")
	h.wantLabels("q-1", map[string]string{"query_validity": "valid"})
	h.wantLabels("q-2", map[string]string{"query_validity": "invalid"})
	if v := h.view(); !strings.Contains(v, "Nothing left") {
		t.Errorf("after both queries:\n%s", v)
	}
}
