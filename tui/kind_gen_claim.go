package tui

import (
	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// The generated-claim screen (CanLegalRAGBench §5, docs/keys.md "generated
// claim"): the claim on top; beside it, in the pane, the evidence the
// current field asks about, the words it shares with the claim highlighted:
// the accepted gold answer of the query for accuracy_support, the documents
// the answer used for grounded (both for error_category). y/n answer the two
// fields; then, when the claim is not supported or not grounded, the error
// taxonomy as a checklist (checklist.go). Like every screen it never shows a
// system's name, its condition or the judge's verdicts.

func init() {
	prompts[schema.AccuracySupport] = lang.Key("Does the accepted gold answer support the claim?")
	prompts[schema.Grounded] = lang.Key("Do the documents the answer used support the claim?")
	Register(genClaimKind{})
}

type genClaimKind struct{}

func (genClaimKind) Kind() schema.Kind { return schema.KindGenClaim }

func (genClaimKind) Names() Names {
	return Names{Label: lang.Key("Generated claim"), Queue: lang.Key("Generated claims"), Noun: lang.Key("generated claim")}
}

func (genClaimKind) Top(dr Drawing, w int) []string { return genClaimTop(dr.st, dr.d, w) }

func (genClaimKind) Pane(dr Drawing, w int) []string {
	d := dr.d
	answer := ""
	if d.view != nil && d.view.Parent != nil {
		if a, ok := d.view.Parent.Payload.(*store.GenAnswer); ok {
			answer = a.Answer
		}
	}
	return ui.GenEvidence(dr.st, evidenceOf(d), genClaimOf(d).Text, dr.at.field, answer, w)
}

func (genClaimKind) PaneTitle(dr Drawing) string { return ui.GenEvidenceTitle(dr.st.Lang, dr.at.field) }

func genClaimOf(d *itemData) *store.GenClaim {
	if d.view != nil {
		if c, ok := d.view.Item.Payload.(*store.GenClaim); ok {
			return c
		}
	}
	return &store.GenClaim{}
}

// evidenceOf is the claim's evidence, loaded with it (store.ItemView.Aside).
func evidenceOf(d *itemData) *store.GenEvidence {
	if d.view != nil {
		if ev, ok := d.view.Aside.(*store.GenEvidence); ok {
			return ev
		}
	}
	return &store.GenEvidence{}
}

// genClaimTop: where the claim comes from, then the claim.
func genClaimTop(st ui.Styles, d *itemData, w int) []string {
	c := genClaimOf(d)
	n := 0
	if d.view != nil {
		n = len(d.view.Siblings)
	}
	title := st.Lang.Sprintf("Claim %d of %d of a generated answer to query %s", c.Position, n, ui.SanitizeLine(c.Query))
	out := []string{st.Label.Render(ui.Truncate(title, w))}
	return append(out, ui.WrapStyled(ui.Data(c.Text), nil, w, &st.Subject)...)
}
