package store

import (
	"fmt"

	"github.com/annotate-dev/annotate/tally"
)

// ReadTx is one consistent view of the database: every read through it sees
// the same commit, so a report or a screen taken while annotators keep
// working adds up. Screens, reports and export all read through Read.
type ReadTx struct {
	q    querier   // a read transaction, or the write transaction of WriteTx
	conn *readConn // the connection Snapshot opened (Close ends it)
}

// Read runs fn on a snapshot.
func (s *Store) Read(fn func(rx *ReadTx) error) error {
	if s.snap != nil {
		return fn(&ReadTx{q: s.snap})
	}
	c, err := s.openReadConn()
	if err != nil {
		return err
	}
	defer c.close()
	if err := s.syncDeclared(c); err != nil {
		return err
	}
	return fn(&ReadTx{q: c})
}

// WriteTx is a write transaction that reads what it writes: the same reads
// as ReadTx, seeing its own changes, then the writes (one commit).
type WriteTx struct {
	ReadTx
	tx *wtx
}

// Update runs fn in one write transaction; the kept counts are brought up to
// date before it commits.
func (s *Store) Update(fn func(wx *WriteTx) error) error {
	return s.write(func(tx *wtx) error { return fn(&WriteTx{ReadTx: ReadTx{q: tx}, tx: tx}) })
}

// Count is one kept count (package tally says what each name counts).
type Count struct {
	tally.Key
	N int
}

// Counts returns the kept counts of the given names.
func (rx *ReadTx) Counts(names ...string) ([]Count, error) {
	var out []Count
	for _, name := range names {
		err := eachRow(rx.q, "SELECT rater, source_id, a, b, n FROM kept_counts WHERE name=?", []any{name}, func(sc func(...any) error) error {
			c := Count{Key: tally.Key{Name: name}}
			if err := sc(&c.Rater, &c.Source, &c.A, &c.B, &c.N); err != nil {
				return err
			}
			out = append(out, c)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Source is a legal text items come from.
type Source struct {
	ID           int64
	Name         string
	Language     string
	Jurisdiction string
}

// Sources lists the sources by id.
func (rx *ReadTx) Sources() ([]Source, error) {
	var out []Source
	err := eachRow(rx.q, "SELECT id, name, language, jurisdiction FROM sources ORDER BY id", nil, func(sc func(...any) error) error {
		var s Source
		err := sc(&s.ID, &s.Name, &s.Language, &s.Jurisdiction)
		out = append(out, s)
		return err
	})
	return out, err
}

// Annotators lists the annotators in creation order.
func (rx *ReadTx) Annotators() ([]Annotator, error) {
	var out []Annotator
	err := eachRow(rx.q, "SELECT id, name, human FROM annotators ORDER BY id", nil, func(sc func(...any) error) error {
		var a Annotator
		err := sc(&a.ID, &a.Name, &a.Human)
		out = append(out, a)
		return err
	})
	return out, err
}

// Assignees lists the ids of the annotators assigned to a batch of a kind
// ("" : any kind).
func (rx *ReadTx) Assignees(kind string) ([]int64, error) {
	return int64s(rx.q, `SELECT DISTINCT x.annotator_id FROM batch_assignees x JOIN batches b ON b.id = x.batch_id
		WHERE ? = '' OR b.kind = ? ORDER BY 1`, kind, kind)
}

// ExtIDs returns the ext ids of the given items, in the order given; an
// unknown id gives "".
func (rx *ReadTx) ExtIDs(ids []int64) ([]string, error) {
	byID, err := extIDsOf(rx.q, ids)
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = byID[id]
	}
	return out, err
}

// extIDsOf reads the ext ids of items, 500 a query.
func extIDsOf(q querier, ids []int64) (map[int64]string, error) {
	out := make(map[int64]string, len(ids))
	for _, chunk := range chunks(ids, 500) {
		err := eachRow(q, "SELECT id, ext_id FROM items WHERE id IN (SELECT value FROM json_each(?))", []any{jsonInts(chunk)},
			func(sc func(...any) error) error {
				var id int64
				var ext string
				err := sc(&id, &ext)
				out[id] = ext
				return err
			})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// FamiliesWithField hands over, familyChunk at a time in root order, the
// families whose items carry at least two annotators' labels of field: the
// few a report lists item by item (agreement's disagreements).
func (rx *ReadTx) FamiliesWithField(field string, fn func([]*tally.Family) error) error {
	roots, err := int64s(rx.q, `SELECT DISTINCT COALESCE(i.parent_id, i.id) FROM items i
		WHERE i.id IN (SELECT item_id FROM current_labels WHERE field = ? AND role = 'annotate' GROUP BY item_id HAVING COUNT(*) >= 2)
		ORDER BY 1`, field)
	if err != nil {
		return err
	}
	for _, chunk := range chunks(roots, familyChunk) {
		fams, err := loadFamilies(rx.q, chunk)
		if err != nil {
			return fmt.Errorf("families: %w", err)
		}
		list := make([]*tally.Family, 0, len(fams))
		for _, r := range chunk {
			if f := fams[r]; f != nil {
				list = append(list, f)
			}
		}
		if err := fn(list); err != nil {
			return err
		}
	}
	return nil
}

func chunks(ids []int64, n int) [][]int64 {
	var out [][]int64
	for len(ids) > n {
		out = append(out, ids[:n])
		ids = ids[n:]
	}
	if len(ids) > 0 {
		out = append(out, ids)
	}
	return out
}
