package store_test

import (
	"testing"

	"github.com/annotate-dev/annotate/demo"
	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/store/storetest"
)

// storetest.Recount, which other packages' tests and benchmarks call after
// writing rows behind the store's back, does recount: kept counts spoiled
// by SQL come back to what the writes kept, and the store stays usable.
func TestStoretestRecountRecounts(t *testing.T) {
	s := storetest.Open(t)
	for _, f := range demo.Files() {
		if _, err := importer.ImportReader(s, f.Name, f.Data, importer.Options{Format: f.Format}); err != nil {
			t.Fatal(err)
		}
	}
	sum := func() (n, rows int) {
		if err := storetest.DB(t, s).QueryRow("SELECT COALESCE(SUM(n), 0), COUNT(*) FROM kept_counts").Scan(&n, &rows); err != nil {
			t.Fatal(err)
		}
		return n, rows
	}
	kept, rows := sum()
	if rows == 0 {
		t.Fatal("the demo keeps no counts")
	}
	if _, err := storetest.DB(t, s).Exec("UPDATE kept_counts SET n = n + 7"); err != nil {
		t.Fatal(err)
	}
	if n, _ := sum(); n != kept+7*rows {
		t.Fatalf("spoiled: %d, want %d", n, kept+7*rows)
	}
	storetest.Recount(t, s)
	if n, r := sum(); n != kept || r != rows {
		t.Errorf("after Recount: %d in %d rows, want %d in %d", n, r, kept, rows)
	}
	if _, err := importer.ImportReader(s, demo.Files()[0].Name, demo.Files()[0].Data, importer.Options{Format: demo.Files()[0].Format}); err != nil {
		t.Errorf("the store after Recount: %v", err)
	}
}
