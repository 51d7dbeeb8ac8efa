package importer

import (
	"errors"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// The write path of a claim (kind_claim.go): its id checked against the ids
// met so far, then written when its pair is in and no claim waits before
// it (claims keep the files' order), else staged until every pair is.

// queueClaims holds the claims that wait for their pairs.
var queueClaims = newQueue()

func (c *claimRec) write(w *writer, f *fileData) error { return w.claim(f, c) }

func (w *writer) claim(f *fileData, c *claimRec) error {
	prev, met, err := w.tx.SeeFast("item", c.c.ID, w.seen(f, string(schema.KindClaim), c.hash, c.at, false))
	if err != nil {
		return err
	}
	if met {
		switch {
		case prev.File == f.idx:
			return duplicate(c.at, c.idField, c.c.ID, prev)
		case prev.Kind != string(schema.KindClaim):
			return c.at.errf(c.idField, "id %q is also %s at %s", c.c.ID, kindName(schema.Kind(prev.Kind)), w.where(prev))
		case prev.Hash == c.hash:
			return nil // the same claim from another file of this import
		default:
			return c.at.errf(c.idField, "id %q is also at %s with different content", c.c.ID, w.where(prev))
		}
	}
	// Written now when its pair is in and no claim waits before it (the
	// claims keep the files' order); else it waits for every pair.
	if w.staged[queueClaims] == 0 {
		if err := w.writeClaim(f, c); !errors.Is(err, store.ErrUnknownPair) {
			return err
		}
	}
	return w.stage(queueClaims, encodeClaim(f.idx, c))
}

func (w *writer) writeClaim(f *fileData, c *claimRec) error {
	id, res, err := w.tx.PutClaim(c.c, c.hash, f.name, false)
	if errors.Is(err, store.ErrChanged) {
		res, err = w.changedClaim(f, c)
	}
	if errors.Is(err, store.ErrUnknownPair) {
		field := c.pairField
		if field == "" {
			field = c.field
		}
		e := c.at.errf(field, "unknown QA pair %q: it is neither in the database nor in this import", c.c.QAID)
		e.Err = err
		return e
	}
	if err != nil {
		return storeErr(c.at, c.idField, c.c.ID, err)
	}
	f.sum.Claims.add(res)
	w.wrote(c.c.ID, schema.KindClaim, id)
	return nil
}

// changedClaim is changedPair for claims: a claim's input says everything
// about it, but an absent origin means "extracted".
func (w *writer) changedClaim(f *fileData, c *claimRec) (store.PutResult, error) {
	old, err := w.tx.StoredClaim(c.c.ID)
	if err != nil {
		return 0, err
	}
	in := c.c
	if in.Origin == "" {
		in.Origin = store.OriginExtracted
	}
	if old.QAID == in.QAID && old.Position == in.Position && old.Triplet == in.Triplet && old.Text == in.Text &&
		old.Origin == in.Origin && old.AddedBy == in.AddedBy && sameMap(old.Predictions, in.Predictions) &&
		// A claim stored before extractors were kept has none: not a change.
		(old.Extractor == "" || old.Extractor == in.Extractor) {
		return store.Unchanged, nil
	}
	if !w.opt.Update {
		return 0, store.ErrChanged
	}
	_, res, err := w.tx.PutClaim(c.c, c.hash, f.name, true)
	return res, err
}

func encodeClaim(file int, c *claimRec) []byte {
	var e encoder
	e.loc(file, c.at)
	for _, s := range []string{c.field, c.idField, c.pairField, c.hash, c.c.ID, c.c.QAID,
		c.c.Triplet[0], c.c.Triplet[1], c.c.Triplet[2], c.c.Text, c.c.Origin, c.c.AddedBy, c.c.Extractor} {
		e.str(s)
	}
	e.int(c.c.Position)
	e.strMap(c.c.Predictions)
	return e
}

func decodeClaim(b []byte, names func(int) string) (int, *claimRec, error) {
	d := decoder{b: b}
	c := &claimRec{}
	file, at := d.loc(names)
	c.at = at
	for _, s := range []*string{&c.field, &c.idField, &c.pairField, &c.hash, &c.c.ID, &c.c.QAID,
		&c.c.Triplet[0], &c.c.Triplet[1], &c.c.Triplet[2], &c.c.Text, &c.c.Origin, &c.c.AddedBy, &c.c.Extractor} {
		*s = d.str()
	}
	c.c.Position = d.int()
	c.c.Predictions = d.strMap()
	return file, c, d.err
}

// writeStagedClaims writes the claims that waited for their pairs.
func (w *writer) writeStagedClaims() error {
	w.prog.begin("claims", w.staged[queueClaims], false)
	return w.tx.EachStaged(queueClaims, func(b []byte) error {
		w.prog.add(1)
		file, c, err := decodeClaim(b, w.name)
		if err != nil {
			return err
		}
		return w.writeClaim(w.files[file], c)
	})
}
