package store

import (
	"fmt"
	"maps"
	"math/rand/v2"
)

// Batches whose items are chosen by their kind's own rule (answer tasks by
// seed group, generated claims by a sample of the judge's verdicts) are
// written here, with the rows every batch writes (batch_rows.go).

// shuffle permutes n things with the batch seed (no seed: in order): the
// order of CreateBatch's items and of the kinds' own batches.
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
	if err := batchNameFree(tx, spec.Name); err != nil {
		return Batch{}, err
	}
	aids, err := assigneeIDs(tx, spec.Assign)
	if err != nil {
		return Batch{}, err
	}
	overlap := spec.Overlap
	if overlap == 0 {
		overlap = len(aids)
	}
	bid, err := insertBatchRow(tx, newBatch{name: spec.Name, kind: spec.Kind, source: spec.Source, pilot: spec.Pilot, overlap: overlap, seed: spec.Seed},
		spec.Assign, aids)
	if err != nil {
		return Batch{}, err
	}
	load := make([]int, len(aids))
	pos, slot := 0, 0
	for _, g := range groups {
		var to []int
		to, slot = roundRobin(slot, overlap, len(aids))
		for _, id := range g {
			pos++
			for _, a := range to {
				load[a]++
			}
			if err := insertMember(tx, bid, pos, id, aids, to); err != nil {
				return Batch{}, err
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
		// Only the assignees who got items: fewer groups than assignees
		// leave some with none.
		b.Got = gotOf(spec.Assign, load)
		maps.DeleteFunc(b.Got, func(_ string, n int) bool { return n == 0 })
	}
	return b, nil
}
