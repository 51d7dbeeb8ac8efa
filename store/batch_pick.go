package store

import (
	"fmt"
	"math/rand/v2"
)

// Batches whose items are chosen by their kind's own rule (answer tasks by
// seed group, generated claims by a sample of the judge's verdicts) are
// written here, the same rows CreateBatch writes: the batch, its assignees,
// its items in order, and who gets which.

// shuffle permutes n things with the batch seed, as CreateBatch does (no
// seed: in order).
func shuffle(seed *int64, n int, swap func(i, j int)) {
	if seed == nil {
		return
	}
	r := rand.New(rand.NewPCG(uint64(*seed), 0x616e6e6f74617465))
	r.Shuffle(n, swap)
}

// insertBatch writes a batch of groups of items: each group goes whole to
// spec.Overlap of the assignees, round robin (every assignee when Overlap is
// 0). Batch.Got counts the items each assignee got.
func insertBatch(tx *wtx, spec BatchSpec, groups [][]int64) (Batch, error) {
	var exists bool
	tx.QueryRow("SELECT EXISTS(SELECT 1 FROM batches WHERE name=?)", spec.Name).Scan(&exists)
	if exists {
		return Batch{}, fmt.Errorf("batch %q exists already", spec.Name)
	}
	aids := make([]int64, len(spec.Assign))
	for i, name := range spec.Assign {
		var err error
		if aids[i], err = annotatorID(tx, name); err != nil {
			return Batch{}, err
		}
	}
	overlap := spec.Overlap
	if overlap == 0 {
		overlap = len(aids)
	}
	var seed any
	if spec.Seed != nil {
		seed = *spec.Seed
	}
	res, err := tx.Exec("INSERT INTO batches(name,kind,pilot,overlap,seed,source,created_at) VALUES (?,?,?,?,?,?,?)",
		spec.Name, spec.Kind, spec.Pilot, overlap, seed, spec.Source, now())
	if err != nil {
		return Batch{}, err
	}
	bid, _ := res.LastInsertId()
	for i, name := range spec.Assign {
		if _, err := tx.Exec("INSERT INTO batch_assignees(batch_id,annotator_id) VALUES (?,?)", bid, aids[i]); err != nil {
			return Batch{}, fmt.Errorf("assignee %q: %w", name, err)
		}
	}
	got := map[string]int{}
	pos, slot := 0, 0
	for _, g := range groups {
		var to []int
		for j := 0; j < overlap; j++ {
			to = append(to, slot%len(aids))
			slot++
		}
		for _, id := range g {
			pos++
			if _, err := tx.Exec("INSERT INTO batch_items(batch_id,position,item_id) VALUES (?,?,?)", bid, pos, id); err != nil {
				return Batch{}, err
			}
			for _, a := range to {
				got[spec.Assign[a]]++
				if _, err := tx.Exec("INSERT INTO assignments(batch_id,annotator_id,item_id) VALUES (?,?,?)", bid, aids[a], id); err != nil {
					return Batch{}, err
				}
			}
			if err := tx.touch(id); err != nil {
				return Batch{}, err
			}
		}
	}
	if pos == 0 {
		return Batch{}, fmt.Errorf("no %s items to put in batch %q", spec.Kind, spec.Name)
	}
	b := Batch{Name: spec.Name, Kind: spec.Kind, Pilot: spec.Pilot, Size: pos, Overlap: overlap, Source: spec.Source, Assignees: spec.Assign}
	if len(aids) > 0 {
		b.Got = got
	}
	return b, nil
}
