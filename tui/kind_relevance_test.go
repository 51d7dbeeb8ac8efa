package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
)

// relevanceStore holds one query, documents retrieved by two runs with
// scores and ranks that must never reach the screen, and a pool of them.
// d-long is a long case whose retrieved chunk is far down.
func relevanceStore(t testing.TB, longParas int, graded bool) *store.Store {
	t.Helper()
	s := openStore(t)
	var long strings.Builder
	for i := 0; i < longParas; i++ {
		fmt.Fprintf(&long, "Paragraph %d. The tribunal reviewed the evidence about the lease and the deposit at length.\n", i+1)
	}
	chunkStart := long.Len()
	long.WriteString("Held: the landlord entered the rental unit without written notice, which breached the tenant's right to quiet enjoyment.\n")
	chunkEnd := long.Len()
	for i := 0; i < longParas; i++ {
		fmt.Fprintf(&long, "Costs paragraph %d. The tenant is awarded costs fixed at a modest amount.\n", i+1)
	}
	err := s.Import(func(tx *store.Tx) error {
		q := store.Query{ID: "q-1", Text: "Can my landlord enter my unit without notice?", Persona: "lay", Jurisdiction: "ON", Issue: "tenancy"}
		if _, _, err := tx.PutQuery(q, q.ID, "t", false); err != nil {
			return err
		}
		docs := []store.Document{
			{ID: "d-long", Title: "Tenant v. Landlord", Citation: "2031 ONLTB 1", Text: long.String(),
				Chunks: []store.Chunk{{ID: "d-long#held", Start: chunkStart, End: chunkEnd}}},
			{ID: "d-short", Title: "Another tenant", Text: "A tenant's deposit must be returned within a reasonable time."},
			{ID: "d-third", Title: "A third case", Text: "The landlord's notice of entry was given 24 hours ahead."},
			{ID: "d-gold", Title: "The seed case", Text: "Entry without notice breaches quiet enjoyment."},
		}
		for _, d := range docs {
			if _, _, err := tx.PutDocument(d, d.ID, "t", false); err != nil {
				return err
			}
		}
		if err := tx.BeginRuns(); err != nil {
			return err
		}
		for i, r := range []store.RunRow{
			{Run: "secret-run-alpha", Query: "q-1", Doc: "d-long#held", Rank: 1, Score: 0.987654},
			{Run: "secret-run-alpha", Query: "q-1", Doc: "d-short", Rank: 2, Score: 0.876543},
			{Run: "secret-run-beta", Query: "q-1", Doc: "d-third", Rank: 7, Score: 42.4242},
		} {
			r.Line = i + 1
			if err := tx.StageRunRow(r); err != nil {
				return err
			}
		}
		if _, err := tx.WriteRuns(false, func(int) string { return "t.run" }); err != nil {
			return err
		}
		// The gold set's pair comes first and is no work: no queue shows it.
		id, _, err := tx.PutRelevance("q-1", "d-gold", "t.qrels")
		if err != nil {
			return err
		}
		_, err = tx.PutLabel(store.Label{Annotator: "gold", ItemID: id, Field: "relevance", Value: "relevant"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	seed := int64(5)
	if _, err := s.CreatePool(store.PoolSpec{Name: "pool", Runs: []string{"secret-run-alpha", "secret-run-beta"}, Depth: 10, Seed: &seed, Graded: graded}); err != nil {
		t.Fatal(err)
	}
	return s
}

// The screen shows the query (persona, jurisdiction) and the document, and
// nothing of the runs: no run name, rank or score, on any of the pool's
// items, at any step.
func TestRelevanceScreenIsBlind(t *testing.T) {
	s := relevanceStore(t, 3, false)
	h := newHarness(t, s, Options{Kind: "relevance"})
	ids, _ := s.BatchItems("pool", "")
	for i, id := range ids {
		h.at(id, "relevance")
		v := h.view()
		if want := fmt.Sprintf("item %d of %d", i+1, len(ids)); !strings.Contains(v, want) {
			t.Errorf("%s: the header lacks %q:\n%s", id, want, v)
		}
		for _, want := range []string{"Can my landlord enter my unit without notice?", "lay", "ON"} {
			if !strings.Contains(v, want) {
				t.Errorf("%s: the screen lacks %q:\n%s", id, want, v)
			}
		}
		for _, secret := range []string{"secret", "alpha", "beta", "0.98", "98.7", "0.87", "42.42", "rank", "score"} {
			if strings.Contains(strings.ToLower(v), secret) {
				t.Errorf("%s: the screen shows %q:\n%s", id, secret, v)
			}
		}
		if i < len(ids)-1 {
			h.keys("y")
		}
	}
}

// y and n with a reason, undo, skip and the usual keys; the labels are the
// store's.
func TestRelevanceScreenJudges(t *testing.T) {
	s := relevanceStore(t, 3, false)
	h := newHarness(t, s, Options{Kind: "relevance"})
	ids, _ := s.BatchItems("pool", "")
	h.at(ids[0], "relevance")
	h.keys("y")
	h.at(ids[1], "relevance")
	h.keys("n")
	h.at(ids[1], "irrelevance_reason")
	if v := h.view(); !strings.Contains(v, "reversed_roles") || !strings.Contains(v, "Why is it not relevant?") {
		t.Errorf("reason card:\n%s", v)
	}
	h.keys("2")
	h.at(ids[2], "relevance")
	h.keys("u") // back to the reason
	h.at(ids[1], "irrelevance_reason")
	h.keys("3")
	h.wantLabels(ids[0], map[string]string{"relevance": "relevant"})
	h.wantLabels(ids[1], map[string]string{"relevance": "not_relevant", "irrelevance_reason": "different_posture"})
	h.keys("?")
	if v := h.view(); !strings.Contains(v, "relevance") || !strings.Contains(v, "Is the document relevant to the query?") {
		t.Errorf("guidelines of relevance:\n%s", v)
	}
}

// / searches the long case and gives the pane the focus: n and N move
// between the matches, esc leaves, and n is "not relevant" again; c jumps
// to the retrieved passage.
func TestRelevanceSearchAndChunkJump(t *testing.T) {
	s := relevanceStore(t, 200, false)
	h := newHarness(t, s, Options{Kind: "relevance"})
	// Go to the long case.
	h.keys("g")
	h.typeText("q-1/d-long")
	h.keys("enter")
	h.at("q-1/d-long", "relevance")
	if v := h.view(); strings.Contains(v, "Held: the landlord entered") {
		t.Fatalf("the passage is far down, not on the first screen:\n%s", v)
	}
	h.keys("c")
	if v := h.view(); !strings.Contains(v, "Held: the landlord entered") || !strings.Contains(v, "┃") || !strings.Contains(v, "Retrieved passage 1 of 1") {
		t.Errorf("c did not show the retrieved passage:\n%s", v)
	}
	h.keys("/")
	h.typeText("COSTS paragraph 150")
	h.keys("enter")
	v := h.view()
	if !strings.Contains(v, "Costs paragraph 150.") || !strings.Contains(v, "match 1 of 1") {
		t.Errorf("search did not show its match:\n%s", v)
	}
	// Accents and case are ignored; n and N cycle through the matches.
	h.keys("/")
	h.typeText("Trïbunal")
	h.keys("enter")
	if v := h.view(); !strings.Contains(v, "match 1 of 200") {
		t.Errorf("first match:\n%s", v)
	}
	h.keys("n", "n")
	if v := h.view(); !strings.Contains(v, "match 3 of 200") || !strings.Contains(v, "▶") {
		t.Errorf("after n n:\n%s", v)
	}
	h.keys("N", "N", "N")
	if v := h.view(); !strings.Contains(v, "match 200 of 200") || !strings.Contains(v, "Paragraph 200.") {
		t.Errorf("N wraps to the last match:\n%s", v)
	}
	h.at("q-1/d-long", "relevance") // n while searching judged nothing
	h.keys("esc", "n")
	h.at("q-1/d-long", "irrelevance_reason")
	h.keys("1")
	h.wantLabels("q-1/d-long", map[string]string{"relevance": "not_relevant", "irrelevance_reason": "different_issue"})
}

// A graded pool takes 0, 1, 2 (y is 1, n is 0) and records the grade.
func TestRelevanceGraded(t *testing.T) {
	s := relevanceStore(t, 3, true)
	h := newHarness(t, s, Options{Kind: "relevance"})
	ids, _ := s.BatchItems("pool", "")
	h.at(ids[0], "relevance")
	if v := h.view(); !strings.Contains(v, "[2] highly relevant") {
		t.Errorf("graded card:\n%s", v)
	}
	h.keys("2")
	h.at(ids[1], "relevance")
	h.keys("y")
	h.at(ids[2], "relevance")
	h.keys("0")
	h.at(ids[2], "irrelevance_reason")
	h.keys("4")
	h.wantLabels(ids[0], map[string]string{"relevance": "relevant", "relevance_grade": "2"})
	h.wantLabels(ids[1], map[string]string{"relevance": "relevant", "relevance_grade": "1"})
	h.wantLabels(ids[2], map[string]string{"relevance": "not_relevant", "relevance_grade": "0", "irrelevance_reason": "other"})
}
