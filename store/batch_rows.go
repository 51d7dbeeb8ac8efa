package store

import "fmt"

// The rows every way of cutting a batch writes (CreateBatch, CreatePool,
// the batches of a kind's own rule): the batch, its assignees, its items in
// order, and who gets which.

// newBatch is the row of a batch about to be written.
type newBatch struct {
	name, kind, source string
	pilot, atOnce      bool
	overlap            int
	seed               *int64 // nil: none recorded
}

// batchNameFree fails when a batch of that name exists.
func batchNameFree(tx *wtx, name string) error {
	var exists bool
	tx.QueryRow("SELECT EXISTS(SELECT 1 FROM batches WHERE name=?)", name).Scan(&exists)
	if exists {
		return fmt.Errorf("batch %q exists already", name)
	}
	return nil
}

// assigneeIDs returns the ids of the assignees, creating those who are new.
func assigneeIDs(tx *wtx, names []string) ([]int64, error) {
	aids := make([]int64, len(names))
	for i, name := range names {
		var err error
		if aids[i], err = annotatorID(tx, name); err != nil {
			return nil, err
		}
	}
	return aids, nil
}

// insertBatchRow writes the batch and its assignees (names[i] of id
// aids[i]) and returns the batch's id.
func insertBatchRow(tx *wtx, b newBatch, names []string, aids []int64) (int64, error) {
	var seed any
	if b.seed != nil {
		seed = *b.seed
	}
	res, err := tx.Exec("INSERT INTO batches(name,kind,pilot,overlap,seed,source,created_at,asks_at_once) VALUES (?,?,?,?,?,?,?,?)",
		b.name, b.kind, b.pilot, b.overlap, seed, b.source, now(), b.atOnce)
	if err != nil {
		return 0, err
	}
	bid, _ := res.LastInsertId()
	for i, name := range names {
		if _, err := tx.Exec("INSERT INTO batch_assignees(batch_id,annotator_id) VALUES (?,?)", bid, aids[i]); err != nil {
			return 0, fmt.Errorf("assignee %q: %w", name, err)
		}
	}
	return bid, nil
}

// insertMember writes an item at a position of the batch and gives it to
// the assignees to (indexes into aids).
func insertMember(tx *wtx, bid int64, pos int, item int64, aids []int64, to []int) error {
	if _, err := tx.Exec("INSERT INTO batch_items(batch_id,position,item_id) VALUES (?,?,?)", bid, pos, item); err != nil {
		return err
	}
	for _, a := range to {
		if _, err := tx.Exec("INSERT INTO assignments(batch_id,annotator_id,item_id) VALUES (?,?,?)", bid, aids[a], item); err != nil {
			return err
		}
	}
	return nil
}

// roundRobin gives the next n assignees of m in turn, from slot on, and the
// slot after them.
func roundRobin(slot, n, m int) ([]int, int) {
	var to []int
	for j := 0; j < n; j++ {
		to = append(to, slot%m)
		slot++
	}
	return to, slot
}

// gotOf maps each assignee's count of items (by index) to their name.
func gotOf(names []string, load []int) map[string]int {
	got := map[string]int{}
	for i, n := range load {
		got[names[i]] += n
	}
	return got
}
