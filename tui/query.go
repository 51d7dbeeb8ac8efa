package tui

import (
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// The query screen (CanLegalRAGBench): the question with its persona,
// jurisdiction and legal issue; the pane says where it comes from. One
// field, query_validity (y/n).

func init() {
	registerKind(kindView{
		kind: schema.KindQuery, label: "Query", queue: "Queries", noun: "query",
		top: func(st ui.Styles, d *itemData, _ step, w int) []string {
			q := queryOf(d)
			return ui.Labelled(st, "Query", ui.Data(q.Text), w, nil, nil)
		},
		pane: func(st ui.Styles, d *itemData, _ step, w int) []string {
			return ui.QueryAbout(st, queryOf(d), w)
		},
		paneTitle: func(*itemData, step) string { return "About the query" },
	})
}

// queryOf is the query on screen (empty when the item is not one).
func queryOf(d *itemData) *store.Query {
	if d.view != nil {
		if q, ok := d.view.Item.Payload.(*store.Query); ok {
			return q
		}
	}
	return &store.Query{}
}
