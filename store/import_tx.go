package store

import (
	"database/sql"
	"errors"
	"fmt"
	"slices"

	"github.com/annotate-dev/annotate/schema"
)

// Tx is one import: everything written through it lands together or not at
// all (an import is all-or-nothing: docs/formats.md), in steps of its own
// transactions (import_steps.go). Its methods that write take the next step
// when the current one has lasted long enough (wtx.step), before they
// write.
type Tx struct {
	tx      *wtx
	sources map[string]int64
	seen    idFilter  // the ids SeeFast recorded
	runs    *runStage // the run lines staged (runs_write.go)
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

// importPragmas give an import's connection a page cache of 16 MiB instead
// of SQLite's 2 MiB: it holds the pages the import keeps writing to (the
// ends of the tables and indexes) instead of writing them out and reading
// them back. The connection keeps it after the import (the pages are taken
// as they are used); larger caches measured no faster and cost twice their
// size in memory.
var importPragmas = []string{"PRAGMA cache_size = -16384"}

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

// PutItem adds (or, with update, replaces) the shared row of an item of a
// kind; the kind's own file then writes its rows. A changed item is an
// error without update; an identical one is Unchanged and written no further.
func (t *Tx) PutItem(k schema.Kind, extID string, source, parent int64, hash, file string, update bool) (int64, PutResult, error) {
	if err := t.tx.step(); err != nil {
		return 0, 0, err
	}
	kind := string(k)
	var id int64
	var old string
	if !t.tx.newItem(extID) {
		var err error
		if id, old, err = t.existing(extID, kind); err != nil {
			return 0, 0, err
		}
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
		res, err := t.tx.Exec(insertItem, extID, kind, src, par, hash, file, now())
		if err != nil {
			return 0, 0, err
		}
		id, _ = res.LastInsertId()
		t.tx.wroteItem(extID, itemRow{id: id, source: source, kind: kind})
		t.tx.added, t.tx.addedFields = id, t.tx.addedFields[:0]
		return id, Added, t.tx.touch(id)
	case old == hash:
		return id, Unchanged, nil
	case !update:
		return id, 0, ErrChanged
	}
	// The old family (a claim moved to another pair) is recounted too.
	if err := t.tx.touch(id); err != nil {
		return 0, 0, err
	}
	if _, err := t.tx.Exec(updateItem, src, par, hash, file, id); err != nil {
		return 0, 0, err
	}
	t.tx.wroteItem(extID, itemRow{id: id, source: source, kind: kind})
	return id, Updated, t.tx.touch(id)
}

// PutItem's statements: the only ones that write items during an import
// (what the import knows of its items, importItems, is kept by PutItem).
const (
	insertItem = "INSERT INTO items(ext_id,kind,source_id,parent_id,hash,origin_file,imported_at) VALUES (?,?,?,?,?,?,?)"
	updateItem = "UPDATE items SET source_id=?, parent_id=?, hash=?, origin_file=? WHERE id=?"
)

// itemRow is what an import remembers of an item it wrote.
type itemRow struct {
	id, source int64
	kind       string
}

// importItems is what an import knows of the items it wrote: every ext id
// (a filter: an id it never wrote is new when the table was empty before
// it), and the rows of the last ones (a claim's pair, a label's item).
// Only PutItem writes items in an import; the staging check proves each
// answer against the table (stagingCheck).
type importItems struct {
	ids    idFilter
	recent map[string]itemRow
}

// maxRecent bounds the rows remembered.
const maxRecent = 4096

func (t *wtx) wroteItem(ext string, r itemRow) {
	t.items.ids.add(ext)
	if t.items.recent == nil || len(t.items.recent) >= maxRecent {
		t.items.recent = make(map[string]itemRow, 64)
	}
	t.items.recent[ext] = r
}

// newItem reports that ext is certainly not in items: the table was empty
// when the import began and the import did not write it.
func (t *wtx) newItem(ext string) bool {
	if !t.itemsKnown || t.itemsBefore != 0 || t.items.ids.mayHave(ext) {
		return false
	}
	if t.check != nil {
		t.check.fast(t, func() string { return "new item " + ext }, func() (string, error) {
			var id int64
			switch err := t.Tx.QueryRow("SELECT id FROM items WHERE ext_id=?", ext).Scan(&id); {
			case err == nil:
				return fmt.Sprintf("taken as new, but the table has it as item %d", id), nil
			case errors.Is(err, sql.ErrNoRows):
				return "", nil
			default:
				return "", err
			}
		})
	}
	return true
}

// recentItem is a row the import wrote and remembers.
func (t *wtx) recentItem(ext string) (itemRow, bool) {
	r, ok := t.items.recent[ext]
	if ok {
		if t.check != nil {
			t.check.fast(t, func() string { return "item " + ext }, func() (string, error) {
				var got itemRow
				err := t.Tx.QueryRow("SELECT id, COALESCE(source_id,0), kind FROM items WHERE ext_id=?", ext).Scan(&got.id, &got.source, &got.kind)
				if err == nil && got != r {
					return fmt.Sprintf("remembered as %+v, the table has %+v", r, got), nil
				}
				return "", err
			})
		}
	}
	return r, ok
}

// itemOf returns the id and source of the item extID of kind k, as the
// table has them; sql.ErrNoRows when there is none.
func (t *Tx) itemOf(extID string, k schema.Kind) (id, source int64, err error) {
	if r, ok := t.tx.recentItem(extID); ok {
		if r.kind != string(k) {
			return 0, 0, sql.ErrNoRows
		}
		return r.id, r.source, nil
	}
	err = t.tx.QueryRow("SELECT id, COALESCE(source_id,0) FROM items WHERE ext_id=? AND kind=?", extID, k).Scan(&id, &source)
	return id, source, err
}

// ItemID resolves an ext id to (item id, kind).
func (t *Tx) ItemID(extID string) (int64, string, error) {
	if r, ok := t.tx.recentItem(extID); ok {
		return r.id, r.kind, nil
	}
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
	if err := t.tx.step(); err != nil {
		return false, err
	}
	aid, err := annotatorID(t.tx, l.Annotator)
	if err != nil {
		return false, err
	}
	role := RoleAnnotate
	keyAID := aid
	if l.Adjudicate {
		role, keyAID = RoleAdjudicate, 0
	}
	key := labelKey{role: role, annotator: keyAID, field: l.Field}
	if !t.tx.fresh.none(t.tx, l.ItemID, key) {
		// The current label is the last staged event of its key, if one
		// is staged; else the table's (which no staged row changes).
		cur, staged := t.tx.stagedLabel(l.ItemID, key)
		if !staged {
			err = t.tx.QueryRow("SELECT value FROM current_labels WHERE role=? AND annotator_id=? AND item_id=? AND field=?", role, keyAID, l.ItemID, l.Field).Scan(&cur)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return false, err
			}
			staged = err == nil
		}
		if staged && cur == l.Value {
			return false, nil
		}
	}
	// The event, as insertEvent writes it, staged, and with it the current
	// label, as setCurrent writes it (writeCurrent).
	gv, err := t.tx.guidelinesVersion(l.Field)
	if err != nil {
		return false, err
	}
	err = t.tx.stage(stageEvents, aid, l.ItemID, l.Field, l.Value, role, now(), l.ActiveMs, nullID(l.SessionID), gv, nullText(l.SuggestedBy))
	if err != nil {
		return false, err
	}
	t.tx.fresh.wrote(t.tx, l.ItemID, key)
	return true, t.tx.touch(l.ItemID)
}

