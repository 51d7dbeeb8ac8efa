package importer

import (
	"slices"

	"github.com/annotate-dev/annotate/schema"
)

// Some kinds are not read as native items (kinds.go) but into records of
// their own, each with its own checks: a QA pair with its context units
// and copies, a claim that waits for its pair. Such a kind registers here,
// from its kind_*.go files, how the rows it staged are written at the end
// and where the file summary counts them; the generic code (write.go,
// summary.go, import.go) goes through this list and names no kind.

// rowKind is what a kind of records of its own declares.
type rowKind struct {
	kind schema.Kind
	// name is the kind in errors ("a QA pair"); "" says "a <kind>".
	name string
	// counts points at the kind's counts in a file summary (a field of
	// its own, for the summary's JSON).
	counts func(*FileSummary) *Counts
	// staged writes the rows the kind kept until every line was read:
	// before the waiting items of the other kinds when beforeItems, else
	// after them, and always before the labels.
	staged      func(*writer) error
	beforeItems bool
	// done runs once every row and run is written (nil: nothing to do).
	done func(*writer) error
}

// rowKinds are in the kinds' order (schema.Spec.Order): the summary counts
// them in that order.
var rowKinds []rowKind

func registerRows(k rowKind) {
	rowKinds = append(rowKinds, k)
	slices.SortStableFunc(rowKinds, func(a, b rowKind) int { return kindOrder(a.kind) - kindOrder(b.kind) })
}

func kindOrder(k schema.Kind) int {
	if s := schema.SpecOf(k); s != nil {
		return s.Order
	}
	return 0
}

// kindName is a kind in errors: "a claim", "a query".
func kindName(k schema.Kind) string {
	for _, r := range rowKinds {
		if r.kind == k && r.name != "" {
			return r.name
		}
	}
	return "a " + string(k)
}

// writeStaged writes what waited for every line to be read: the staged
// rows of the kinds of their own and the waiting items, then the labels.
func (w *writer) writeStaged() error {
	for _, before := range []bool{true, false} {
		for _, k := range rowKinds {
			if k.beforeItems == before && k.staged != nil {
				if err := k.staged(w); err != nil {
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
		if k.done != nil {
			if err := k.done(w); err != nil {
				return err
			}
		}
	}
	return nil
}
