package importer

import (
	"github.com/annotate-dev/annotate/schema"
)

// Some kinds are not read as native items (kinds.go) but into records of
// their own, each with its own checks: a QA pair with its context units
// and copies, a claim that waits for its pair. Such a kind's importer Kind
// is a rowsKind: where the file summary counts it and how the rows it
// staged are written at the end; the generic code (write.go, summary.go,
// import.go) goes through rowKinds (registry.go) and names no kind.

// rowsKind is a kind of records of its own.
type rowsKind interface {
	Kind
	// counts points at the kind's counts in a file summary (a field of
	// its own, for the summary's JSON).
	counts(*FileSummary) *Counts
	// writeStaged writes the rows the kind kept until every line was
	// read: after the waiting items of the other kinds (before them for a
	// stagedFirst), and always before the labels.
	writeStaged(*writer) error
}

// stagedFirst is a kind of records of its own whose staged rows are
// written before the waiting items of the other kinds (the copies of QA
// pairs, which claims need).
type stagedFirst interface {
	stagedBeforeItems()
}

// rowsDone is a kind of records of its own with work once every row and
// run is written (the languages of QA pairs, from their sources).
type rowsDone interface {
	rowsDone(*writer) error
}

// Named is a kind that says itself in errors otherwise than "a <kind>"
// ("a QA pair").
type Named interface {
	Name() string
}

func kindOrder(k schema.Kind) int {
	if s := schema.SpecOf(k); s != nil {
		return s.Order
	}
	return 0
}

// kindName is a kind in errors: "a claim", "a query".
func kindName(k schema.Kind) string {
	if n, ok := kinds.Get(k).(Named); ok {
		return n.Name()
	}
	return "a " + string(k)
}

// writeStaged writes what waited for every line to be read: the staged
// rows of the kinds of their own and the waiting items, then the labels.
func (w *writer) writeStaged() error {
	for _, before := range []bool{true, false} {
		for _, k := range rowKinds {
			if _, first := k.(stagedFirst); first == before {
				if err := k.writeStaged(w); err != nil {
					return err
				}
			}
		}
		if before {
			if err := w.writeStagedItems(); err != nil {
				return err
			}
		}
	}
	return w.writeStagedLabels()
}

// finishRows runs what the kinds do once everything is written.
func (w *writer) finishRows() error {
	for _, k := range rowKinds {
		if d, ok := k.(rowsDone); ok {
			if err := d.rowsDone(w); err != nil {
				return err
			}
		}
	}
	return nil
}
