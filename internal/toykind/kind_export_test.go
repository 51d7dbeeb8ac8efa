package toykind

import (
	"github.com/annotate-dev/annotate/exporter"
	"github.com/annotate-dev/annotate/internal/jsontext"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// citationExport publishes the toy kind as config citation_checks: one row
// per item (exporter.ItemValues), its native line {"kind":…,"id":…,"cited":…}
// as the importer reads it back (exporter.NativeLine), its field documented
// (exporter.FieldDocs).
type citationExport struct{}

func (citationExport) Kind() schema.Kind { return kindCitation }

func (citationExport) Config() string { return "citation_checks" }

func (citationExport) Columns() []exporter.Column {
	return []exporter.Column{{Key: "id", Type: exporter.TypeString, Doc: "the citation checked"},
		{Key: "cited", Type: exporter.TypeString, Doc: "the text the citation is cited for (empty: not given)"}}
}

func (citationExport) Values(it *store.Item) []any {
	c, cited := citationOf(it.Payload)
	return []any{c, cited}
}

func (citationExport) Native(b []byte, it *store.Item) []byte {
	c, cited := citationOf(it.Payload)
	b = append(b, `{"kind":`...)
	b = jsontext.AppendStringNoHTML(b, string(kindCitation))
	b = append(b, `,"id":`...)
	b = jsontext.AppendStringNoHTML(b, c)
	b = append(b, `,"cited":`...)
	b = jsontext.AppendStringNoHTML(b, cited)
	return append(b, '}', '\n')
}

func (citationExport) FieldDocs() map[string]string {
	return map[string]string{citationOK: "does the citation say what it is cited for (`yes`, `no`)"}
}
