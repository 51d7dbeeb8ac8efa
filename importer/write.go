package importer

import (
	"errors"
	"fmt"
	"strings"

	"github.com/annotate-dev/annotate/internal/names"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// The writing side of an import (see run): what each record does to the
// database, the ids met so far, and what waits for the end.

// writer is the sink of every file of an import (see fileData).
type writer struct {
	tx      *store.Tx
	opt     Options
	prog    *progress
	files   []*fileData
	sources map[string]*sourceState
	staged  []int64            // per queue, the records staged
	runs    map[string]runSeen // runs met so far (trec.go); nil: none
	// names holds the rule of names to the annotators the labels create:
	// a new name close to a known one, or to one met earlier in the
	// import, is refused as a typo (names.Rule).
	names  *names.Rule
	hfRuns map[string]hfRunSeen // runs met in hf runs configs (hf_runs.go)
	// lastItem caches the item last written or labelled: an item's labels
	// come together, right after it.
	lastItem struct {
		ext, kind string
		id        int64
	}
}

func (w *writer) name(i int) string { return w.files[i].name }

// where names the place an id was met, for "also at" messages.
func (w *writer) where(s store.Seen) string {
	return loc{file: w.files[s.File].name, line: s.Line, record: s.Record}.String()
}

func (w *writer) seen(f *fileData, kind, hash string, at loc, secondary bool) store.Seen {
	return store.Seen{Kind: kind, Hash: hash, File: f.idx, Line: at.line, Record: at.record, Secondary: secondary}
}

// read parses one file, writing its QA pairs and staging the rest.
func (w *writer) read(f *fileData) error {
	t, err := f.in.reader()
	if err != nil {
		return err
	}
	defer t.Close()
	if f.format == FormatTRECRun || f.format == FormatCLRBRun || f.format == FormatHF && hfConfigOf(f.name) == hfRunsConfig {
		// A run's lines are staged on the writer itself, not written as
		// records: it is read on the import's goroutine.
		return parsers[f.format](f, t)
	}
	return parseWhileWriting(f, t, parsers[f.format], w)
}

// row writes a record of a kind of its own as its kind says.
func (w *writer) row(f *fileData, r kindRow) error { return r.write(w, f) }

// duplicate is the error for an id met twice in one file.
func duplicate(at loc, field, id string, first store.Seen) error {
	where := fmt.Sprintf("line %d", first.Line)
	if first.Line == 0 {
		where = fmt.Sprintf("record %d", first.Record+1)
	}
	return at.errf(field, "duplicate id %q (first at %s)", id, where)
}

func (w *writer) label(f *fileData, l *labelRec) error {
	if !l.prediction {
		if err := w.names.Take(l.annotator); err != nil {
			return l.at.errf(l.whoField(), "%v", err)
		}
	}
	// As claims: now when its item is in and no label waits before it.
	if w.staged[queueLabels] == 0 {
		if err := w.writeLabel(f, l); !errors.Is(err, store.ErrUnknownPair) {
			return err
		}
	}
	return w.stage(queueLabels, encodeLabel(f.idx, l))
}

func (w *writer) stage(queue int, data []byte) error {
	w.staged[queue]++
	return w.tx.Stage(queue, data)
}

// writeStagedLabels writes the labels that waited for their items.
func (w *writer) writeStagedLabels() error {
	w.prog.begin("labels", w.staged[queueLabels], false)
	return w.tx.EachStaged(queueLabels, func(b []byte) error {
		w.prog.add(1)
		file, l, err := decodeLabel(b, w.name)
		if err != nil {
			return err
		}
		return w.writeLabel(w.files[file], l)
	})
}

func sameMap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// wrote remembers the item just written: its labels come next.
func (w *writer) wrote(ext string, k schema.Kind, id int64) {
	if id != 0 {
		w.lastItem.ext, w.lastItem.kind, w.lastItem.id = ext, string(k), id
	}
}

func (w *writer) writeLabel(f *fileData, l *labelRec) error {
	id, err := w.labelItem(l)
	if err != nil {
		return err
	}
	if l.prediction {
		if _, err := w.tx.AddPrediction(id, l.annotator, l.name, l.value); err != nil {
			return l.at.wrap(l.field, err)
		}
		return nil
	}
	added, err := w.tx.PutLabel(store.Label{Annotator: l.annotator, ItemID: id, Field: l.name, Value: l.value, Adjudicate: l.adjudicate, SuggestedBy: l.suggestedBy})
	if err != nil {
		return l.at.wrap(l.field, err)
	}
	if added {
		f.sum.LabelsAdded++
	} else {
		f.sum.LabelsUnchanged++
	}
	return nil
}

// labelItem resolves the item of a label: one in the database (this
// import's are in by now) whose kind has the label's field.
func (w *writer) labelItem(l *labelRec) (int64, error) {
	last := &w.lastItem
	if last.ext != l.item || last.id == 0 {
		id, kind, err := w.tx.ItemID(l.item)
		if errors.Is(err, store.ErrNotFound) {
			e := l.at.errf(l.itemField, "unknown item %q: it is neither in the database nor in this import", l.item)
			e.Err = store.ErrUnknownPair
			return 0, e
		}
		if err != nil {
			return 0, err
		}
		last.ext, last.kind, last.id = l.item, kind, id
	}
	if fd, _ := lookupField(l.name); last.kind != string(fd.Kind) {
		return 0, l.at.errf(l.field, "%s is a field of %s, but %q is %s", l.name, kindName(fd.Kind), l.item, kindName(schema.Kind(last.kind)))
	}
	return last.id, nil
}

// splitField takes the "contexts[i]: " prefix of a store error as the field
// it is about; other errors are about the id.
func splitField(err error, idField string) (string, error) {
	msg := err.Error()
	if i := strings.Index(msg, "]: "); strings.HasPrefix(msg, "contexts[") && i > 0 {
		return msg[:i+1], &contextError{msg[i+3:], err}
	}
	return idField, err
}

// contextError is a store error about a context unit, its prefix taken off
// for the message, the original kept for errors.Is/As.
type contextError struct {
	msg string
	err error
}

func (e *contextError) Error() string { return e.msg }
func (e *contextError) Unwrap() error { return e.err }

// storeErr places a store error in the input and says which id it is about.
func storeErr(at loc, field, id string, err error) error {
	if errors.Is(err, store.ErrChanged) {
		e := at.errf(field, "item %q is already in the database with different content (use --update to replace it)", id)
		e.Err = err
		return e
	}
	return at.wrap(field, err)
}
