package tui

import (
	"strings"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// The generated-claim screen (CanLegalRAGBench §5, DESIGN.md "Gen-claim
// screen"): the claim on top; beside it, in the pane, the evidence the
// current field asks about, the words it shares with the claim highlighted:
// the accepted gold answer of the query for accuracy_support, the documents
// the answer used for grounded (both for error_category). y/n answer the two
// fields; then, when the claim is not supported or not grounded, the error
// taxonomy as a checklist (checklist.go). Like every screen it never shows a
// system's name, its condition or the judge's verdicts.

func init() {
	prompts[schema.AccuracySupport] = "Does the accepted gold answer support the claim?"
	prompts[schema.Grounded] = "Do the documents the answer used support the claim?"
	registerKind(kindView{
		kind: schema.KindGenClaim, label: "Generated claim", queue: "Generated claims", noun: "generated claim",
		top:  genClaimTop,
		pane: genClaimPane,
		paneTitle: func(d *itemData, at step) string {
			switch at.field {
			case schema.AccuracySupport:
				return "Accepted gold answer"
			case schema.Grounded:
				return "Documents the answer used"
			}
			return "Gold answer and documents"
		},
		load: func(s *store.Store, _ string, d *itemData) error {
			ev, err := s.GenEvidenceOf(d.ref.ItemID)
			d.extra = ev
			return err
		},
	})
}

func genClaimOf(d *itemData) *store.GenClaim {
	if d.view != nil {
		if c, ok := d.view.Item.Payload.(*store.GenClaim); ok {
			return c
		}
	}
	return &store.GenClaim{}
}

func evidenceOf(d *itemData) *store.GenEvidence {
	if ev, ok := d.extra.(*store.GenEvidence); ok && ev != nil {
		return ev
	}
	return &store.GenEvidence{}
}

// genClaimTop: where the claim comes from, then the claim.
func genClaimTop(st ui.Styles, d *itemData, _ step, w int) []string {
	c := genClaimOf(d)
	n := 0
	if d.view != nil {
		n = len(d.view.Siblings)
	}
	title := "Claim " + itoa(c.Position) + " of " + itoa(n) + " of a generated answer to query " + ui.SanitizeLine(c.Query)
	out := []string{st.Label.Render(ui.Truncate(title, w))}
	return append(out, ui.WrapStyled(ui.Sanitize(c.Text), nil, w, &st.Subject)...)
}

// genClaimPane: the evidence of the field asked, then the query and the
// whole generated answer, for context.
func genClaimPane(st ui.Styles, d *itemData, at step, w int) []string {
	c := genClaimOf(d)
	ev := evidenceOf(d)
	words := ui.ClaimWords(store.Claim{Text: c.Text})
	var out []string
	gold := func() {
		if ev.Gold == nil {
			out = append(out, ui.Wrap("No accepted gold answer for this query yet: the lead accepts gold answers first (annotate review --kind answer_task). s skips the claim; it stays in the queue.", w)...)
			return
		}
		text := ui.Sanitize(ev.Gold.Text)
		out = append(out, ui.WrapStyled(text, ui.HighlightSpans(text, words, st.Highlight), w, nil)...)
		if len(ev.Gold.Citations) > 0 {
			out = append(out, st.Dim.Render(ui.Truncate("Cites: "+ui.SanitizeLine(strings.Join(ev.Gold.Citations, "; ")), w)))
		}
	}
	docs := func() {
		if len(ev.Documents) == 0 && len(ev.Missing) == 0 {
			out = append(out, st.Dim.Render(ui.Truncate("The answer names no document.", w)))
		}
		for i, doc := range ev.Documents {
			if i > 0 {
				out = append(out, "")
			}
			head := "¶ " + ui.SanitizeLine(doc.ID)
			for _, v := range []string{doc.Title, doc.Citation} {
				if v != "" {
					head += " · " + ui.SanitizeLine(v)
				}
			}
			out = append(out, st.Dim.Render(ui.Truncate(head, w)))
			text := ui.Sanitize(doc.Text)
			out = append(out, ui.WrapStyled(text, ui.HighlightSpans(text, words, st.Highlight), w, nil)...)
		}
		if len(ev.Missing) > 0 {
			out = append(out, "", st.Dim.Render(ui.Truncate("Not in the database: "+ui.SanitizeLine(strings.Join(ev.Missing, ", ")), w)))
		}
	}
	switch at.field {
	case schema.AccuracySupport:
		gold()
	case schema.Grounded:
		docs()
	default:
		out = append(out, st.Label.Render("Gold answer"))
		gold()
		out = append(out, "", st.Label.Render("Documents"))
		docs()
	}
	if d.view != nil && d.view.Parent != nil {
		if a, ok := d.view.Parent.Payload.(*store.GenAnswer); ok {
			out = append(out, "", st.Dim.Render(ui.Truncate("The generated answer:", w)))
			out = append(out, ui.WrapStyled(ui.Sanitize(a.Answer), nil, w, &st.Dim)...)
		}
	}
	return out
}
