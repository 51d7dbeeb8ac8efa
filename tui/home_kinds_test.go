package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
)

// The home screen lists the queues of the kinds the database holds: a
// database of queries shows no QA pair or claim row, and an empty one says
// there is nothing to annotate instead of showing an empty queue.
func TestHomeShowsOnlyTheKindsPresent(t *testing.T) {
	s := openStore(t)
	err := s.Import(func(tx *store.Tx) error {
		_, _, err := tx.PutQuery(store.Query{ID: "q-1", Text: "Can my landlord evict me without notice?"}, "q-1", "t", false)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	v := newHarness(t, s, Options{}).view()
	if !strings.Contains(v, "▸ Queries") {
		t.Errorf("home lacks the queries' row:\n%s", v)
	}
	for _, absent := range []string{"QA pairs", "Claims"} {
		if strings.Contains(v, absent) {
			t.Errorf("home shows %q on a database without them:\n%s", absent, v)
		}
	}

	empty := newHarness(t, openStore(t), Options{}).view()
	if strings.Contains(empty, "QA pairs 0") || strings.Contains(empty, "Queues") {
		t.Errorf("an empty database shows a queue:\n%s", empty)
	}
	if !strings.Contains(strings.Join(strings.Fields(empty), " "), "Nothing to annotate yet") {
		t.Errorf("an empty database does not say so:\n%s", empty)
	}
	h := newHarness(t, openStore(t), Options{})
	h.keys("enter") // nothing to start: stays home
	if _, ok := h.m.cur.(*homeScreen); !ok {
		t.Errorf("enter on an empty home left it: %T", h.m.cur)
	}
}

// The annotation screens keep one screen per kind: a second is refused.
func TestRegisterRefusesAKindTwice(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "kind query registered twice") {
			t.Errorf("a second query screen: %v, want a panic naming the kind", r)
		}
	}()
	Register(queryKind{})
}
