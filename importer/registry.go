package importer

import (
	"slices"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// What the importer needs of a kind. Every kind it reads implements Kind
// and registers it from its own file (kind_<kind>.go) with Register; how
// its items are read is an interface below, which the generic code checks
// with a type assertion where it needs it, and names no kind:
//
//   - NativeLine: a kind read from native lines of its own, {"kind":k,…}
//     (queries, documents, … and a kind from outside the importer);
//     HFConfig: its config of an hf export, each row read as such a line,
//     with what its rows hold otherwise (HFColumns, HFLabelColumns,
//     HFConverter, HFExtra, HFIdentified, HFLabelSetRows: hf_kinds.go).
//   - A kind of records of its own (QA pairs, claims: kinds_rows.go)
//     implements the unexported rowsKind (and stagedFirst, rowsDone), and
//     hfRowReader for its config, plainLiner for the lines without
//     "kind": their records and writer are the importer's own types, so
//     only a kind of this package can be one.

// Kind is what the importer needs of every kind it reads: its name.
type Kind interface {
	Kind() schema.Kind
}

// NativeLine is a kind read from native JSONL lines of its own
// ({"kind":k,"id":…}): ReadLine reads one into the item it holds, with
// the labels it carries (Line.Labels).
type NativeLine interface {
	ReadLine(l *Line) (*Item, error)
}

// HFConfig is a kind with a config of its own in an hf export: the
// folder's name (data/<config>/…). For a NativeLine kind each row is read
// as its native line (columns keep their names; the kind's fields are
// labels of the row's annotator).
type HFConfig interface {
	HFConfig() string
}

// Line is one native line a kind reads (or an hf row read as one), with
// its file and line number for errors.
type Line struct {
	f *fileData
	r *rec
}

// ID reads the line's id under key: missing, empty or not printable is an
// error naming the file, line and key.
func (l *Line) ID(key string) (string, error) { return l.r.needID(key) }

// String reads a string under key ("" when the line has none).
func (l *Line) String(key string) (string, error) { return l.r.str(key) }

// Errorf is an error about key of the line, naming its file and line.
func (l *Line) Errorf(key, format string, args ...any) error { return l.r.errf(key, format, args...) }

// Labels reads the line's "labels" as the labels of item id of kind k, and
// counts the keys the kind did not read as unknown (dropped, and said in
// the summary). A kind calls it once it has read its own keys.
func (l *Line) Labels(k schema.Kind, id string) error {
	_, err := l.f.itemRest(l.r, id, k)
	return err
}

// Item is an item a native line holds, as the import writes it: made by
// Line.Item for a kind whose store.Kind writes its payload
// (store.PayloadWriter); the kinds of this package make theirs with their
// own writers.
type Item = itemRec

// Item is the item id of kind k the line holds, whose payload the kind's
// store.Kind writes (Tx.Put). Its content, for telling a changed item
// from the same one met again, is its kind, id and payload.
func (l *Line) Item(k schema.Kind, id string, payload any) *Item {
	hash := contentHash(struct {
		Kind, ID string
		Payload  any
	}{string(k), id, payload})
	return &itemRec{idField: "id", kind: k, id: id, hash: hash,
		put: func(tx *store.Tx, hash, file string, update bool) (int64, store.PutResult, error) {
			return tx.Put(k, id, 0, 0, hash, file, update, payload)
		}}
}

// The registered kinds, in the order of registration, and by name;
// rowKinds and hfOrder are views of the same list, kept in the kinds'
// order (schema.Spec.Order): the summary counts the kinds of records of
// their own in that order, and an hf folder's configs are read in it.
var (
	kinds    schema.Registry[Kind]
	rowKinds []rowsKind
	hfOrder  []Kind // the kinds with an HFConfig
)

// Register adds a kind to the importer; each kind's file calls it from
// init. A kind registered twice is a mistake of the program.
func Register(k Kind) {
	kinds.Add(k)
	byOrder := func(a, b Kind) int { return kindOrder(a.Kind()) - kindOrder(b.Kind()) }
	if r, ok := k.(rowsKind); ok {
		rowKinds = append(rowKinds, r)
		slices.SortStableFunc(rowKinds, func(a, b rowsKind) int { return byOrder(a, b) })
	}
	if _, ok := k.(HFConfig); ok {
		hfOrder = append(hfOrder, k)
		slices.SortStableFunc(hfOrder, byOrder)
	}
}

// plainLiner is the kind of a native line without "kind" (QA pairs, which
// are records of their own): its reader, and the keys of such a line
// besides "id" (keys: a first line with "id" and one of keys is native;
// one with one of resembles is like it).
type plainLiner interface {
	readPlain(f *fileData, r *rec) error
	plainKeys() (keys, resembles []string)
}

// plainKind is the kind of the lines without "kind" ("" , nil: none).
func plainKind() (schema.Kind, plainLiner) {
	for _, k := range kinds.All() {
		if p, ok := k.(plainLiner); ok {
			return k.Kind(), p
		}
	}
	return "", nil
}

// plainLineKeys are the keys of the plain line's kind (plainLiner).
func plainLineKeys() (keys, resembles []string) {
	if _, p := plainKind(); p != nil {
		return p.plainKeys()
	}
	return nil, nil
}
