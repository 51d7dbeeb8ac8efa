package adjudicate

import (
	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// A generated claim on the review screens, drawn as the annotators saw it:
// the claim over its gold answer and the documents its answer used.

func init() {
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

func genClaimIn(d *store.ReviewDetail) *store.GenClaim {
	if c, ok := d.Payload.(*store.GenClaim); ok {
		return c
	}
	return &store.GenClaim{}
}
