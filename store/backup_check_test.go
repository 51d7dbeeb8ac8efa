package store

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// currentByRule fills current_labels from the label log by the rule
// currentLabelsDiffer holds them to (the latest standing event of each
// key), grouping the whole log.
const currentByRule = `INSERT INTO current_labels(role, annotator_id, item_id, field, value, event_id)
	SELECT role, aid, item_id, field, value, max(id) FROM (
	  SELECT e.role, CASE WHEN e.role = 'adjudicate' THEN 0 ELSE e.annotator_id END AS aid, e.item_id, e.field, e.value, e.id
	  FROM label_events e WHERE e.retracts IS NULL AND NOT EXISTS (SELECT 1 FROM label_events u WHERE u.retracts = e.id))
	GROUP BY role, aid, item_id, field`

// The one-lookup-a-row check of the current labels (currentLabelsHold)
// and the grouping of the whole log (currentLabelsDiffer) agree on random
// label logs (decisions of three annotators and the lead on four items and
// two fields, undos of earlier events, undos of undos) whose current
// labels are the rule's, then tampered with: a row deleted, added, given
// another event (an earlier one of its key, or any), value, annotator or
// role.
func TestCurrentLabelsCheckedTwoWays(t *testing.T) {
	s := openTemp(t)
	rng := rand.New(rand.NewPCG(31, 3))
	seedSQL := []string{
		`INSERT INTO annotators(id, name, created_at) VALUES (1, 'jo', 't'), (2, 'sam', 't'), (3, 'kim', 't')`,
		`INSERT INTO items(id, ext_id, kind, hash, imported_at) VALUES (1, 'i1', 'qa', 'h', 't'), (2, 'i2', 'qa', 'h', 't'), (3, 'i3', 'qa', 'h', 't'), (4, 'i4', 'qa', 'h', 't')`,
	}
	for _, q := range seedSQL {
		if _, err := s.DB().Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	tampers := []string{
		"DELETE FROM current_labels WHERE (item_id, field, role, annotator_id) IN (SELECT item_id, field, role, annotator_id FROM current_labels ORDER BY random() LIMIT 1) AND %[1]d + %[2]d > 0",
		"UPDATE current_labels SET event_id = %d WHERE item_id = %d",
		"UPDATE current_labels SET value = 'other' WHERE item_id = %[2]d",
		"UPDATE OR IGNORE current_labels SET annotator_id = 1 + annotator_id %% 3 WHERE item_id = %[2]d",
		"UPDATE OR IGNORE current_labels SET role = 'adjudicate' WHERE item_id = %[2]d AND role = 'annotate'",
		// An earlier decision of the key, with its value.
		`UPDATE OR IGNORE current_labels SET (event_id, value) = (SELECT e.id, e.value FROM label_events e WHERE e.item_id = current_labels.item_id
		   AND e.field = current_labels.field AND e.role = current_labels.role AND e.retracts IS NULL AND e.value IS NOT NULL
		   AND (e.role = 'adjudicate' OR e.annotator_id = current_labels.annotator_id) ORDER BY e.id LIMIT 1) WHERE item_id = %[2]d AND %[1]d > 0`,
		"INSERT OR IGNORE INTO current_labels(role, annotator_id, item_id, field, value, event_id) VALUES ('annotate', 1, %[2]d, 'f9', 'v1', %[1]d)",
		"INSERT OR IGNORE INTO current_labels(role, annotator_id, item_id, field, value, event_id) SELECT role, 0, item_id, field, value, event_id FROM current_labels WHERE item_id = %[2]d",
	}
	verdicts := map[bool]int{}
	for round := range 400 {
		err := s.write(func(tx *wtx) error {
			for _, q := range []string{"DELETE FROM current_labels", "DELETE FROM label_events"} {
				if _, err := tx.Tx.Exec(q); err != nil {
					return err
				}
			}
			n := 1 + rng.IntN(30)
			for id := 1; id <= n; id++ {
				role := RoleAnnotate
				if rng.IntN(5) == 0 {
					role = RoleAdjudicate
				}
				var value, retracts any = fmt.Sprintf("v%d", rng.IntN(2)), nil
				if id > 1 && rng.IntN(4) == 0 {
					value, retracts = nil, 1+rng.IntN(id-1)
				}
				if _, err := tx.Tx.Exec(`INSERT INTO label_events(id, annotator_id, item_id, field, value, role, created_at, retracts) VALUES (?, ?, ?, ?, ?, ?, 't', ?)`,
					id, 1+rng.IntN(3), 1+rng.IntN(4), fmt.Sprintf("f%d", rng.IntN(2)), value, role, retracts); err != nil {
					return err
				}
			}
			if _, err := tx.Tx.Exec(currentByRule); err != nil {
				return err
			}
			for range rng.IntN(3) {
				q := fmt.Sprintf(tampers[rng.IntN(len(tampers))], 1+rng.IntN(n+2), 1+rng.IntN(4))
				if _, err := tx.Tx.Exec(q); err != nil {
					return fmt.Errorf("%s: %w", q, err)
				}
			}
			r := &restoring{tx: tx, lines: map[string]RestoreTable{}}
			ok, err := r.currentLabelsHold()
			if err != nil {
				return err
			}
			ev, err := tableInfo(tx, "label_events")
			if err != nil {
				return err
			}
			differ := r.currentLabelsDiffer(ev)
			if _, isRow := differ.(*RowError); differ != nil && !isRow {
				return differ
			}
			if ok != (differ == nil) {
				t.Errorf("round %d: the lookups say the current labels hold: %v; the grouping: %v", round, ok, differ)
			}
			verdicts[ok]++
			return errRollback
		})
		if err != nil && err != errRollback {
			t.Fatal(err)
		}
	}
	if verdicts[true] < 50 || verdicts[false] < 50 {
		t.Errorf("verdicts %v: want both often", verdicts)
	}
}
