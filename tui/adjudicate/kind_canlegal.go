package adjudicate

import (
	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// CanLegalRAGBench items on the review screens, drawn as the annotators saw
// them: a query with what is known about it; a relevance judgment's query
// over its document (the query's words highlighted; never the run, rank or
// score that brought it); a generated claim over its gold answer and the
// documents its answer used.

func init() {
	registerRender(schema.KindQuery, kindRender{
		top: func(st ui.Styles, d *store.ReviewDetail, w int) []string {
			return ui.Labelled(st, st.Lang.Sprintf("Query"), ui.Data(queryIn(d).Text), w, nil, nil)
		},
		pane:  func(st ui.Styles, d *store.ReviewDetail, w int) []string { return ui.QueryAbout(st, queryIn(d), w) },
		title: func(l *lang.Printer, _ *store.ReviewDetail) string { return l.Sprintf("About the query") },
	})
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
	registerRender(schema.KindGenClaim, kindRender{
		top: func(st ui.Styles, d *store.ReviewDetail, w int) []string {
			c := genClaimIn(d)
			title := st.Lang.Sprintf("Claim %d of a generated answer to query %s", c.Position, ui.SanitizeLine(c.Query))
			return append([]string{st.Label.Render(ui.Truncate(title, w))}, ui.WrapStyled(ui.Data(c.Text), nil, w, &st.Subject)...)
		},
		pane: func(st ui.Styles, d *store.ReviewDetail, w int) []string {
			ev, _ := d.Aside.(*store.GenEvidence)
			return ui.GenEvidence(st, ev, genClaimIn(d).Text, "", "", w)
		},
		title: func(l *lang.Printer, _ *store.ReviewDetail) string { return ui.GenEvidenceTitle(l, "") },
	})
}

func queryIn(d *store.ReviewDetail) *store.Query {
	if q, ok := d.Payload.(*store.Query); ok {
		return q
	}
	return &store.Query{}
}

func relevanceIn(d *store.ReviewDetail) *store.Relevance {
	if r, ok := d.Payload.(*store.Relevance); ok && r.Query != nil && r.Document != nil {
		return r
	}
	return &store.Relevance{Query: &store.Query{}, Document: &store.Document{}}
}

func genClaimIn(d *store.ReviewDetail) *store.GenClaim {
	if c, ok := d.Payload.(*store.GenClaim); ok {
		return c
	}
	return &store.GenClaim{}
}
