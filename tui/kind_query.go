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
	registerKind(kindView{
		kind: schema.KindQuery, label: lang.Key("Query"), queue: lang.Key("Queries"), noun: lang.Key("query"),
		top: func(st ui.Styles, d *itemData, _ step, w int) []string {
			q := queryOf(d)
			return ui.Labelled(st, st.Lang.Sprintf("Query"), ui.Data(q.Text), w, nil, nil)
		},
		pane: func(st ui.Styles, d *itemData, _ step, w int) []string {
			return ui.QueryAbout(st, queryOf(d), w)
		},
		paneTitle: func(l *lang.Printer, _ *itemData, _ step) string { return l.Sprintf("About the query") },
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
