package importer

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Items of kinds beyond QA pairs and claims come as native JSONL lines that
// name their kind ("kind":"query"). Each kind reads its lines in a file of
// its own (kind_*.go: its NativeLine, registry.go); this file dedupes
// them across the import, writes them when what they need is in, and
// otherwise keeps them (their raw line) until every line is read.

// itemRec is one item of such a kind.
type itemRec struct {
	at      loc
	idField string
	kind    schema.Kind
	id      string
	hash    string // contentHash of what put writes
	// needs are ids of items that must be in first (a judgment's query and
	// document), each with the field that names it for errors.
	needs []need
	line  []byte // the input line, parsed again when the item had to wait
	// put writes the item with its content hash (update: replace a
	// changed one).
	put func(tx *store.Tx, hash, file string, update bool) (int64, store.PutResult, error)
}

type need struct{ field, id string }

// nativeLineOf is the kind of a line's "kind" (nil for "" or the plain
// line's kind, read by its readPlain), or an error naming the kinds there
// are.
func nativeLineOf(r *rec) (NativeLine, error) {
	k, err := r.str("kind")
	plain, _ := plainKind()
	if err != nil || k == "" || k == string(plain) {
		return nil, err
	}
	if n, ok := kinds.Get(schema.Kind(k)).(NativeLine); ok {
		return n, nil
	}
	known := []string{string(plain)}
	for _, n := range kinds.All() {
		if _, ok := n.(NativeLine); ok {
			known = append(known, string(n.Kind()))
		}
	}
	slices.Sort(known[1:])
	return nil, r.errf("kind", "unknown kind %q (known: %s)", k, strings.Join(known, ", "))
}

// nativeItem reads a line of a kind of its own and hands the item on; a
// nil line is made from r's values if the item needs it.
func (f *fileData) nativeItem(n NativeLine, r *rec, line []byte) error {
	it, err := n.ReadLine(&Line{f: f, r: r})
	if err != nil {
		return err
	}
	if err := printable(r.at, it.idField, "the id", it.id); err != nil {
		return err
	}
	// The line is kept to stage the item if it has to wait for an item it
	// needs; the reader reuses its buffer while the writer, on another
	// goroutine, is still behind. An item that needs none never waits: a
	// copy of its line (16 MiB for the largest) would only be held.
	it.at = r.at
	switch {
	case len(it.needs) == 0:
	case line == nil:
		b, err := r.record()
		if err != nil {
			return r.errf("", "cannot rewrite the record: %v", err)
		}
		it.line = b
	default:
		it.line = slices.Clone(line)
	}
	return f.out.item(f, it)
}

// contentHash identifies an item's content whatever the line looked like
// (key order, spacing, labels inside): the hash of its store value.
func contentHash(v any) string {
	h := sha256.New()
	writeJSON(h, v) // json.Marshal's bytes; struct fields in declaration order: canonical
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// item writes one item of a kind of its own, or keeps it until every line is
// read when an item it needs is not in yet (or items wait before it).
func (w *writer) item(f *fileData, it *itemRec) error {
	prev, met, err := w.tx.See("item", it.id, w.seen(f, string(it.kind), it.hash, it.at, false))
	if err != nil {
		return err
	}
	if met {
		switch {
		case prev.File == f.idx:
			return duplicate(it.at, it.idField, it.id, prev)
		case prev.Kind != string(it.kind):
			return it.at.errf(it.idField, "id %q is also %s at %s", it.id, kindName(schema.Kind(prev.Kind)), w.where(prev))
		case prev.Hash == it.hash:
			return nil // the same item from another file of this import
		default:
			return it.at.errf(it.idField, "id %q is also at %s with different content", it.id, w.where(prev))
		}
	}
	// An item that needs none is written now; one that does, now when
	// they are in and none waits before it (items keep the files' order).
	if len(it.needs) == 0 || w.staged[queueItems] == 0 {
		if err := w.writeItem(f, it, false); len(it.needs) == 0 || !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	var e encoder
	e.loc(f.idx, it.at)
	e.str(string(it.line))
	return w.stage(queueItems, e)
}

// writeItem writes an item whose needs are in; ErrNotFound (wrapped in an
// error naming the field) when one is not. final: every file is read, so
// what is still missing is missing for good (a release's citation naming
// no document then names an absent one: releaseAbsent).
func (w *writer) writeItem(f *fileData, it *itemRec, final bool) error {
	for _, n := range it.needs {
		if _, _, err := w.tx.ItemID(n.id); err != nil {
			if errors.Is(err, store.ErrNotFound) && final && releaseAbsent(f.format, n.field) {
				if err := w.absentDocument(f, it.at, n.id); err != nil {
					return err
				}
				continue
			}
			if errors.Is(err, store.ErrNotFound) {
				e := it.at.errf(n.field, "unknown item %q: it is neither in the database nor in this import", n.id)
				if field, msg, ok := releaseNeed(f.format, n.field, n.id); ok {
					e = it.at.errf(field, "%s", msg)
				}
				e.Err = err
				return e
			}
			return err
		}
	}
	id, res, err := it.put(w.tx, it.hash, f.name, false)
	if errors.Is(err, store.ErrChanged) && w.opt.Update {
		id, res, err = it.put(w.tx, it.hash, f.name, true)
	}
	if err != nil {
		if errors.Is(err, store.ErrChanged) {
			e := it.at.errf(it.idField, "item %q is already in the database with different content (use --update to replace it)", it.id)
			e.Err = err
			return e
		}
		return it.at.wrap(it.idField, err)
	}
	f.sum.addItem(string(it.kind), res)
	w.wrote(it.id, it.kind, id)
	return nil
}

// writeStagedItems writes the items that waited, parsing their lines again.
func (w *writer) writeStagedItems() error {
	w.prog.begin("items", w.staged[queueItems], false)
	return w.tx.EachStaged(queueItems, func(b []byte) error {
		w.prog.add(1)
		d := decoder{b: b}
		file, at := d.loc(w.name)
		line := []byte(d.str())
		if d.err != nil {
			return d.err
		}
		f := w.files[file]
		m, err := object(at, line)
		if err != nil {
			return err
		}
		r := newRec(at, "", m)
		n, err := nativeLineOf(r)
		if err != nil || n == nil {
			return fmt.Errorf("importer: a staged item does not parse again: %v", err)
		}
		it, err := n.ReadLine(&Line{f: &fileData{idx: f.idx, in: f.in, name: f.name, format: f.format, opt: f.opt, sum: &FileSummary{}, out: discard{}}, r: r})
		if err != nil {
			return err
		}
		it.at, it.line = at, line
		return w.writeItem(f, it, true)
	})
}

// discard takes what a line parsed a second time hands on (its labels were
// taken the first time).
type discard struct{}

func (discard) row(*fileData, kindRow) error     { return nil }
func (discard) label(*fileData, *labelRec) error { return nil }
func (discard) item(*fileData, *itemRec) error   { return nil }

// addItem counts one item of a kind of its own.
func (s *FileSummary) addItem(kind string, res store.PutResult) {
	if s.Items == nil {
		s.Items = map[string]*Counts{}
	}
	c := s.Items[kind]
	if c == nil {
		c = &Counts{}
		s.Items[kind] = c
	}
	c.add(res)
}
