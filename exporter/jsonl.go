package exporter

import (
	"github.com/annotate-dev/annotate/store"
)

// The native formats (docs/formats.md: native and labels JSONL), written so that
// `annotate import DIR` (or the two files) rebuilds the same items and
// current labels in another database:
//
//   - items.jsonl: one item per line as each kind writes it (its native,
//     lines or nested writer: kind_*.go), with its children inside when the
//     kind nests them (kind_qa_native.go). No labels inside.
//   - labels.jsonl: every current label, one per line, as
//     {"annotator","item","field","value"}. An adjudicated label is written
//     under the name of the lead who adjudicated with "role":"adjudicate";
//     every other line has no "role" (an annotator's own label), so the file
//     stays in the documented labels format. Markers are labels too:
//     missed_claims_checked on QA pairs, claim_added on added claims.
//
// Unlike hf and csv, nothing is filtered: not-asked labels (a persona of a
// question later judged invalid) and added claims whose addition was undone
// are kept, because the native export is a copy of the database's state,
// not a publication.

func (e *exporter) native(dir string) error {
	if err := e.writeItems(dir); err != nil {
		return err
	}
	return e.writeLabels(dir)
}

func (e *exporter) writeItems(dir string) error {
	n := 0
	for _, x := range kinds {
		if !inNative(x) {
			continue
		}
		c, err := e.snap.CountItems(x.Kind())
		if err != nil {
			return err
		}
		n += c
	}
	if n == 0 {
		return errNothing
	}
	f, err := e.openFile(dir, "items.jsonl")
	if err != nil {
		return err
	}
	// The kinds written one item a line first: a kind with others nested in
	// its lines (a QA pair with its claims) never needs them, while they may
	// need each other (kinds in order: queries and documents before what
	// refers to them).
	err = e.writeKindLines(f)
	for _, x := range kinds {
		if n, ok := x.(nestedLines); ok && err == nil {
			err = n.nested(e, f)
		}
	}
	return e.finish(f, err, nil, 0)
}

// inNative: the kind's items are in items.jsonl.
func inNative(x Kind) bool {
	_, native := x.(NativeLine)
	_, own := x.(ownLines)
	_, nested := x.(nestedLines)
	return native || own || nested
}

// writeKindLines writes the native lines of the kinds of their own.
func (e *exporter) writeKindLines(f *sink) error {
	var buf []byte
	for _, x := range kinds {
		if o, ok := x.(ownLines); ok {
			n := 0
			if err := o.lines(e, func(b []byte) error { n++; _, err := f.Write(b); return err }); err != nil {
				return err
			}
			if n > 0 {
				e.res.counted(x, n)
			}
			continue
		}
		nl, ok := x.(NativeLine)
		if !ok {
			continue
		}
		n := 0
		err := each(e, e.itemsOf(x, store.ExportOptions{}), func(it *store.ExportItem) error {
			buf = nl.Native(buf[:0], it.Item)
			n++
			_, err := f.Write(buf)
			return err
		})
		if err != nil {
			return err
		}
		if n > 0 {
			e.res.counted(x, n)
		}
	}
	return nil
}

func (e *exporter) writeLabels(dir string) error {
	f, err := e.openFile(dir, "labels.jsonl")
	if err != nil {
		return err
	}
	var buf []byte
	n := 0
	e.prog.begin("labels", 0)
	err = each(e, e.snap.Labels(), func(l store.ExportLabel) error {
		adjudicated := l.Role == store.RoleAdjudicate
		if e.who != "" && (adjudicated != e.labels.Adjudicated || !adjudicated && l.Annotator != e.labels.Annotator) {
			return nil // --annotator or --adjudicated: that set only
		}
		buf = append(buf[:0], `{"annotator":`...)
		buf = appendString(buf, l.Annotator)
		buf = append(buf, `,"item":`...)
		buf = appendString(buf, l.Item)
		buf = append(buf, `,"field":`...)
		buf = appendString(buf, l.Field)
		buf = append(buf, `,"value":`...)
		buf = appendLabelValue(buf, l.Field, l.Value)
		if adjudicated {
			buf = append(buf, `,"role":"adjudicate"`...)
		}
		if l.SuggestedBy != "" {
			buf = append(buf, `,"suggested_by":`...)
			buf = appendString(buf, l.SuggestedBy)
		}
		buf = append(buf, '}', '\n')
		n++
		_, err := f.Write(buf)
		return err
	})
	return e.finish(f, err, &e.res.Labels, n)
}
