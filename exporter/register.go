package exporter

import (
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// What a kind registered from outside this package (a test package's toy
// kind: internal/toykind) needs of the exporter.

// RegisterBareExport publishes a bare kind (store.RegisterBareKind) as
// config: one "id" column (idDoc says what it is) before the annotator and
// the labels, and the native line {"kind":k,"id":…} the importer's
// RegisterBareNative reads back. docs documents the kind's fields, by name.
func RegisterBareExport(k schema.Kind, config, idDoc string, docs map[string]string) {
	for f, d := range docs {
		fieldDocs[f] = d
	}
	registerExport(kindExport{
		kind: k, config: config,
		base:   []Column{{"id", TypeString, false, idDoc}},
		values: func(it *store.Item) row { return row{it.ExtID} },
		native: func(b []byte, it *store.Item) []byte {
			b = append(b, `{"kind":`...)
			b = appendString(b, string(k))
			b = append(b, `,"id":`...)
			b = appendString(b, it.ExtID)
			return append(b, '}', '\n')
		},
	})
}
