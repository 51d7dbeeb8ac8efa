package exporter

import (
	"context"
	"github.com/annotate-dev/annotate/store/storetest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/annotate-dev/annotate/store"
)

// The benchmark store: 200,000 QA pairs of two sources (each with one context
// paragraph of ~250 characters, a ~60-character question and a ~200-character
// answer) and five claims each, 1,000,000 claims with a refchecker
// prediction; annotator a1 labelled every pair and claim (2,500,000 labels,
// with the asked-when cases: invalid questions with a persona, incorrect
// claims with an entailment), a2 the claims of every fifth pair. It is built
// with set-based SQL in one transaction, rows inserted in index order where
// it matters: about a minute, where a million Put calls would take an hour.
const (
	benchQA     = 200_000
	benchClaims = benchQA * 5
)

func nli(expr string) string {
	return `CASE WHEN ` + expr + `<6 THEN 'entailment' WHEN ` + expr + `<9 THEN 'neutral' ELSE 'contradiction' END`
}

var benchSQL = func() []string {
	n := `WITH RECURSIVE n(q) AS (SELECT 0 UNION ALL SELECT q+1 FROM n WHERE q+1<200000) `
	c := `WITH RECURSIVE n(q) AS (SELECT 0 UNION ALL SELECT q+1 FROM n WHERE q+1<200000),
		k(j) AS (VALUES (1),(2),(3),(4),(5)), c(id, i, q, j) AS (SELECT q*6+1+j, q*5+j-1, q, j FROM n, k) `
	question := `'What must a controller do under Article '||q||' of the regulation?'`
	answer := `'The controller must '||substr(hex(randomblob(60)),1,120)||' and notify the supervisory authority without undue delay.'`
	para := `'Paragraph '||q||'. '||substr(hex(randomblob(120)),1,230)`
	return []string{
		`INSERT INTO sources(id,name,language,jurisdiction) VALUES (1,'GDPR','en','EU'),(2,'CIVIL','fr','LU')`,
		`INSERT INTO annotators(id,name,human,created_at) VALUES (1,'a1',1,'t'),(2,'a2',1,'t')`,
		n + `INSERT INTO items(id,ext_id,kind,source_id,hash,imported_at) SELECT q*6+1, 'q'||q, 'qa', 1+q%2, '', 't' FROM n`,
		n + `INSERT INTO qa_pairs(item_id,question,answer,category) SELECT q*6+1, ` + question + `, ` + answer + `,
			CASE q%4 WHEN 0 THEN 'general_legal_research' WHEN 1 THEN 'factual_recall' WHEN 2 THEN 'false_premise' ELSE 'jurisdiction_time_specific' END FROM n`,
		n + `INSERT INTO context_units(id,ext_id,source_id,text) SELECT q+1, 'p'||q, 1+q%2, ` + para + ` FROM n`,
		n + `INSERT INTO qa_contexts(qa_item_id,position,context_id) SELECT q*6+1, 0, q+1 FROM n`,
		c + `INSERT INTO items(id,ext_id,kind,source_id,parent_id,hash,imported_at) SELECT id, 'q'||q||'-c'||j, 'claim', 1+q%2, q*6+1, '', 't' FROM c`,
		c + `INSERT INTO claims(item_id,position,subject,predicate,object) SELECT id, j, 'The controller', 'must notify', 'the authority within '||i||' hours' FROM c`,
		c + `INSERT INTO predictions(item_id,system,field,value) SELECT id, 'refchecker', 'entailment', ` + nli("(i*7)%10") + ` FROM c`,
		n + `INSERT INTO label_events(annotator_id,item_id,field,value,created_at,active_ms)
			SELECT 1, q*6+1, 'question_validity', CASE WHEN q%20=0 THEN 'invalid' ELSE 'valid' END, 't', 9000 FROM n
			UNION ALL SELECT 1, q*6+1, 'persona', CASE q%3 WHEN 0 THEN 'citizen' WHEN 1 THEN 'civil_officer' ELSE 'legal_expert' END, 't', 4000 FROM n
			UNION ALL SELECT 1, q*6+1, 'missed_claims_checked', 'checked', 't', 2000 FROM n WHERE q%2=1
			ORDER BY 1, 2, 3`,
		c + `INSERT INTO label_events(annotator_id,item_id,field,value,created_at,active_ms)
			SELECT 1, id, 'claim_validity', CASE WHEN i%8=0 THEN 'incorrect' ELSE 'correct' END, 't', 3000 FROM c
			UNION ALL SELECT 1, id, 'entailment', ` + nli("(i*3)%10") + `, 't', 5000 FROM c
			UNION ALL SELECT 2, id, 'claim_validity', 'correct', 't', 3000 FROM c WHERE q%5=0
			ORDER BY 1, 2, 3`,
		// In primary key order: appends instead of random B-tree inserts.
		`INSERT INTO current_labels(role,annotator_id,item_id,field,value,event_id)
			SELECT role, annotator_id, item_id, field, value, id FROM label_events ORDER BY role, annotator_id, item_id, field`,
	}
}()

