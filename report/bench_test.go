package report

import (
	"github.com/annotate-dev/annotate/store/storetest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/annotate-dev/annotate/store"
)

// The benchmark store: 200,000 QA pairs of two sources with five claims each
// (1,000,000 claims, each with a refchecker prediction) and 3,000,000 current
// labels of two annotators:
//
//	a1: question_validity, persona (on every pair, so invalid pairs carry a
//	    persona that must not count), category on half the pairs,
//	    missed_claims_checked on half the pairs                     600,000
//	a1: claim_validity and entailment on every claim (1 in 8 incorrect, whose
//	    entailment must not count)                                2,000,000
//	a2: claim_validity and entailment on the claims of every fifth pair 400,000
//
// It is built with set-based SQL in one transaction (recursive CTEs), which
// takes seconds where a million Put calls would take minutes.
const (
	benchQA       = 200_000
	benchPerQA    = 5
	benchClaims   = benchQA * benchPerQA
	benchLabels   = 3_000_000
	benchItemSpan = benchPerQA + 1 // item ids: QA pair q is q*6+1, its claims follow
)

var benchDB struct {
	once sync.Once
	dir  string
	path string
	err  error
	took time.Duration
}

// benchStore builds the million-claim store once per test binary run: Go calls
// a benchmark function several times while it sizes b.N.
func benchStore(b *testing.B) *store.Store {
	b.Helper()
	benchDB.once.Do(func() {
		// ANNOTATE_BENCH_DB=path keeps the store between runs (built if absent),
		// for profiling without waiting for the build each time.
		if p := os.Getenv("ANNOTATE_BENCH_DB"); p != "" {
			benchDB.path = p
			if _, err := os.Stat(p); err == nil {
				return
			}
			start := time.Now()
			benchDB.err = buildBenchStore(p)
			benchDB.took = time.Since(start)
			return
		}
		benchDB.dir, benchDB.err = os.MkdirTemp("", "annotate-bench-")
		if benchDB.err != nil {
			return
		}
		benchDB.path = filepath.Join(benchDB.dir, "bench.db")
		start := time.Now()
		benchDB.err = buildBenchStore(benchDB.path)
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

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDB.dir != "" {
		os.RemoveAll(benchDB.dir)
	}
	os.Exit(code)
}

func buildBenchStore(path string) error {
	s, err := store.Open(path)
	if err != nil {
		return err
	}
	defer s.Close()
	db, err := storetest.OpenDB(path)
	if err != nil {
		return err
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, q := range benchSQL {
		if _, err := tx.Exec(q); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	// Rows written behind the store's back: count them as a write would.
	return storetest.RecountFile(s.Path)
}

// n(q) enumerates QA pairs; k(j) the claim positions 1..5; i = q*5+j-1 is the
// claim's index. Values are spread with modular arithmetic so every class,
// every disagreement and the "other" prediction column occur.
const benchCTE = `WITH RECURSIVE n(q) AS (SELECT 0 UNION ALL SELECT q+1 FROM n WHERE q+1<200000),
  k(j) AS (VALUES (1),(2),(3),(4),(5)) `

const benchClaimsCTE = benchCTE + `, c(id, i, q) AS (SELECT q*6+1+j, q*5+j-1, q FROM n, k) `

var benchSQL = []string{
	`INSERT INTO sources(id,name,language) VALUES (1,'GDPR','en'),(2,'CIVIL','fr')`,
	`INSERT INTO annotators(id,name,human,created_at) VALUES (1,'a1',1,'t'),(2,'a2',1,'t')`,
	benchCTE + `INSERT INTO items(id,ext_id,kind,source_id,hash,imported_at) SELECT q*6+1, 'q'||q, 'qa', 1+q%2, '', 't' FROM n`,
	benchCTE + `INSERT INTO qa_pairs(item_id,question,answer,category)
		SELECT q*6+1, 'Q?', 'A.', CASE q%4 WHEN 0 THEN 'general_legal_research' WHEN 1 THEN 'factual_recall' WHEN 2 THEN 'false_premise' ELSE 'jurisdiction_time_specific' END FROM n`,
	benchClaimsCTE + `INSERT INTO items(id,ext_id,kind,source_id,parent_id,hash,imported_at) SELECT id, 'c'||i, 'claim', 1+q%2, q*6+1, '', 't' FROM c`,
	benchClaimsCTE + `INSERT INTO claims(item_id,position,subject,predicate,object) SELECT id, i%5+1, 's', 'p', 'o' FROM c`,
	benchClaimsCTE + `INSERT INTO predictions(item_id,system,field,value) SELECT id, 'refchecker', 'entailment',
		CASE WHEN i%1000=999 THEN 'unknown' WHEN (i*13)%4=0 THEN ` + nliOf("(i*7+3)%10") + ` ELSE ` + nliOf("(i*7)%10") + ` END FROM c`,
	// a1 on QA pairs.
	benchCTE + `INSERT INTO label_events(annotator_id,item_id,field,value,created_at)
		SELECT 1, q*6+1, 'question_validity', CASE WHEN q%20=0 THEN 'invalid' ELSE 'valid' END, 't' FROM n
		UNION ALL SELECT 1, q*6+1, 'persona', CASE q%3 WHEN 0 THEN 'citizen' WHEN 1 THEN 'civil_officer' ELSE 'legal_expert' END, 't' FROM n
		UNION ALL SELECT 1, q*6+1, 'category', CASE q%5 WHEN 0 THEN 'false_premise' ELSE 'factual_recall' END, 't' FROM n WHERE q%2=0
		UNION ALL SELECT 1, q*6+1, 'missed_claims_checked', CASE WHEN q%7=0 THEN 'added' ELSE 'checked' END, 't' FROM n WHERE q%2=1`,
	// a1 on every claim, a2 on the claims of every fifth pair.
	benchClaimsCTE + `INSERT INTO label_events(annotator_id,item_id,field,value,created_at)
		SELECT 1, id, 'claim_validity', CASE WHEN i%8=0 THEN 'incorrect' ELSE 'correct' END, 't' FROM c
		UNION ALL SELECT 1, id, 'entailment', ` + nliOf("(i*7)%10") + `, 't' FROM c
		UNION ALL SELECT 2, id, 'claim_validity', CASE WHEN i%8=0 OR i%13=0 THEN 'incorrect' ELSE 'correct' END, 't' FROM c WHERE q%5=0
		UNION ALL SELECT 2, id, 'entailment', CASE WHEN i%3=0 THEN ` + nliOf("(i*7+5)%10") + ` ELSE ` + nliOf("(i*7)%10") + ` END, 't' FROM c WHERE q%5=0`,
	`INSERT INTO current_labels(role,annotator_id,item_id,field,value,event_id)
		SELECT role, annotator_id, item_id, field, value, id FROM label_events`,
}

// nliOf maps an expression in 0..9 to entailment (0-5), neutral (6-8) or
// contradiction (9).
func nliOf(expr string) string {
	return `CASE WHEN ` + expr + `<6 THEN 'entailment' WHEN ` + expr + `<9 THEN 'neutral' ELSE 'contradiction' END`
}

// BenchmarkReports1M times each report end to end on the million-claim
// store: they read the kept counts (and agreement the kept patterns).
func BenchmarkReports1M(b *testing.B) {
	s := benchStore(b)
	if benchDB.took > 0 {
		b.Logf("store built in %v", benchDB.took.Round(time.Millisecond))
	}
	var n int
	if err := storetest.DB(b, s).QueryRow("SELECT COUNT(*) FROM current_labels").Scan(&n); err != nil || n != benchLabels {
		b.Fatalf("%d labels, %v", n, err)
	}
	a1 := Selection{Annotator: "a1"}

	b.Run("Stats", func(b *testing.B) {
		for b.Loop() {
			rep, err := store.ReadWith(s, Stats, a1)
			if err != nil || rep.All.ClaimsExtracted != benchClaims {
				b.Fatal(err)
			}
		}
	})
	b.Run("Metrics", func(b *testing.B) {
		for b.Loop() {
			rep, err := store.ReadWith(s, Metrics, MetricsOptions{Selection: a1})
			if err != nil || rep.Verification[allKey].N == 0 {
				b.Fatal(err)
			}
		}
	})
	b.Run("Agreement", func(b *testing.B) {
		for b.Loop() {
			rep, err := store.ReadWith(s, Agreement, AgreementOptions{})
			if err != nil || rep.Fields["entailment"].Items == 0 {
				b.Fatal(err)
			}
		}
	})
}
