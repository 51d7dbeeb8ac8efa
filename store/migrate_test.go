package store

import (
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// copyV1 copies the version-1 database written by the build before the kept
// counts (testdata/README.md) to a temporary folder.
func copyV1(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("testdata/v1.db")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "v1.db")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// rowsOf reads a query's rows as strings, straight from a file.
func rowsOf(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		dest := make([]any, len(cols))
		for i := range vals {
			dest[i] = &vals[i]
		}
		if err := rows.Scan(dest...); err != nil {
			t.Fatal(err)
		}
		line := ""
		for _, v := range vals {
			line += v.String + "\t"
		}
		out = append(out, line)
	}
	slices.Sort(out)
	return out
}

func TestMigrateFromVersion1KeepsEveryLabel(t *testing.T) {
	p := copyV1(t)
	raw, err := sql.Open("sqlite", p)
	if err != nil {
		t.Fatal(err)
	}
	const labels = "SELECT role, annotator_id, item_id, field, value, event_id FROM current_labels"
	// The columns of version 1 (later versions add columns, NULL on old events).
	const events = "SELECT id, annotator_id, item_id, field, value, role, created_at, active_ms, session_id, guidelines_version, retracts FROM label_events"
	wantLabels, wantEvents := rowsOf(t, raw, labels), rowsOf(t, raw, events)
	var v int
	raw.QueryRow("PRAGMA user_version").Scan(&v)
	raw.Close()
	if v != 1 || len(wantLabels) != 713 {
		t.Fatalf("testdata/v1.db: version %d, %d labels; want version 1 with 713", v, len(wantLabels))
	}

	s, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.db.QueryRow("PRAGMA user_version").Scan(&v); err != nil || v != SchemaVersion() {
		t.Fatalf("version after open %d, %v", v, err)
	}
	if got := rowsOf(t, s.db, labels); !slices.Equal(got, wantLabels) {
		t.Errorf("current labels changed by the migration: %d rows, want %d", len(got), len(wantLabels))
	}
	if got := rowsOf(t, s.db, events); !slices.Equal(got, wantEvents) {
		t.Errorf("the label log changed")
	}
	if msg := checkKept(t, s); msg != "" {
		t.Fatal(msg)
	}
	// The counts of the demo as the README's campaign leaves it: 31 pairs,
	// 104 claims; the claims batch holds 81.
	var pairs, claims int
	s.db.QueryRow("SELECT n FROM kept_counts WHERE name='items' AND a='qa' AND rater=-1").Scan(&pairs)
	s.db.QueryRow("SELECT SUM(n) FROM kept_counts WHERE name='items' AND a='claim' AND rater=-1").Scan(&claims)
	total, err := s.pooled().QueueTotal(QueueQuery{Annotator: "jo", Batch: "claims-1"})
	if err != nil {
		t.Fatal(err)
	}
	if claims != 104 {
		t.Errorf("claims %d, want 104", claims)
	}
	// 81 claims were cut for answers someone judged correct; of them, the
	// ones whose answer jo judged incorrect or whose question jo judged
	// invalid are not asked of jo.
	gated, _ := s.queueCountRaw("gated_in_batch", "jo")
	if total != 81-gated || gated == 0 {
		t.Errorf("claims-1 for jo: %d asked, %d gated; want 81 in all", total, gated)
	}
	_ = pairs
}

// queueCountRaw sums a kept count of an annotator, for the tests.
func (s *Store) queueCountRaw(name, annotator string) (int, error) {
	var n int
	err := s.db.QueryRow(`SELECT COALESCE(SUM(k.n),0) FROM kept_counts k JOIN annotators a ON a.id=k.rater WHERE k.name=? AND a.name=?`, name, annotator).Scan(&n)
	return n, err
}

func TestSchemaChangesOfOthersChangeNoCount(t *testing.T) {
	// An added column with a default and a VACUUM: the reads are SQL, so
	// neither changes what is counted (the page decoder this replaced read
	// the first as "" and lost rows after a key order change).
	s, err := Open(copyV1(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	before := rowsOf(t, s.db, "SELECT * FROM kept_counts")
	for _, q := range []string{
		"ALTER TABLE claims ADD COLUMN note TEXT NOT NULL DEFAULT 'main'",
		"ALTER TABLE items ADD COLUMN batch_hint TEXT DEFAULT 'main'",
		"VACUUM",
	} {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if msg := checkKept(t, s); msg != "" {
		t.Fatal(msg)
	}
	if after := rowsOf(t, s.db, "SELECT * FROM kept_counts"); !slices.Equal(before, after) {
		t.Error("kept counts changed")
	}
}
