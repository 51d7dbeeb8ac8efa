package store

import (
	"iter"
	"path/filepath"
	"testing"
)

// benchBackupSQL fills a store the shape of the 100k-claim bench fixture,
// in the tables that dominate a backup: 20,000 QA pairs with five claims
// each (items, qa_pairs, claims, predictions) and four label events a
// claim (label_events and current_labels), built set-based in one
// transaction in a second or two.
var benchBackupSQL = []string{
	`INSERT INTO sources(id,name,language,jurisdiction) VALUES (1,'GDPR','en','EU'),(2,'CIVIL','fr','LU')`,
	`INSERT INTO annotators(id,name,human,created_at) VALUES (1,'a1',1,'t'),(2,'a2',1,'t')`,
	`WITH RECURSIVE n(q) AS (SELECT 0 UNION ALL SELECT q+1 FROM n WHERE q+1<20000)
		INSERT INTO items(id,ext_id,kind,source_id,hash,imported_at) SELECT q*6+1, 'q'||q, 'qa', 1+q%2, hex(randomblob(16)), '2026-12-01T10:00:00Z' FROM n`,
	`WITH RECURSIVE n(q) AS (SELECT 0 UNION ALL SELECT q+1 FROM n WHERE q+1<20000)
		INSERT INTO qa_pairs(item_id,question,answer,category) SELECT q*6+1, 'What must a controller do under Article '||q||'?',
		'The controller must '||substr(hex(randomblob(60)),1,120)||' without undue delay.', 'factual_recall' FROM n`,
	`WITH RECURSIVE n(q) AS (SELECT 0 UNION ALL SELECT q+1 FROM n WHERE q+1<20000), k(j) AS (VALUES (1),(2),(3),(4),(5))
		INSERT INTO items(id,ext_id,kind,source_id,parent_id,hash,imported_at) SELECT q*6+1+j, 'q'||q||'-c'||j, 'claim', 1+q%2, q*6+1, hex(randomblob(16)), '2026-12-01T10:00:00Z' FROM n, k`,
	`INSERT INTO claims(item_id,position,subject,predicate,object) SELECT id, id%6, 'The controller', 'must notify', 'the authority within '||id||' hours' FROM items WHERE kind='claim'`,
	`INSERT INTO predictions(item_id,system,field,value) SELECT id, 'refchecker', 'entailment', 'neutral' FROM items WHERE kind='claim'`,
	`INSERT INTO label_events(annotator_id,item_id,field,value,created_at,active_ms,guidelines_version)
		SELECT a.id, i.id, f.f, CASE WHEN i.id%8=0 THEN 'incorrect' ELSE 'correct' END, '2026-12-01T10:00:00.123Z', 3000+i.id%977, 'v1'
		FROM items i, annotators a, (SELECT 'claim_validity' AS f UNION ALL SELECT 'entailment') f WHERE i.kind='claim' ORDER BY 1, 2, 3`,
	`INSERT INTO current_labels(role,annotator_id,item_id,field,value,event_id)
		SELECT role, annotator_id, item_id, field, value, id FROM label_events ORDER BY role, annotator_id, item_id, field`,
}

// BenchmarkBackupRows reads every table of the store row by row as the
// backup writes it (1,140,000 rows, 188 MB of lines), the part of `export --format
// jsonl` that is annotate's own: what the sqlite3 shell's json_object does.
func BenchmarkBackupRows(b *testing.B) {
	s, err := Open(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	tx, err := s.db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	for _, q := range benchBackupSQL {
		if _, err := tx.Exec(q); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	// plain: one Go value a column, the read before the packed one.
	reads := map[string]func(q querier, t BackupTable) iter.Seq2[[]byte, error]{
		"packed": backupRows,
		"plain": func(q querier, t BackupTable) iter.Seq2[[]byte, error] {
			return func(y func([]byte, error) bool) { plainBackupRows(q, t, 0, y) }
		},
	}
	for _, name := range []string{"plain", "packed"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rx, err := s.Snapshot()
				if err != nil {
					b.Fatal(err)
				}
				tables, err := rx.BackupTables()
				if err != nil {
					b.Fatal(err)
				}
				rows, size := 0, 0
				for _, t := range tables {
					for line, err := range reads[name](rx.q, t) {
						if err != nil {
							b.Fatal(err)
						}
						rows++
						size += len(line) + 1
					}
				}
				rx.Close()
				b.ReportMetric(float64(rows), "rows")
				b.ReportMetric(float64(size)/(1<<20), "MB")
			}
		})
	}
}
