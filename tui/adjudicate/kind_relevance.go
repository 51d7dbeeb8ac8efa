package adjudicate

import (
	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// A relevance judgment on the review screens, drawn as the annotators saw
// it: its query over its document, the query's words highlighted; never the
// run, rank or score that brought it.

func init() {
	registerRender(schema.KindRelevance, kindRender{
		top: func(st ui.Styles, d *store.ReviewDetail, w int) []string {
			return ui.QueryTop(st, relevanceIn(d).Query, w)
		},
		pane: func(st ui.Styles, d *store.ReviewDetail, w int) []string {
			r := relevanceIn(d)
			return ui.DocumentLines(st, r.Document, ui.SignificantWords(r.Query.Text), w)
		},
		title: func(l *lang.Printer, d *store.ReviewDetail) string {
			return l.Sprintf("Document") + " " + ui.SanitizeLine(relevanceIn(d).Document.ID)
		},
	})
}

func relevanceIn(d *store.ReviewDetail) *store.Relevance {
	if r, ok := d.Payload.(*store.Relevance); ok && r.Query != nil && r.Document != nil {
		return r
	}
	return &store.Relevance{Query: &store.Query{}, Document: &store.Document{}}
}
