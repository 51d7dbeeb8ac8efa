package adjudicate

import (
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// A query on the review screens, drawn as the annotators saw it: its text
// over what is known about it.

func init() { Register(queryKind{}) }

type queryKind struct{}

func (queryKind) Kind() schema.Kind { return schema.KindQuery }

func (queryKind) Top(dr Drawing, w int) []string {
	return dr.Labelled(dr.st.Lang.Sprintf("Query"), queryIn(dr.d).Text, w)
}

func (queryKind) Pane(dr Drawing, w int) []string { return ui.QueryAbout(dr.st, queryIn(dr.d), w) }

func (queryKind) PaneTitle(dr Drawing) string { return dr.st.Lang.Sprintf("About the query") }

func queryIn(d *store.AdjudicationDetail) *store.Query {
	if q, ok := d.Payload.(*store.Query); ok {
		return q
	}
	return &store.Query{}
}
