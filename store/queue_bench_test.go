package store

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// The claim queue at a million claims: 200,000 QA pairs (none imported as
// given: every claim waits for its answer) with five claims each, jo's
// judgments of every answer (four in five correct: 800,000 claims asked
// of jo) and a1's of every pair and claim (all done), written with bulk
// SQL and counted by Recount, as a write would count them (a few minutes).
const (
	queueBenchPairs     = 200_000
	queueBenchClaimsPer = 5
)

var queueBenchSQL = []string{
	`INSERT INTO sources(id,name,language) VALUES (1,'GDPR','en')`,
	`INSERT INTO annotators(id,name,human,created_at) VALUES (1,'jo',1,'2026-01-01T00:00:00Z'),(2,'a1',1,'2026-01-01T00:00:00Z')`,
	fmt.Sprintf(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i<%d)
		INSERT INTO items(id,ext_id,kind,source_id,hash,imported_at) SELECT i*6,'q'||i,'qa',1,'h','2026-01-01' FROM n`, queueBenchPairs),
	`INSERT INTO qa_pairs(item_id,question,answer) SELECT id, 'Question '||id, 'Answer '||id FROM items WHERE kind='qa'`,
	fmt.Sprintf(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i<%d), k(j) AS (VALUES (1),(2),(3),(4),(5))
		INSERT INTO items(id,ext_id,kind,source_id,parent_id,hash,imported_at) SELECT i*6+j,'q'||i||'-c'||j,'claim',1,i*6,'h','2026-01-01' FROM n, k`, queueBenchPairs),
	`INSERT INTO claims(item_id,position,subject,predicate,object) SELECT id, id%6, 'The Regulation', 'protects', 'natural persons '||id FROM items WHERE kind='claim'`,
	// jo: the question valid, the answer correct but for every fifth pair.
	`INSERT INTO label_events(annotator_id,item_id,field,value,created_at)
		SELECT 1, id, f.field, CASE WHEN f.field='answer_correctness' AND id%30=0 THEN 'incorrect' ELSE f.value END, '2026-01-01T00:00:00Z'
		FROM items, (SELECT 'question_validity' AS field, 'valid' AS value UNION ALL SELECT 'answer_correctness', 'correct') f WHERE kind='qa'`,
	// a1: every pair and claim, done.
	`INSERT INTO label_events(annotator_id,item_id,field,value,created_at)
		SELECT 2, id, f.field, f.value, '2026-01-01T00:00:00Z' FROM items, (SELECT 'question_validity' AS field, 'valid' AS value
			UNION ALL SELECT 'category', 'factual_recall' UNION ALL SELECT 'persona', 'citizen' UNION ALL SELECT 'answer_correctness', 'correct'
			UNION ALL SELECT 'missed_claims_checked', 'checked') f WHERE kind='qa'`,
	`INSERT INTO label_events(annotator_id,item_id,field,value,created_at)
		SELECT 2, id, f.field, f.value, '2026-01-01T00:00:00Z' FROM items, (SELECT 'claim_validity' AS field, 'correct' AS value
			UNION ALL SELECT 'entailment', 'neutral') f WHERE kind='claim'`,
	`INSERT INTO current_labels(item_id,field,role,annotator_id,value,event_id)
		SELECT item_id, field, role, annotator_id, value, id FROM label_events ORDER BY item_id, field, role, annotator_id`,
}

// queueBenchStore builds the million-claim store in a folder of b's.
func queueBenchStore(b *testing.B) *Store {
	if testing.Short() {
		b.Skip("the million-claim store is not built with -short")
	}
	t0 := time.Now()
	s, err := Open(filepath.Join(b.TempDir(), "claims.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	tx, err := s.db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	for _, q := range queueBenchSQL {
		if _, err := tx.Exec(q); err != nil {
			tx.Rollback()
			b.Fatalf("%v\n%s", err, q)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	// Rows written behind the store's back: count them as a write would.
	if err := s.Recount(); err != nil {
		b.Fatal(err)
	}
	if _, err := s.db.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		b.Fatal(err)
	}
	b.Logf("the million-claim store built in %s", time.Since(t0).Round(time.Second))
	return s
}

// BenchmarkClaimQueueOpen is what the claim screen asks of the store when
// it opens (the first page of the queue, its size and done count) and at
// each item (its key and rank from the one before), at a million claims:
// for a new annotator asked nothing yet, for jo (800,000 claims asked),
// and for a1, who has finished them all. Beside each, "rule": the first
// page read from the labels by the asked-when rule, the queries the queue
// ran before asked_items (offeredCond).
func BenchmarkClaimQueueOpen(b *testing.B) {
	s := queueBenchStore(b)
	for _, who := range []string{"newcomer", "jo", "a1"} {
		q := QueueQuery{Annotator: who, Kind: "claim", Limit: 50}
		b.Run(who, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Queue(q); err != nil {
					b.Fatal(err)
				}
				if _, err := s.QueueTotal(q); err != nil {
					b.Fatal(err)
				}
				if _, err := s.QueueDone(q); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(who+"/rule", func(b *testing.B) {
			for b.Loop() {
				if _, err := ruleFirstPage(s, q); err != nil {
					b.Fatal(err)
				}
			}
		})
		es, err := s.Queue(q)
		if err != nil || len(es) < 2 {
			continue
		}
		b.Run(who+"/position", func(b *testing.B) {
			for b.Loop() {
				if _, _, err := s.QueueKey(q, es[1].ItemID); err != nil {
					b.Fatal(err)
				}
				if _, err := s.QueueRank(q, es[0].Key, es[1].Key); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// ruleFirstPage is the open claim queue's first page as Queue read it
// before asked_items: the claims in id order, each asked by the rule read
// from the labels.
func ruleFirstPage(s *Store, q QueueQuery) (int, error) {
	sc, err := queueScopeOf(s.db, q)
	if err != nil {
		return 0, err
	}
	offered, args := offeredCond("claim", "i.id", sc.annotator)
	n := 0
	err = eachRow(s.db, `SELECT i.id FROM items i WHERE i.kind='claim' AND NOT EXISTS (SELECT 1 FROM done_items d WHERE d.annotator_id=? AND d.item_id=i.id)
		AND `+offered+` AND `+queueable("claim")+` ORDER BY i.id LIMIT ?`, append(append([]any{sc.annotator}, args...), q.Limit), func(sc func(...any) error) error {
		var id int64
		n++
		return sc(&id)
	})
	return n, err
}
