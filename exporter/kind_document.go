package exporter

import (
	"strconv"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Documents (cases, statutes): config "documents", native lines {"kind":"document"}.

func init() {
	Register(documentKind{})
}

// documentKind publishes the documents.
type documentKind struct{}

func (documentKind) Kind() schema.Kind { return schema.KindDocument }

func (documentKind) Config() string { return "documents" }

func (documentKind) facts() cardFacts {
	return cardFacts{tasks: []string{"text-retrieval"}, paper: &originCanLegal}
}

func (documentKind) Columns() []Column { return documentColumns }

func (documentKind) Values(it *store.Item) []any {
	d := it.Payload.(*store.Document)
	var year any
	if d.Year != 0 {
		year = d.Year
	}
	ids, spans := make([]string, len(d.Chunks)), make([]string, len(d.Chunks))
	for i, c := range d.Chunks {
		ids[i] = c.ID
		spans[i] = strconv.Itoa(c.Start) + "-" + strconv.Itoa(c.End)
	}
	var text any = d.Text
	if d.Absent() {
		text = nil
	}
	return row{d.ID, d.Source, d.Title, d.Citation, d.Court, d.Jurisdiction, year, text, ids, spans, d.URL, d.License}
}

func (documentKind) Native(b []byte, it *store.Item) []byte {
	d := it.Payload.(*store.Document)
	b = append(b, `{"kind":"document","id":`...)
	b = appendString(b, d.ID)
	b = appendFields(b, [2]string{"source", d.Source}, [2]string{"title", d.Title}, [2]string{"citation", d.Citation},
		[2]string{"court", d.Court}, [2]string{"jurisdiction", d.Jurisdiction})
	b = appendFields(b, [2]string{"url", d.URL}, [2]string{"license", d.License})
	if d.Year != 0 {
		b = append(b, `,"year":`...)
		b = strconv.AppendInt(b, int64(d.Year), 10)
	}
	if d.Absent() {
		b = append(b, `,"absent":true`...)
	} else {
		b = append(b, `,"text":`...)
		b = appendString(b, d.Text)
	}
	if len(d.Chunks) > 0 {
		b = append(b, `,"chunks":[`...)
		for i, c := range d.Chunks {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"id":`...)
			b = appendString(b, c.ID)
			b = append(b, `,"start":`...)
			b = strconv.AppendInt(b, int64(c.Start), 10)
			b = append(b, `,"end":`...)
			b = strconv.AppendInt(b, int64(c.End), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b, _ = appendExtra(b, d.Extra)
	return append(b, '}', '\n')
}

var documentColumns = []Column{
	{"id", TypeString, false, "document id"},
	{"source", TypeString, false, "dataset the document comes from (empty when none)"},
	{"title", TypeString, false, "title (empty when not recorded)"},
	{"citation", TypeString, false, "neutral citation, e.g. 2019 ONCA 123"},
	{"court", TypeString, false, "court (empty when not recorded)"},
	{"jurisdiction", TypeString, false, "province or territory"},
	{"year", TypeInt, true, "year of the decision; null when unknown"},
	{"text", TypeString, true, "the document's text; null for an absent document (one a gold citation names but the collection does not hold: relevant, retrieved by no run)"},
	{"chunk_ids", TypeStrings, false, "ids of the document's chunks (spans retrieval runs may name), in order"},
	{"chunk_spans", TypeStrings, false, "each chunk's byte offsets in text, `start-end` (end exclusive), in the order of chunk_ids"},
	{"url", TypeString, false, "where the document was published (empty when not recorded)"},
	{"license", TypeString, false, "the licence it was published under, or a notice (empty when not recorded)"},
}
