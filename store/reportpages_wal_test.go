package store

import (
	"fmt"
	"sort"
	"testing"
)

// The page reader must see the read transaction's snapshot, including pages
// that exist only in the write-ahead log (not yet checkpointed into the
// file), and must not see what is written after the reader opened.
func TestPageReadsSeeTheWALSnapshot(t *testing.T) {
	s := openTemp(t)
	seed(t, s, 300, 3)
	for i := 1; i <= 300; i++ {
		label(t, s, "jo", fmt.Sprintf("q%d-c1", i), "claim_validity", "correct")
	}
	// Into the main file; what follows lives only in the WAL.
	if _, err := s.DB().Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 300; i++ {
		label(t, s, "jo", fmt.Sprintf("q%d-c1", i), "claim_validity", "incorrect")
		label(t, s, "sam", fmt.Sprintf("q%d-c2", i), "claim_validity", "correct")
	}
	want := sqlLabels(t, s)
	r, err := s.ReportReader()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if p, err := r.pages(); err != nil || p == nil {
		t.Fatalf("this build must read by pages (got %v, %v)", p, err)
	}
	// A write after the reader opened must stay invisible to it.
	label(t, s, "lea", "q1-c3", "claim_validity", "correct")
	var got []string
	err = r.EachLabel(LabelQuery{}, func(aid, item int64, field, value []byte) error {
		got = append(got, fmt.Sprintf("%d/%d/%s/%s", aid, item, field, value))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("page reads differ from SQL: %d labels against %d", len(got), len(want))
	}
	if len(want) != 600 {
		t.Fatalf("want 600 labels in the snapshot, SQL gave %d", len(want))
	}
}

func sqlLabels(t *testing.T, s *Store) []string {
	rows, err := s.DB().Query("SELECT annotator_id, item_id, field, value FROM current_labels WHERE role='annotate'")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var aid, item int64
		var f, v string
		rows.Scan(&aid, &item, &f, &v)
		out = append(out, fmt.Sprintf("%d/%d/%s/%s", aid, item, f, v))
	}
	sort.Strings(out)
	return out
}

// The SQL fallback (for a build or a file the page reader cannot read) must
// give what the page reader gives.
func TestSQLFallbackMatchesPageReads(t *testing.T) {
	s := openTemp(t)
	seed(t, s, 120, 3)
	for i := 1; i <= 120; i += 3 {
		label(t, s, "jo", fmt.Sprintf("q%d", i), "question_validity", "valid")
		label(t, s, "jo", fmt.Sprintf("q%d-c2", i), "claim_validity", "correct")
		label(t, s, "sam", fmt.Sprintf("q%d-c2", i), "entailment", "neutral")
	}
	read := func(noPages bool) string {
		r, err := s.ReportReader()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		r.noPages = noPages
		qas, err1 := r.QAs(true)
		claims, err2 := r.Claims(true)
		preds, err3 := r.Predictions("refchecker")
		labels, err4 := r.Labels(LabelQuery{})
		for _, err := range []error{err1, err2, err3, err4} {
			if err != nil {
				t.Fatal(err)
			}
		}
		sort.Slice(labels, func(i, j int) bool {
			return fmt.Sprint(labels[i]) < fmt.Sprint(labels[j])
		})
		return fmt.Sprint(qas, claims, preds, labels)
	}
	byPages, bySQL := read(false), read(true)
	if byPages != bySQL {
		t.Fatalf("page reads and SQL differ:\npages %.300s\nsql   %.300s", byPages, bySQL)
	}
	if len(bySQL) < 1000 {
		t.Fatalf("suspiciously little read: %q", bySQL)
	}
}
