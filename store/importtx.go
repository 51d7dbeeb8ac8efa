package store

import (
	"database/sql"
	"errors"
	"fmt"
)

// Tx is one import: everything written through it commits together or not at
// all (DESIGN.md: an import is all-or-nothing).
type Tx struct {
	tx      *wtx
	sources map[string]int64
	// (annotator, item) pairs whose labels changed, to refresh done_items once at the end.
	touched map[[2]int64]bool
}

// PutResult says what a Put did.
type PutResult int

const (
	Added PutResult = iota
	Unchanged
	Updated
)

// ErrChanged is returned when an item with an existing id has other content and
// the import was not asked to update.
var ErrChanged = errors.New("an item with this id exists with different content (use --update to replace it)")

// ErrUnknownPair is returned for a claim whose QA pair is neither in the
// database nor earlier in the import.
var ErrUnknownPair = errors.New("unknown QA pair")

// Import runs fn in one transaction; any error rolls everything back.
func (s *Store) Import(fn func(*Tx) error) error {
	return s.write(func(tx *wtx) error {
		t := &Tx{tx: tx, sources: map[string]int64{}, touched: map[[2]int64]bool{}}
		if err := fn(t); err != nil {
			return err
		}
		for k := range t.touched {
			if err := refreshDone(tx, k[0], k[1]); err != nil {
				return err
			}
		}
		return nil
	})
}

// Source returns the id of a source, creating it with the given language and
// jurisdiction when new; an empty language of an existing source is filled in.
func (t *Tx) Source(name, language, jurisdiction string) (int64, error) {
	if id, ok := t.sources[name]; ok {
		return id, nil
	}
	var id int64
	err := t.tx.QueryRow("SELECT id FROM sources WHERE name=?", name).Scan(&id)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		res, err := t.tx.Exec("INSERT INTO sources(name,language,jurisdiction) VALUES (?,?,?)", name, language, jurisdiction)
		if err != nil {
			return 0, err
		}
		id, _ = res.LastInsertId()
	case err != nil:
		return 0, err
	default:
		if language != "" {
			if _, err := t.tx.Exec("UPDATE sources SET language=? WHERE id=? AND language=''", language, id); err != nil {
				return 0, err
			}
		}
	}
	t.sources[name] = id
	return id, nil
}

// SourceLanguage returns a known source's language ("" when unknown).
func (t *Tx) SourceLanguage(name string) string {
	var lang string
	t.tx.QueryRow("SELECT language FROM sources WHERE name=?", name).Scan(&lang)
	return lang
}

// existing returns the item id and hash for an ext id, or 0.
func (t *Tx) existing(extID, kind string) (int64, string, error) {
	var id int64
	var hash, k string
	err := t.tx.QueryRow("SELECT id, hash, kind FROM items WHERE ext_id=?", extID).Scan(&id, &hash, &k)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", nil
	}
	if err != nil {
		return 0, "", err
	}
	if k != kind {
		return 0, "", fmt.Errorf("id %q is already used by a %s item", extID, k)
	}
	return id, hash, nil
}

func (t *Tx) putItem(extID, kind string, source, parent int64, hash, file string, update bool) (int64, PutResult, error) {
	id, old, err := t.existing(extID, kind)
	if err != nil {
		return 0, 0, err
	}
	var src, par any
	if source != 0 {
		src = source
	}
	if parent != 0 {
		par = parent
	}
	switch {
	case id == 0:
		res, err := t.tx.Exec("INSERT INTO items(ext_id,kind,source_id,parent_id,hash,origin_file,imported_at) VALUES (?,?,?,?,?,?,?)",
			extID, kind, src, par, hash, file, now())
		if err != nil {
			return 0, 0, err
		}
		id, _ = res.LastInsertId()
		return id, Added, nil
	case old == hash:
		return id, Unchanged, nil
	case !update:
		return id, 0, ErrChanged
	}
	_, err = t.tx.Exec("UPDATE items SET source_id=?, parent_id=?, hash=?, origin_file=? WHERE id=?", src, par, hash, file, id)
	return id, Updated, err
}

// PutQA adds a QA pair (and its context units). hash identifies its content.
func (t *Tx) PutQA(q QAPair, hash, file string, update bool) (int64, PutResult, error) {
	src, err := t.Source(q.Source, q.Language, "")
	if err != nil {
		return 0, 0, err
	}
	id, res, err := t.putItem(q.ID, "qa", src, 0, hash, file, update)
	if err != nil || res == Unchanged {
		return id, res, err
	}
	extra := q.Extra
	if extra == "" {
		extra = "{}"
	}
	hop := q.Hop
	if hop == "" {
		hop = "single"
	}
	if _, err := t.tx.Exec(`INSERT OR REPLACE INTO qa_pairs(item_id,language,hop,question,answer,rationale,category,extra) VALUES (?,?,?,?,?,?,?,?)`,
		id, q.Language, hop, q.Question, q.Answer, q.Rationale, q.Category, extra); err != nil {
		return 0, 0, err
	}
	if _, err := t.tx.Exec("DELETE FROM qa_contexts WHERE qa_item_id=?", id); err != nil {
		return 0, 0, err
	}
	for i, c := range q.Contexts {
		cid, err := t.context(c, src, update)
		if err != nil {
			return 0, 0, fmt.Errorf("contexts[%d]: %w", i, err)
		}
		if _, err := t.tx.Exec("INSERT INTO qa_contexts(qa_item_id,position,context_id) VALUES (?,?,?)", id, i, cid); err != nil {
			return 0, 0, err
		}
	}
	if err := t.putPredictions(id, q.Predictions); err != nil {
		return 0, 0, err
	}
	return id, res, nil
}

