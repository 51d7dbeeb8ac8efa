package exporter

import (
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Queries (CanLegalRAGBench): config "queries", native lines {"kind":"query"}.

func init() {
	registerExport(kindExport{
		kind: schema.KindQuery, config: "queries",
		base: []column{
			{"id", tString, false, "query id"},
			{"source", tString, false, "dataset the query comes from (empty when none)"},
			{"text", tString, false, "the legal question"},
			{"query_persona", tString, false, "who asks it: `lay` or `professional` (empty when not recorded)"},
			{"jurisdiction", tString, false, "province or territory, e.g. ON, BC, AB"},
			{"issue", tString, false, "legal issue (empty when not recorded)"},
			{"seed_doc", tString, false, "id of the document the query was written from"},
			{"seed_group", tString, false, "the variations of one seed share it"},
		},
		values: func(it *store.Item) row {
			q := it.Payload.(*store.Query)
			return row{q.ID, q.Source, q.Text, q.Persona, q.Jurisdiction, q.Issue, q.SeedDoc, q.SeedGroup}
		},
		native: func(b []byte, it *store.Item) []byte {
			q := it.Payload.(*store.Query)
			b = append(b, `{"kind":"query","id":`...)
			b = appendString(b, q.ID)
			b = appendFields(b, [2]string{"source", q.Source}, [2]string{"text", q.Text}, [2]string{"persona", q.Persona},
				[2]string{"jurisdiction", q.Jurisdiction}, [2]string{"issue", q.Issue}, [2]string{"seed_doc", q.SeedDoc},
				[2]string{"seed_group", q.SeedGroup})
			b, _ = appendExtra(b, q.Extra)
			return append(b, '}', '\n')
		},
	})
}
