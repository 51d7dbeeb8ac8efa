package adjudicate

import (
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// A relevance judgment on the review screens, drawn as the annotators saw
// it: its query over its document, the query's words highlighted; never the
// run, rank or score that brought it.

func init() { Register(relevanceKind{}) }

type relevanceKind struct{}

func (relevanceKind) Kind() schema.Kind { return schema.KindRelevance }

func (relevanceKind) Top(dr Drawing, w int) []string {
	return ui.QueryTop(dr.st, relevanceIn(dr.d).Query, w)
}

func (relevanceKind) Pane(dr Drawing, w int) []string {
	r := relevanceIn(dr.d)
	return ui.DocumentLines(dr.st, r.Document, ui.SignificantWords(r.Query.Text), w)
}

func (relevanceKind) PaneTitle(dr Drawing) string {
	return dr.st.Lang.Sprintf("Document") + " " + ui.SanitizeLine(relevanceIn(dr.d).Document.ID)
}

func relevanceIn(d *store.AdjudicationDetail) *store.Relevance {
	if r, ok := d.Payload.(*store.Relevance); ok && r.Query != nil && r.Document != nil {
		return r
	}
	return &store.Relevance{Query: &store.Query{}, Document: &store.Document{}}
}