var benchDB struct {
	once sync.Once
	path string
	took time.Duration
	err  error
}

// benchStore builds the store once per test binary (Go calls a benchmark
// several times while it sizes b.N) in a folder removed by TestMain.
func benchStore(b *testing.B) *store.Store {
	b.Helper()
	benchDB.once.Do(func() {
		start := time.Now()
		benchDB.path = filepath.Join(benchTmp(), "bench.db")
		// ANNOTATE_EXPORT_BENCH_DB=path keeps the store between runs (built
		// when absent), to profile without waiting for the build each time.
		if p := os.Getenv("ANNOTATE_EXPORT_BENCH_DB"); p != "" {
			benchDB.path = p
			if _, err := os.Stat(p); err == nil {
				return
			}
		}
		s, err := store.Open(benchDB.path)
		if err != nil {
			benchDB.err = err
			return
		}
		defer s.Close()
		db, err := storetest.OpenDB(benchDB.path)
		if err != nil {
			benchDB.err = err
			return
		}
		defer db.Close()
		tx, err := db.Begin()
		if err != nil {
			benchDB.err = err
			return
		}
		defer tx.Rollback()
		// A large page cache keeps the index inserts of the build in memory.
		for _, q := range append([]string{"PRAGMA cache_size = -1048576"}, benchSQL...) {
			if _, err := tx.Exec(q); err != nil {
				benchDB.err = err
				return
			}
		}
		if benchDB.err = tx.Commit(); benchDB.err != nil {
			return
		}
		// Rows written behind the store's back: count them as a write would.
		benchDB.err = storetest.RecountFile(s.Path)
		benchDB.took = time.Since(start)
	})
	if benchDB.err != nil {
		b.Fatal(benchDB.err)
	}
	s, err := store.Open(benchDB.path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// peakHeap samples the heap while fn runs (runtime/metrics: no
// stop-the-world, unlike ReadMemStats): the figure that shows the export
// streams, staying flat whatever the number of rows.
func peakHeap(fn func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	fn()
	close(done)
	wg.Wait()
	return peak.Load()
}

func BenchmarkExport1M(b *testing.B) {
	s := benchStore(b)
	b.Logf("store of %d claims built in %v", benchClaims, benchDB.took.Round(time.Millisecond))
	// hf writes Parquet data files, hf-jsonl the same rows as JSON Lines;
	// hf-all-annotators every label set too (one row per item and
	// annotator with labels that count, in the _by_annotator configs).
	for _, name := range []string{"hf", "hf-jsonl", "hf-all-annotators", "jsonl", "csv", "backup"} {
		format, data := name, ""
		switch name {
		case "hf-jsonl":
			format, data = "hf", DataJSONL
		case "hf-all-annotators":
			format = "hf"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var peak uint64
			for b.Loop() {
				dir := b.TempDir()
				o := Options{Format: format, DataFormat: data, Out: filepath.Join(dir, "out"), Annotator: "a1", WithNotes: format != "jsonl"}
				switch {
				case name == "hf-all-annotators":
					o.Annotator, o.AllAnnotators = "", true
				case format == "jsonl":
					o.Annotator, o.LabelsOnly = "", true
				case format == "backup":
					o.Format, o.Annotator, o.WithNotes = "jsonl", "", false
				}
				var res Result
				var err error
				peak = max(peak, peakHeap(func() { res, err = Export(context.Background(), s, o) }))
				if err != nil {
					b.Fatal(err)
				}
				if format == "backup" {
					if res.Tables["claims"] != benchClaims || res.Tables["qa_pairs"] != benchQA {
						b.Fatalf("backed up %d pairs, %d claims", res.Tables["qa_pairs"], res.Tables["claims"])
					}
				} else if res.Claims != benchClaims || res.QA != benchQA {
					b.Fatalf("exported %d pairs, %d claims", res.QA, res.Claims)
				} else if name == "hf-all-annotators" {
					if res.Items["claims_by_annotator"] == 0 {
						b.Fatal("no row of claims_by_annotator")
					}
					b.ReportMetric(float64(res.Items["qa_by_annotator"]+res.Items["claims_by_annotator"]), "rows-by-annotator")
				}
				b.StopTimer()
				if format == "hf" {
					b.ReportMetric(float64(dirSize(b, dir))/(1<<20), "MB-written")
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}

func dirSize(b *testing.B, dir string) int64 {
	var n int64
	filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			n += fi.Size()
		}
		return nil
	})
	return n
}

var benchDir struct {
	once sync.Once
	dir  string
}

func benchTmp() string {
	benchDir.once.Do(func() {
		d, err := os.MkdirTemp("", "annotate-export-bench-")
		if err != nil {
			panic(err)
		}
		benchDir.dir = d
	})
	return benchDir.dir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir.dir != "" {
		os.RemoveAll(benchDir.dir)
	}
	os.Exit(code)
}
