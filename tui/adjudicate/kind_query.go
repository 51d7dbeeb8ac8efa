package adjudicate

import (
	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// A query on the review screens, drawn as the annotators saw it: its text
// over what is known about it.

func init() {
	registerRender(schema.KindQuery, kindRender{
		top: func(st ui.Styles, d *store.ReviewDetail, w int) []string {
			return ui.Labelled(st, st.Lang.Sprintf("Query"), ui.Data(queryIn(d).Text), w, nil, nil)
		},
		pane:  func(st ui.Styles, d *store.ReviewDetail, w int) []string { return ui.QueryAbout(st, queryIn(d), w) },
		title: func(l *lang.Printer, _ *store.ReviewDetail) string { return l.Sprintf("About the query") },
	})
}

func queryIn(d *store.ReviewDetail) *store.Query {
	if q, ok := d.Payload.(*store.Query); ok {
		return q
	}
	return &store.Query{}
}
