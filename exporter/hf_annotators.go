package exporter

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Every label set in one export (--all-annotators): beside each annotated
// kind's config, a config <config>_by_annotator in long format, one row per
// item and label set: the item's columns, then "annotator" (the annotator's
// name, or `adjudicated` for the adjudicated labels), then that set's
// labels, as the kind's own config has them (asked-when applied). A set
// with no label that counts on an item has no row for it. The rows are
// streamed set by set, each set one pass of the kind's stream, so memory
// does not grow with the data.

// byAnnotatorSuffix names the long configs: qa_by_annotator.
const byAnnotatorSuffix = "_by_annotator"

// labelSetRows is a label set of a long config and the rows written of it.
type labelSetRows struct {
	set  store.LabelSet
	name string // as the annotator column has it
	rows int
}

// byAnnotatorConfigs are the long configs of an export with
// --all-annotators: one per annotated kind with labels.
func (e *exporter) byAnnotatorConfigs() ([]*hfConfig, error) {
	var out []*hfConfig
	for _, x := range kinds {
		if _, own := x.(ownRows); own || !schema.SpecOf(x.Kind()).Annotated {
			continue // relevance: its config is every judgment already
		}
		l := newLayout(x.Kind(), e.o.WithNotes)
		if suggestable(x) {
			counts, err := e.snap.SuggestedLabels()
			if err != nil {
				return nil, err
			}
			if len(counts) > 0 {
				l.suggested, l.cols = true, append(l.cols, suggestedColumn)
			}
		}
		found, err := e.snap.LabelSetsOf(x.Kind(), labelNames(l.labels))
		if err != nil {
			return nil, err
		}
		c := &hfConfig{name: x.Config() + byAnnotatorSuffix, layout: l, byAnnotator: x}
		for _, s := range found {
			name := s.Annotator
			if s.Adjudicated {
				name = "adjudicated"
			}
			c.sets = append(c.sets, &labelSetRows{set: s.LabelSet, name: name})
			c.rows += s.Items // at most: a label the asked-when rule drops leaves no row
		}
		out = append(out, c)
	}
	return out, nil
}

// writeByAnnotatorRows streams a long config's rows, set by set, through a
// view of the export whose label set is that set.
func (e *exporter) writeByAnnotatorRows(c *hfConfig, fn func(row) error) error {
	from, to := c.layout.labelOffset(), c.layout.labelOffset()+len(c.layout.labels)
	for _, s := range c.sets {
		v := *e // the background reports read e's label set: not changed
		v.labels, v.who = s.set, s.name
		err := v.writeKindRows(c.byAnnotator, c.layout, func(r row) error {
			if !slices.ContainsFunc(r[from:to], func(v any) bool { return v != nil }) {
				return nil // no label of this set counts on the item
			}
			s.rows++
			return fn(r)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// dropEmpty removes a long config's file when no row was written (every
// label of its sets was one the asked-when rule drops).
func (e *exporter) dropEmpty(dir string, c *hfConfig) error {
	e.res.Files = slices.DeleteFunc(e.res.Files, func(f string) bool { return f == c.path })
	delete(e.res.Items, c.name)
	return os.Remove(filepath.Join(dir, filepath.FromSlash(c.path)))
}

// byAnnotatorText is the card's account of the long configs: which label
// sets each holds, and how many rows of each.
func (c *card) byAnnotatorText(b *strings.Builder) {
	for _, x := range c.configs {
		if x.byAnnotator == nil {
			continue
		}
		var sets []string
		for _, s := range x.sets {
			if s.rows > 0 {
				sets = append(sets, fmt.Sprintf("%s (%d)", code(s.name), s.rows))
			}
		}
		fmt.Fprintf(b, " `%s` holds every label set of the items of `%s` in long format, one row per item and label set, with that set's labels: %s "+
			"(rows of each); `annotator` says whose labels a row carries, `adjudicated` for the adjudicated labels.", x.name, x.byAnnotator.Config(), strings.Join(sets, ", "))
	}
}

// hasByAnnotator is true when the export holds long configs.
func (c *card) hasByAnnotator() bool {
	return slices.ContainsFunc(c.configs, func(x *hfConfig) bool { return x.byAnnotator != nil })
}
