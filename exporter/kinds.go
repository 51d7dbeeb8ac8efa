package exporter

import (
	"iter"
	"strings"

	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// How the items of each kind are published. Every kind is a type of its
// own file (kind_*.go) registered in init; most are read through the
// store's one item model (store.ReadTx.ExportItems), while QA pairs and
// claims stream their rows from queries of their own (their rows repeat
// contexts and claim ids: kind_qa.go, kind_claim.go). A kind from outside
// the package (the test kind of internal/toykind) implements the same
// interfaces.

// Kind is how one kind's items are published: its config (the hf config
// and the csv file: "queries") and its own columns (before "annotator" and
// the labels, for a config of one row per item). Its rows are made one of
// three ways, which Register checks: ItemValues fills the columns of each
// item read through the store's item model; a kind of the product may
// instead stream its labelled rows from a query of its own (streamer: QA
// pairs, claims), or have rows that are not one per item (ownRows: the
// relevance kind's judgments, qrels and runs, each a Kind of its own).
//
// Optional behaviour is one of the small interfaces below, found by type
// assertion. The exported ones are what a kind outside the package may
// give; the others reach the exporter's own state (its snapshot, its
// files, the card), so only the product's kinds implement them.
type Kind interface {
	Kind() schema.Kind
	Config() string
	Columns() []Column
}

// ItemValues is a kind of one row per item read through the store's item
// model: Values are the item's values of the kind's columns, in their
// order (string, int, bool, nil for null, []string).
type ItemValues interface {
	Values(it *store.Item) []any
}

// NativeLine is a kind in the native export: Native appends the item's
// line of items.jsonl, as the importer reads it back ({"kind":…}, ending
// in a newline).
type NativeLine interface {
	Native(b []byte, it *store.Item) []byte
}

// FieldDocs is a kind that says what its fields' labels mean, by field:
// the card's and the features' description of its label columns.
type FieldDocs interface {
	FieldDocs() map[string]string
}

// Suggestable is a kind whose labels may be made with a system's
// suggestion: its config gets the suggested_by column when some are
// (suggested.go).
type Suggestable interface {
	Suggestable() bool
}

// ownRows is a config that is not one row per item with the label set's
// labels (kind_relevance.go: every judgment with whose it is; the qrels):
// its rows are its columns only, written by rows. It counts them
// (rowCounter) too.
type ownRows interface {
	rows(e *exporter, fn func(row) error) error
}

// rowCounter counts a config's rows itself (the rows of ownRows, or of
// stream); without it the store counts the kind's items.
type rowCounter interface {
	count(e *exporter) (int, error)
}

// ownLines writes the kind's native lines instead of NativeLine (the
// relevance pairs).
type ownLines interface {
	lines(e *exporter, fn func([]byte) error) error
}

// nestedLines writes the kind's native lines with its children's inside
// them (a QA pair with its claims), after every other kind's lines; it
// records the rows it wrote in Result itself.
type nestedLines interface {
	nested(e *exporter, f *sink) error
}

// itemSource streams the kind's items when they need more than the item
// model holds (a generated claim's verdicts); without it: ExportItems.
type itemSource interface {
	items(x *store.ReadTx, o store.ExportOptions) iter.Seq2[*store.ExportItem, error]
}

// streamer writes the kind's labelled rows (base columns, annotator,
// labels, note) from a query of its own, when the item model is too slow
// for it (a million claims).
type streamer interface {
	stream(e *exporter, l layout, fn func(row) error) error
}

// prodigyTasks gives what a Prodigy task shows of each item among ids (a
// batch) of the kind, by item id, and the input hash that tells it from
// the others (prodigy.go); without it: the item's "text" column, else its
// id.
type prodigyTasks interface {
	prodigyItems(x *store.ReadTx, ids []int64) (map[int64]prodigyItem, error)
}

// labelStudioTasks is what the kind's Label Studio tasks show
// (labelstudio.go): their <Text> tags; without it: its "text" column,
// else its id.
type labelStudioTasks interface {
	lsTexts() []lsText
}

// labelStudioData streams each item's task data itself (labelstudio.go,
// lsKind.data); without it: the item's columns, read through the item
// model.
type labelStudioData interface {
	lsData(e *exporter, fn func(item int64, id string, data map[string]any) error) error
}

// markerFields are marker fields published as label columns (their doc in
// FieldDocs says their values).
type markerFields interface {
	markers() []string
}

// besideParent: the kind's CSV file is written, if only its header,
// whenever its parent's is (claims.csv beside qa.csv).
type besideParent interface {
	besideParent() bool
}

// totalled is a kind whose rows Result reports in a field of its own;
// without it: Items[config].
type totalled interface {
	total(r *Result) *int
}

// introduced is a kind with its sentence of the card's introduction; own
// says the sentence speaks for the config (it is then not listed among the
// others), even when it is empty because a parent's sentence covers it.
type introduced interface {
	intro(c *card, x *hfConfig) (sentence string, own bool)
}

// measured computes, for the exported label set, the report the kind's
// card sections draw from (the QA pairs' Table 1, the claims' extraction
// and verification metrics: measuredOf). It runs while the data files are
// written, once per export with the kind's config in it.
type measured interface {
	measure(e *exporter, rx *store.ReadTx, sel report.Selection) (any, error)
}

// cardWriter is a kind with parts of its own in the card's sections
// (cardUses, cardProtocol, …): cardSections lists them, writeCard writes
// one and reports whether it wrote anything.
type cardWriter interface {
	cardSections() []string
	writeCard(section string, c *card, b *strings.Builder) bool
}

// described is what the card says of the config when it is exported
// (card_facts.go).
type described interface {
	facts() cardFacts
}

// joined is the card's sentence on how the config's rows join those of
// another config, written when both are exported.
type joined interface {
	joins() joinText
}

// joinText: text is written when config with is exported too.
type joinText struct{ with, text string }

// itemsOf streams a kind's items for export.
func (e *exporter) itemsOf(x Kind, o store.ExportOptions) iter.Seq2[*store.ExportItem, error] {
	if src, ok := x.(itemSource); ok {
		return src.items(e.snap, o)
	}
	return e.snap.ExportItems(x.Kind(), o)
}

// layoutOf is the column table of a kind's config.
func layoutOf(x Kind, notes bool) layout {
	if _, ok := x.(ownRows); ok {
		return layout{kind: x.Kind(), cols: x.Columns()}
	}
	return newLayout(x.Kind(), notes)
}

// layoutOf is the column table of a kind's config in this export, with the
// suggested_by column where it belongs.
func (e *exporter) layoutOf(x Kind) (layout, error) {
	l := layoutOf(x, e.o.WithNotes)
	if suggestable(x) {
		l = e.withSuggested(l)
	}
	return l, e.suggestedErr
}

func suggestable(x Kind) bool {
	s, ok := x.(Suggestable)
	return ok && s.Suggestable()
}

func isBesideParent(x Kind) bool {
	p, ok := x.(besideParent)
	return ok && p.besideParent()
}

// rowCount is the number of rows of a kind's config.
func (e *exporter) rowCount(x Kind) (int, error) {
	if c, ok := x.(rowCounter); ok {
		return c.count(e)
	}
	return e.snap.CountItems(x.Kind())
}

// kinds are the registered kinds' configs, in the kinds' order.
var kinds []Kind

// Register adds k's config to every export; configs follow the kinds'
// order (schema.Spec.Order), a kind's in the order it registers them. A
// config registers once.
func Register(k Kind) {
	for _, x := range kinds {
		if x.Config() == k.Config() {
			panic("exporter: config " + k.Config() + " registered twice")
		}
	}
	_, values := k.(ItemValues)
	_, streams := k.(streamer)
	_, own := k.(ownRows)
	if !values && !streams && !own {
		panic("exporter: config " + k.Config() + " makes no rows: it needs Values (ItemValues)")
	}
	if d, ok := k.(FieldDocs); ok {
		for f, doc := range d.FieldDocs() {
			fieldDocs[f] = doc
		}
	}
	kinds = append(kinds, k)
	order := func(k Kind) int { return schema.SpecOf(k.Kind()).Order }
	for i := len(kinds) - 1; i > 0 && order(kinds[i]) < order(kinds[i-1]); i-- {
		kinds[i], kinds[i-1] = kinds[i-1], kinds[i]
	}
}

// exportOf is the config of one row per item of kind k.
func exportOf(k schema.Kind) (Kind, bool) {
	for _, x := range kinds {
		if _, own := x.(ownRows); x.Kind() == k && !own {
			return x, true
		}
	}
	return nil, false
}

var annotatorColumn = Column{"annotator", TypeString, false, "whose labels this row carries: an annotator name, or `adjudicated`"}

// kindRow is the row of a generic kind's item: its own values, whose labels,
// the labels that count, the note.
func (l layout) kindRow(x Kind, it *store.ExportItem, who string) row {
	r := row(x.(ItemValues).Values(it.Item)) // Register saw to it: no ownRows, no streamer
	if schema.SpecOf(x.Kind()).Annotated {
		r = append(r, who)
	}
	r = l.labelValues(r, it.Labels, it.ParentLabels)
	return l.noteValue(r, it.Note)
}

// writeKindRows streams the rows of a generic kind to fn.
func (e *exporter) writeKindRows(x Kind, l layout, fn func(row) error) error {
	if o, ok := x.(ownRows); ok {
		return o.rows(e, fn)
	}
	if s, ok := x.(streamer); ok {
		return s.stream(e, l, fn)
	}
	return each(e, e.itemsOf(x, e.streamOptions(l)), func(it *store.ExportItem) error {
		return fn(l.kindRow(x, it, e.who))
	})
}

// appendFields appends "key":"value" members for non-empty values.
func appendFields(b []byte, kv ...[2]string) []byte {
	for _, p := range kv {
		if p[1] == "" {
			continue
		}
		b = append(b, ',')
		b = appendString(b, p[0])
		b = append(b, ':')
		b = appendString(b, p[1])
	}
	return b
}

// ConfigOf names the hf config (and csv file) of a kind of its own, "" for
// none.
func ConfigOf(k schema.Kind) string {
	if x, ok := exportOf(k); ok {
		return x.Config()
	}
	return ""
}
