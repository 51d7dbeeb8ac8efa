package toykind

import (
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
// "Kinds" lists them; a bare kind keeps its id alone (no table: a kind of
// the product adds one in a migration, which a test package cannot).

const kindCitation schema.Kind = "citation_check"

const citationOK = "citation_ok"

func init() {
	schema.Register(schema.Spec{Kind: kindCitation, Order: 995, Title: "Citation checks", Noun: "citation check", Annotated: true,
		Fields: []schema.Field{{Name: citationOK, Values: []string{"yes", "no"}, TwoWay: true}}})
	store.Register(citationKind{})
	tally.Register(citationKind{})
	importer.RegisterBareNative(kindCitation, "citation_checks")
	exporter.RegisterBareExport(kindCitation, "citation_checks", "the citation checked",
		map[string]string{citationOK: "does the citation say what it is cited for (`yes`, `no`)"})
	cited := func(it *store.Item) string { return it.ExtID }
	tui.RegisterView(tui.View{Kind: kindCitation, Label: "Citation", Queue: "Citation checks", Noun: "citation check",
		TopLabel: "Citation", PaneTitle: "Cited for", Top: cited})
	adjudicate.RegisterRender(kindCitation, adjudicate.Render{TopLabel: "Citation", Title: "Cited for",
		Top: func(d *store.ReviewDetail) string { return d.ExtID }})
}

// citationKind is the toy's store.Kind and tally.Kind (it counts nothing of
// its own).
type citationKind struct{}

func (citationKind) Kind() schema.Kind { return kindCitation }
func (citationKind) Table() string     { return "" }

// citation is the toy's payload.
type citation struct {
	ItemID int64
	ID     string
}

func (citationKind) Payloads(q store.Querier, ids []int64) (map[int64]any, error) {
	out := map[int64]any{}
	for _, id := range ids {
		c := &citation{ItemID: id}
		if err := q.QueryRow("SELECT ext_id FROM items WHERE id = ?", id).Scan(&c.ID); err != nil {
			return nil, err
		}
		out[id] = c
	}
	return out, nil
}
