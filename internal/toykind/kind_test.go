package toykind

import (
	"encoding/json"

	"github.com/annotate-dev/annotate/exporter"
	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tally"
	"github.com/annotate-dev/annotate/tui"
	"github.com/annotate-dev/annotate/tui/adjudicate"
)

// The toy kind: a citation an annotator checks, one two-way field. Every
// registration a kind makes is here, in the order ARCHITECTURE.md's
// "Kinds" lists them. In the store, the tally and the importer it is a
// type of this package implementing their Kind interfaces, as the kinds
// of the product do: a table of its own (citation_checks, created at Open
// from its TableSchema, as a test package cannot add a migration) holding
// the text the citation is cited for, read into its payload and written
// from its native line's "cited". The export's and the screens' are
// types of kind_export_test.go and kind_screen_test.go, through the same
// interfaces.

const kindCitation schema.Kind = "citation_check"

const citationOK = "citation_ok"

func init() {
	schema.Register(schema.Spec{Kind: kindCitation, Order: 995, Title: "Citation checks", Noun: "citation check", Annotated: true,
		Fields: []schema.Field{{Name: citationOK, Values: []string{"yes", "no"}, TwoWay: true}}})
	store.Register(citationKind{})
	tally.Register(citationKind{})
	importer.Register(citationKind{})
	exporter.Register(citationExport{})
	tui.Register(citationScreen{})
	adjudicate.Register(citationReview{})
}

// citationKind is the toy's store.Kind (with its TableSchema and
// PayloadWriter), tally.Kind (it counts nothing of its own) and
// importer.Kind (a NativeLine, with an HFConfig).
type citationKind struct{}

// citation is the toy's payload.
type citation struct {
	ItemID int64  `json:"-"`
	ID     string `json:"id"`
	Cited  string `json:"cited"` // the text the citation is cited for ("": not given)
}

func (citationKind) Kind() schema.Kind { return kindCitation }
func (citationKind) Table() string     { return "citation_checks" }

func (citationKind) TableSchema() string {
	return `CREATE TABLE citation_checks (
		item_id INTEGER PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
		cited   TEXT NOT NULL DEFAULT ''
	)`
}

func (citationKind) Payloads(q store.Querier, ids []int64) (map[int64]any, error) {
	rows, err := q.Query(`SELECT i.id, i.ext_id, COALESCE(c.cited, '') FROM items i LEFT JOIN citation_checks c ON c.item_id = i.id
		WHERE i.id IN (SELECT value FROM json_each(?))`, jsonInts(ids))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]any{}
	for rows.Next() {
		c := &citation{}
		if err := rows.Scan(&c.ItemID, &c.ID, &c.Cited); err != nil {
			return nil, err
		}
		out[c.ItemID] = c
	}
	return out, rows.Err()
}

func (citationKind) PutPayload(w store.Writer, item int64, payload any) error {
	_, err := w.Exec("INSERT OR REPLACE INTO citation_checks(item_id, cited) VALUES (?, ?)", item, payload.(citation).Cited)
	return err
}

// ReadLine reads {"kind":"citation_check","id":…,"cited":…,"labels":{…}}.
func (citationKind) ReadLine(l *importer.Line) (*importer.Item, error) {
	id, err := l.ID("id")
	if err != nil {
		return nil, err
	}
	cited, err := l.String("cited")
	if err != nil {
		return nil, err
	}
	if err := l.Labels(kindCitation, id); err != nil {
		return nil, err
	}
	return l.Item(kindCitation, id, citation{ID: id, Cited: cited}), nil
}

func (citationKind) HFConfig() string { return "citation_checks" }

func jsonInts(ids []int64) string {
	b, _ := json.Marshal(ids)
	return string(b)
}
