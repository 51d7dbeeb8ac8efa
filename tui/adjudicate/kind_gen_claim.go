package adjudicate

import (
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// A generated claim on the review screens, drawn as the annotators saw it:
// the claim over its gold answer and the documents its answer used.

func init() { Register(genClaimKind{}) }

type genClaimKind struct{}

func (genClaimKind) Kind() schema.Kind { return schema.KindGenClaim }

func (genClaimKind) Top(dr Drawing, w int) []string {
	st, c := dr.st, genClaimIn(dr.d)
	title := st.Lang.Sprintf("Claim %d of a generated answer to query %s", c.Position, ui.SanitizeLine(c.Query))
	return append([]string{st.Label.Render(ui.Truncate(title, w))}, ui.WrapStyled(ui.Data(c.Text), nil, w, &st.Subject)...)
}

func (genClaimKind) Pane(dr Drawing, w int) []string {
	ev, _ := dr.d.Aside.(*store.GenEvidence)
	return ui.GenEvidence(dr.st, ev, genClaimIn(dr.d).Text, "", "", w)
}

func (genClaimKind) PaneTitle(dr Drawing) string { return ui.GenEvidenceTitle(dr.st.Lang, "") }

func genClaimIn(d *store.AdjudicationDetail) *store.GenClaim {
	if c, ok := d.Payload.(*store.GenClaim); ok {
		return c
	}
	return &store.GenClaim{}
}
