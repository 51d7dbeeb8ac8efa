package tui

import (
	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// The query screen (CanLegalRAGBench): the question with its persona,
// jurisdiction and legal issue; the pane says where it comes from. One
// field, query_validity (y/n).

func init() {
	Register(queryKind{})
}

type queryKind struct{}

func (queryKind) Kind() schema.Kind { return schema.KindQuery }

func (queryKind) Names() Names {
	return Names{Label: lang.Key("Query"), Queue: lang.Key("Queries"), Noun: lang.Key("query")}
}

func (queryKind) Top(dr Drawing, w int) []string {
	return dr.Labelled(dr.st.Lang.Sprintf("Query"), queryOf(dr.d).Text, w)
}

func (queryKind) Pane(dr Drawing, w int) []string { return ui.QueryAbout(dr.st, queryOf(dr.d), w) }

func (queryKind) PaneTitle(dr Drawing) string { return dr.st.Lang.Sprintf("About the query") }

// queryOf is the query on screen (empty when the item is not one).
func queryOf(d *itemData) *store.Query {
	if d.view != nil {
		if q, ok := d.view.Item.Payload.(*store.Query); ok {
			return q
		}
	}
	return &store.Query{}
}
