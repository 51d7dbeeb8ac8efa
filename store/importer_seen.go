package store

import (
	"hash/maphash"
)

// SeeFast is See (importer_api.go) for an import of many new ids: an id the
// import has not met before, which a filter of the ids it met tells without
// asking the table, is recorded in bulk, many rows a statement. An id the
// filter may have met goes through See. The rows are written before any
// statement that names import_seen (See, Seen, Resee, FillPairLanguages)
// and when the transaction ends; call WriteSeen before EndScratch drops the
// table.
func (t *Tx) SeeFast(space, extID string, s Seen) (Seen, bool, error) {
	if t.seenRows == nil {
		t.seenRows = newBulk("import_seen", "INSERT INTO temp.import_seen(space,ext_id,kind,hash,file,line,record,secondary) VALUES ", 8, "")
		t.tx.register(t.seenRows)
	}
	key := space + "\x00" + extID
	if !fastPaths || t.seen.mayHave(key) {
		if err := t.WriteSeen(); err != nil {
			return Seen{}, false, err
		}
		return t.See(space, extID, s)
	}
	t.seen.add(key)
	return Seen{}, false, t.tx.addTo(t.seenRows, space, extID, s.Kind, s.Hash, s.File, s.Line, s.Record, s.Secondary)
}

// WriteSeen writes the ids SeeFast holds.
func (t *Tx) WriteSeen() error {
	if t.seenRows == nil {
		return nil
	}
	return t.tx.writeBulk(t.seenRows)
}

// idFilter is a Bloom filter of the ids an import met (no false negatives;
// about 1% false positives), in layers that grow by four as ids come:
// memory is 10 bits an id.
type idFilter struct {
	seed   maphash.Seed
	seeded bool
	layers []bloomLayer
}

type bloomLayer struct {
	bits     []uint64
	n, limit int
}

const bloomHashes = 7

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
		f.layers = append(f.layers, bloomLayer{bits: make([]uint64, limit*10/64+1), limit: limit})
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
