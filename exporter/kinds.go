package exporter

import (
	"iter"
	"strings"

	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// How the items of each kind are published. Every kind registers its
// columns and lines from its own file (kind_*.go); most are read through the
// store's one item model (store.ReadTx.ExportItems), while QA pairs and
// claims stream their rows from queries of their own (their rows repeat
// contexts and claim ids: kind_qa.go, kind_claim.go).

// kindExport is how one kind is published.
type kindExport struct {
	// suggestable: its labels may be made with a system's suggestion, so
	// its config gets the suggested_by column when some are (suggested.go).
	suggestable bool
	kind        schema.Kind
	config      string   // the hf config and the csv file: "queries"
	base        []Column // the item's own columns, before "annotator" and the labels
	// values fills the base columns of an item.
	values func(it *store.Item) row
	// native appends the item's line of items.jsonl, as the importer reads
	// it back ({"kind":…}); nil: not in the native export.
	native func(b []byte, it *store.Item) []byte

	// Configs that are not one row per item with the label set's labels
	// (kind_relevance.go: every judgment with whose it is; the qrels) set
	// rows and count: the rows are then base's columns only. lines, when
	// set, writes the kind's native lines instead of native.
	rows  func(e *exporter, fn func(row) error) error
	count func(e *exporter) (int, error)
	lines func(e *exporter, fn func([]byte) error) error
	// nested writes the kind's native lines with its children's inside
	// them (a QA pair with its claims), after every other kind's lines; it
	// records the rows it wrote in Result itself.
	nested func(e *exporter, f *sink) error
	// items streams the kind's items when they need more than the item
	// model holds (a generated claim's verdicts); nil: ExportItems.
	items func(x *store.ReadTx, o store.ExportOptions) iter.Seq2[*store.ExportItem, error]
	// stream writes the kind's labelled rows (base columns, annotator,
	// labels, note) from a query of its own, when the item model is too
	// slow for it (a million claims); nil: the item model.
	stream func(e *exporter, l layout, fn func(row) error) error
	// prodigyItems gives what a Prodigy task shows of each item among ids
	// (a batch) of the kind, by item id, and the input hash that tells it
	// from the others (prodigy.go); nil: the item's "text" column, else its
	// id.
	prodigyItems func(x *store.ReadTx, ids []int64) (map[int64]prodigyItem, error)
	// labelStudio is what the kind's Label Studio tasks show
	// (labelstudio.go); nil: its "text" column, else its id.
	labelStudio *lsKind
	// markers are marker fields published as label columns (their doc in
	// fieldDocs says their values).
	markers []string
	// withParent: the kind's CSV file is written, if only its header,
	// whenever its parent's is (claims.csv beside qa.csv).
	withParent bool
	// total is where Result reports the kind's rows; nil: Items[config].
	total func(r *Result) *int
	// intro is the kind's sentence of the card's introduction; own says
	// the sentence speaks for the config (it is then not listed among the
	// others), even when it is empty because a parent's sentence covers it.
	intro func(c *card, x *hfConfig) (sentence string, own bool)
	// measure computes, for the exported label set, the report the kind's
	// card sections draw from (the QA pairs' Table 1, the claims'
	// extraction and verification metrics: measuredOf); nil: none. It runs
	// while the data files are written, once per export with the kind's
	// config in it.
	measure func(e *exporter, rx *store.ReadTx, sel report.Selection) (any, error)
	// card writes the kind's own part of a card section (cardUses,
	// cardProtocol, …); it reports whether it wrote anything.
	card map[string]func(c *card, b *strings.Builder) bool
	// facts is what the card says of the config when it is exported
	// (card_facts.go).
	facts cardFacts
	// joins is the card's sentence on how the config's rows join those of
	// config with, written when both are exported.
	joins joinText
}

// joinText: text is written when config with is exported too.
type joinText struct{ with, text string }

// itemsOf streams a kind's items for export.
func (e *exporter) itemsOf(x kindExport, o store.ExportOptions) iter.Seq2[*store.ExportItem, error] {
	if x.items != nil {
		return x.items(e.snap, o)
	}
	return e.snap.ExportItems(x.kind, o)
}

// layoutOf is the column table of a kind's config.
func layoutOf(x kindExport, notes bool) layout {
	if x.rows != nil {
		return layout{kind: x.kind, cols: x.base}
	}
	return newLayout(x.kind, notes)
}

// layoutOf is the column table of a kind's config in this export, with the
// suggested_by column where it belongs.
func (e *exporter) layoutOf(x kindExport) (layout, error) {
	l := layoutOf(x, e.o.WithNotes)
	if x.suggestable {
		l = e.withSuggested(l)
	}
	return l, e.suggestedErr
}

// rowCount is the number of rows of a kind's config.
func (x kindExport) rowCount(e *exporter) (int, error) {
	if x.count != nil {
		return x.count(e)
	}
	return e.snap.CountItems(x.kind)
}

var kindExports []kindExport

// registerExport is called from each kind's file; configs follow the kinds' order.
func registerExport(k kindExport) {
	kindExports = append(kindExports, k)
	order := func(k schema.Kind) int { return schema.SpecOf(k).Order }
	for i := len(kindExports) - 1; i > 0 && order(kindExports[i].kind) < order(kindExports[i-1].kind); i-- {
		kindExports[i], kindExports[i-1] = kindExports[i-1], kindExports[i]
	}
}

func exportOf(k schema.Kind) (kindExport, bool) {
	for _, x := range kindExports {
		if x.kind == k && x.rows == nil {
			return x, true
		}
	}
	return kindExport{}, false
}

var annotatorColumn = Column{"annotator", TypeString, false, "whose labels this row carries: an annotator name, or `adjudicated`"}

// kindRow is the row of a generic kind's item: its own values, whose labels,
// the labels that count, the note.
func (l layout) kindRow(x kindExport, it *store.ExportItem, who string) row {
	r := x.values(it.Item)
	if schema.SpecOf(x.kind).Annotated {
		r = append(r, who)
	}
	r = l.labelValues(r, it.Labels, it.ParentLabels)
	return l.noteValue(r, it.Note)
}

// writeKindRows streams the rows of a generic kind to fn.
func (e *exporter) writeKindRows(x kindExport, l layout, fn func(row) error) error {
	if x.rows != nil {
		return x.rows(e, fn)
	}
	if x.stream != nil {
		return x.stream(e, l, fn)
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
	x, _ := exportOf(k)
	return x.config
}
