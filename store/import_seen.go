package store

import (
	"database/sql"
	"errors"
	"hash/maphash"
)

// SeeFast is See (import_scratch.go) for an import of many new ids: an id the
// import has not met before, which a filter of the ids it met tells without
// asking the table, is staged (stageSeen), written many rows a statement.
// An id the filter may have met is looked for among the rows staged, then
// in the table. See, Seen, Resee and FillPairLanguages write the staged
// rows first; EndScratch drops them with the table.
func (t *Tx) SeeFast(space, extID string, s Seen) (Seen, bool, error) {
	key := space + "\x00" + extID
	if t.seen.mayHave(key) {
		prev, met, err := t.seenBefore(space, extID)
		if err != nil || met {
			return prev, met, err
		}
	} else {
		t.seen.add(key)
	}
	return Seen{}, false, t.tx.stage(stageSeen, space, extID, s.Kind, s.Hash, s.File, s.Line, s.Record, s.Secondary)
}

// seenBefore finds where an id was met: among the rows staged, else in the
// table (which holds every other row SeeFast recorded).
func (t *Tx) seenBefore(space, extID string) (Seen, bool, error) {
	b := t.tx.stages[stageSeen]
	for i := 0; i < b.rows; i++ {
		r := b.args[i*b.cols : (i+1)*b.cols]
		if r[0] == any(space) && r[1] == any(extID) {
			return Seen{Kind: r[2].(string), Hash: r[3].(string), File: r[4].(int), Line: r[5].(int), Record: r[6].(int), Secondary: r[7].(bool)}, true, nil
		}
	}
	var s Seen
	err := t.tx.QueryRow(`SELECT kind, hash, file, line, record, secondary FROM temp.import_seen WHERE space=? AND ext_id=?`, space, extID).Scan(&s.Kind, &s.Hash, &s.File, &s.Line, &s.Record, &s.Secondary)
	if errors.Is(err, sql.ErrNoRows) {
		return Seen{}, false, nil
	}
	return s, err == nil, err
}

// WriteSeen writes the ids SeeFast staged.
func (t *Tx) WriteSeen() error { return t.tx.flush(stageSeen) }

// idFilter is a Bloom filter of the ids an import met (no false negatives;
// about 0.1% false positives a layer), in layers that grow by four as ids
// come: memory is 14 bits an id.
type idFilter struct {
	seed   maphash.Seed
	seeded bool
	layers []bloomLayer
}

type bloomLayer struct {
	bits     []uint64
	n, limit int
}

const bloomHashes = 10

func (f *idFilter) hashes(key string) (uint64, uint64) {
	if !f.seeded {
		f.seed, f.seeded = maphash.MakeSeed(), true
	}
	h := maphash.String(f.seed, key)
	return h, h>>32 | h<<32 | 1
}

func (f *idFilter) mayHave(key string) bool {
	if len(f.layers) == 0 {
		return false
	}
	h1, h2 := f.hashes(key)
	for _, l := range f.layers {
		m := uint64(len(l.bits) * 64)
		all := true
		for i := range uint64(bloomHashes) {
			b := (h1 + i*h2) % m
			if l.bits[b/64]&(1<<(b%64)) == 0 {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

func (f *idFilter) add(key string) {
	if len(f.layers) == 0 || f.layers[len(f.layers)-1].n >= f.layers[len(f.layers)-1].limit {
		limit := 1 << 16
		if len(f.layers) > 0 {
			limit = f.layers[len(f.layers)-1].limit * 4
		}
		f.layers = append(f.layers, bloomLayer{bits: make([]uint64, limit*14/64+1), limit: limit})
	}
	l := &f.layers[len(f.layers)-1]
	h1, h2 := f.hashes(key)
	m := uint64(len(l.bits) * 64)
	for i := range uint64(bloomHashes) {
		b := (h1 + i*h2) % m
		l.bits[b/64] |= 1 << (b % 64)
	}
	l.n++
}
