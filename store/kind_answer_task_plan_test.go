package store

import (
	"strings"
	"testing"
)

// planOf is SQLite's plan of a query: its steps' details in order.
func planOf(t *testing.T, s *Store, query string, args ...any) []string {
	t.Helper()
	rows, err := s.db.Query("EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plan
}

// TestCitationLookupSearchesTheIndex: a citation typed on the answer screen
// is found through documents_citation, case aside, not by a scan of every
// document's citation (the index compared case too before version 20).
func TestCitationLookupSearchesTheIndex(t *testing.T) {
	s := openTemp(t)
	plan := planOf(t, s, citationLookupSQL, "2019 ONCA 1")
	want := "SEARCH d USING COVERING INDEX documents_citation (citation=?)"
	if len(plan) == 0 || plan[0] != want {
		t.Errorf("plan %q, want it to start with %q", plan, want)
	}
	for _, d := range plan {
		if strings.HasPrefix(d, "SCAN") {
			t.Errorf("a scan in the plan: %q", d)
		}
	}
}