// labelKey is a current label's key on an item.
type labelKey struct {
	role      string
	annotator int64
	field     string
}

// freshLabels is what an import knows, without reading the table, of the
// current labels of the items it created: none but those it wrote. It
// remembers which of them have a label, and every key written on the item
// labelled last (an item's labels come together). An item it cannot answer
// for is looked up, as are the items that were there before. Only PutLabel
// writes current labels in an import; the staging check proves each answer
// against the table (checkFast).
type freshLabels struct {
	labelled idSet // items of this import with a label written
	item     int64 // the item keys is complete for
	keys     []labelKey
}

// none reports that the item certainly has no current label of key.
func (f *freshLabels) none(t *wtx, item int64, k labelKey) bool {
	if !t.itemsKnown || item <= t.itemsBefore {
		return false
	}
	none := !f.labelled.has(item) || item == f.item && !slices.Contains(f.keys, k)
	if none {
		if t.check != nil {
			t.check.fast(t, func() string { return fmt.Sprintf("no label %+v on item %d", k, item) }, func() (string, error) {
				var v string
				err := t.Tx.QueryRow("SELECT value FROM current_labels WHERE role=? AND annotator_id=? AND item_id=? AND field=?",
					k.role, k.annotator, item, k.field).Scan(&v)
				if err == nil {
					return "the table has " + v, nil
				}
				if errors.Is(err, sql.ErrNoRows) {
					return "", nil
				}
				return "", err
			})
		}
	}
	return none
}

