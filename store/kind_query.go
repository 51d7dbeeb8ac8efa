package store

import (
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// The query kind's rows: queries.

// Query is a legal question of a retrieval benchmark (CanLegalRAGBench).
type Query struct {
	ID           string
	Source       string // "" : none
	Text         string
	Persona      string // lay | professional
	Jurisdiction string // e.g. ON, BC, AB
	Issue        string
	SeedDoc      string // the seed document's id
	SeedGroup    string // the variations of one seed share it
	Extra        string // unknown keys of the input, as a JSON object
	// Filled on read.
	ItemID int64
}

// queryKind is the store's query: its table queries (migration 0003), read
// by loadQueries, written by PutQuery.
type queryKind struct{}

func init() { Register(queryKind{}) }

func (queryKind) Kind() schema.Kind { return schema.KindQuery }
func (queryKind) Table() string     { return "queries" }

func (queryKind) Payloads(q Querier, ids []int64) (map[int64]any, error) { return loadQueries(q, ids) }

func (queryKind) Attrs() ([]string, string) {
	return []string{tally.AttrPersona, tally.AttrJurisdiction, tally.AttrIssue},
		"SELECT item_id, persona, jurisdiction, issue FROM queries WHERE item_id IN (SELECT value FROM json_each(?))"
}

// PutQuery adds (or, with update, replaces) a query. hash identifies its content.
func (t *Tx) PutQuery(q Query, hash, file string, update bool) (int64, PutResult, error) {
	var src int64
	if q.Source != "" {
		var err error
		if src, err = t.Source(q.Source, "", ""); err != nil {
			return 0, 0, err
		}
	}
	id, res, err := t.PutItem(schema.KindQuery, q.ID, src, 0, hash, file, update)
	if err != nil || res == Unchanged {
		return id, res, err
	}
	_, err = t.tx.Exec(`INSERT OR REPLACE INTO queries(item_id,text,persona,jurisdiction,issue,seed_doc,seed_group,extra) VALUES (?,?,?,?,?,?,?,?)`,
		id, q.Text, q.Persona, q.Jurisdiction, q.Issue, q.SeedDoc, q.SeedGroup, orEmptyObject(q.Extra))
	return id, res, err
}

func orEmptyObject(s string) string {
	if s == "" {
		return "{}"
	}
	return s
}

func loadQueries(q querier, ids []int64) (map[int64]any, error) {
	out := map[int64]any{}
	err := eachRow(q, `SELECT i.id, i.ext_id, COALESCE(src.name,''), x.text, x.persona, x.jurisdiction, x.issue, x.seed_doc, x.seed_group, x.extra
		FROM items i JOIN queries x ON x.item_id=i.id LEFT JOIN sources src ON src.id=i.source_id
		WHERE i.id IN (SELECT value FROM json_each(?))`, []any{jsonInts(ids)}, func(sc func(...any) error) error {
		v := &Query{}
		if err := sc(&v.ItemID, &v.ID, &v.Source, &v.Text, &v.Persona, &v.Jurisdiction, &v.Issue, &v.SeedDoc, &v.SeedGroup, &v.Extra); err != nil {
			return err
		}
		out[v.ItemID] = v
		return nil
	})
	return out, err
}

func (queryKind) SearchSQL() string { return `(SELECT text FROM queries WHERE item_id = %[1]s)` }
func (queryKind) SampleSQL() string { return queryKind{}.SearchSQL() }

// LanguageSQL: a query's language is the "language" key kept with it.
func (queryKind) LanguageSQL() string {
	return `(SELECT CASE WHEN json_valid(extra) THEN json_extract(extra, '$.language') END FROM queries WHERE item_id = %[1]s)`
}
