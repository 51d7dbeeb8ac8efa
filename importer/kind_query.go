package importer

import (
	"slices"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Native JSONL lines of queries (docs/formats.md, native):
// {"kind":"query","id":…,"text":…,"persona":"lay"|"professional",
//  "jurisdiction":"ON","issue":…,"seed_doc":…,"seed_group":…,"labels":{…}}

// queryPersonas are the query personas of CanLegalRAGBench.
var queryPersonas = []string{"lay", "professional"}

// queryKind reads queries from their native lines and from the queries
// config of an hf export.
type queryKind struct{}

func init() { Register(queryKind{}) }

func (queryKind) Kind() schema.Kind               { return schema.KindQuery }
func (queryKind) ReadLine(l *Line) (*Item, error) { return parseQuery(l.f, l.r) }
func (queryKind) HFConfig() string                { return "queries" }
func (queryKind) HFColumns() map[string]string    { return map[string]string{"query_persona": "persona"} }

func parseQuery(f *fileData, r *rec) (*itemRec, error) {
	var q store.Query
	var err error
	if q.ID, err = r.needID("id"); err != nil {
		return nil, err
	}
	if q.Text, err = r.need("text"); err != nil {
		return nil, err
	}
	for _, p := range []struct {
		key string
		dst *string
	}{{"persona", &q.Persona}, {"jurisdiction", &q.Jurisdiction}, {"issue", &q.Issue}, {"seed_doc", &q.SeedDoc},
		{"seed_group", &q.SeedGroup}, {"source", &q.Source}} {
		if *p.dst, err = r.str(p.key); err != nil {
			return nil, err
		}
	}
	if q.Persona != "" && !slices.Contains(queryPersonas, q.Persona) {
		return nil, r.errf("persona", "want \"lay\" or \"professional\", got %q", q.Persona)
	}
	if err := printable(r.at, "source", "the source name", q.Source); err != nil {
		return nil, err
	}
	if q.Extra, err = f.itemRest(r, q.ID, schema.KindQuery); err != nil {
		return nil, err
	}
	return &itemRec{idField: "id", kind: schema.KindQuery, id: q.ID, hash: contentHash(q),
		put: func(tx *store.Tx, hash, file string, update bool) (int64, store.PutResult, error) {
			return tx.PutQuery(q, hash, file, update)
		}}, nil
}