// wrote notes a label written on item.
func (f *freshLabels) wrote(t *wtx, item int64, k labelKey) {
	if !t.itemsKnown || item <= t.itemsBefore {
		return
	}
	if !f.labelled.has(item) {
		f.labelled.add(item)
		f.item, f.keys = item, f.keys[:0]
	}
	if item == f.item {
		f.keys = append(f.keys, k)
	}
}

// PutPredictions replaces an item's predictions of one field (system -> value).
func (t *Tx) PutPredictions(item int64, field string, bySystem map[string]string) error {
	if err := t.tx.step(); err != nil {
		return err
	}
	// An item PutItem has just created has no predictions to replace but
	// those put since.
	if !t.tx.putPredictions(item, field) {
		if err := t.tx.flush(stagePredictions); err != nil {
			return err
		}
		if _, err := t.tx.Exec("DELETE FROM predictions WHERE item_id=? AND field=?", item, field); err != nil {
			return err
		}
	}
	for sys, v := range bySystem {
		if err := t.tx.stage(stagePredictions, item, sys, field, v); err != nil {
			return err
		}
	}
	// The predictions count (and a pair's verdict is part of its family's
	// response-level counts).
	return t.tx.touch(item)
}

// putPredictions notes that predictions of field are being written on item
// and reports whether the item certainly has none of that field yet: it is
// the item PutItem created last and none were put on it since.
func (t *wtx) putPredictions(item int64, field string) bool {
	none := item == t.added && !slices.Contains(t.addedFields, field)
	t.notePredictions(item, field)
	if none {
		if t.check != nil {
			t.check.fast(t, func() string { return fmt.Sprintf("no %s predictions on item %d", field, item) }, func() (string, error) {
				var n int
				err := t.Tx.QueryRow("SELECT COUNT(*) FROM predictions WHERE item_id=? AND field=?", item, field).Scan(&n)
				if err == nil && n > 0 {
					return fmt.Sprintf("the table has %d", n), nil
				}
				return "", err
			})
		}
	}
	return none
}

// notePredictions notes predictions of field written on item (by
// PutPredictions or AddPrediction).
func (t *wtx) notePredictions(item int64, field string) {
	if item == t.added {
		t.addedFields = append(t.addedFields, field)
	}
}

// stagedLabel returns the value of the last staged event of a current
// label's key on item, if any (an adjudicated label's key is annotator 0,
// whoever adjudicated). An item's labels come together: the search starts
// from the end.
func (t *wtx) stagedLabel(item int64, k labelKey) (string, bool) {
	b := t.stages[stageEvents]
	for i := b.rows - 1; i >= 0; i-- {
		r := b.args[i*b.cols : (i+1)*b.cols] // annotator, item, field, value, role, …
		if r[1].(int64) != item || r[2].(string) != k.field || r[4].(string) != k.role {
			continue
		}
		if k.role == RoleAdjudicate || r[0].(int64) == k.annotator {
			return r[3].(string), true
		}
	}
	return "", false
}