func (t *Tx) context(c Context, source int64, update bool) (int64, error) {
	var id int64
	var text string
	err := t.tx.QueryRow("SELECT id, text FROM context_units WHERE ext_id=?", c.ID).Scan(&id, &text)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		res, err := t.tx.Exec("INSERT INTO context_units(ext_id,source_id,text) VALUES (?,?,?)", c.ID, source, c.Text)
		if err != nil {
			return 0, err
		}
		return res.LastInsertId()
	case err != nil:
		return 0, err
	case text == c.Text:
		return id, nil
	case !update:
		return 0, fmt.Errorf("context unit %q exists with a different text (use --update to replace it)", c.ID)
	}
	_, err = t.tx.Exec("UPDATE context_units SET text=? WHERE id=?", c.Text, id)
	return id, err
}

// PutClaim adds a claim of an existing QA pair (by ext id), with its predictions.
func (t *Tx) PutClaim(c Claim, hash, file string, update bool) (int64, PutResult, error) {
	var qa, src int64
	err := t.tx.QueryRow("SELECT id, COALESCE(source_id,0) FROM items WHERE ext_id=? AND kind='qa'", c.QAID).Scan(&qa, &src)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, fmt.Errorf("%w %q", ErrUnknownPair, c.QAID)
	}
	if err != nil {
		return 0, 0, err
	}
	id, res, err := t.putItem(c.ID, "claim", src, qa, hash, file, update)
	if err != nil || res == Unchanged {
		return id, res, err
	}
	origin := c.Origin
	if origin == "" {
		origin = OriginExtracted
	}
	var addedBy any
	if c.AddedBy != "" {
		aid, err := annotatorID(t.tx, c.AddedBy)
		if err != nil {
			return 0, 0, err
		}
		addedBy = aid
	}
	if _, err := t.tx.Exec(`INSERT OR REPLACE INTO claims(item_id,position,subject,predicate,object,text,origin,added_by) VALUES (?,?,?,?,?,?,?,?)`,
		id, c.Position, c.Triplet[0], c.Triplet[1], c.Triplet[2], c.Text, origin, addedBy); err != nil {
		return 0, 0, err
	}
	if _, err := t.tx.Exec("DELETE FROM predictions WHERE item_id=?", id); err != nil {
		return 0, 0, err
	}
	for sys, v := range c.Predictions {
		if _, err := t.tx.Exec("INSERT INTO predictions(item_id,system,value) VALUES (?,?,?)", id, sys, v); err != nil {
			return 0, 0, err
		}
	}
	return id, res, nil
}

// ItemID resolves an ext id to (item id, kind).
func (t *Tx) ItemID(extID string) (int64, string, error) {
	return itemID(t.tx, extID)
}

func itemID(q querier, extID string) (int64, string, error) {
	var id int64
	var kind string
	err := q.QueryRow("SELECT id, kind FROM items WHERE ext_id=?", extID).Scan(&id, &kind)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", notFound("item", extID)
	}
	return id, kind, err
}

// PutLabel records an imported label unless the annotator's current value of
// that field already equals it, so re-importing the same file adds nothing.
// It reports whether an event was appended.
func (t *Tx) PutLabel(l Label) (bool, error) {
	aid, err := annotatorID(t.tx, l.Annotator)
	if err != nil {
		return false, err
	}
	role := RoleAnnotate
	keyAID := aid
	if l.Adjudicate {
		role, keyAID = RoleAdjudicate, 0
	}
	var cur string
	err = t.tx.QueryRow("SELECT value FROM current_labels WHERE role=? AND annotator_id=? AND item_id=? AND field=?", role, keyAID, l.ItemID, l.Field).Scan(&cur)
	if err == nil && cur == l.Value {
		return false, nil
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return false, err
	}
	id, err := insertEvent(t.tx, aid, role, l)
	if err != nil {
		return false, err
	}
	if err := setCurrent(t.tx, role, aid, l.ItemID, l.Field, l.Value, id); err != nil {
		return false, err
	}
	if role == RoleAnnotate {
		t.touched[[2]int64{aid, l.ItemID}] = true
	}
	return true, nil
}
