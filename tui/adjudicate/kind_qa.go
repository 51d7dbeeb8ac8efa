package adjudicate

import (
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// QA pairs and their claims on the review screens: a pair's question and
// answer over its context; a claim (with the pair it comes from) over the
// answer, words shared with the claim highlighted, the question and the
// context.

func init() {
	registerRender(schema.KindQA, kindRender{
		top: func(st ui.Styles, d *store.ReviewDetail, w int) []string { return ui.QATop(st, d.QA, w) },
		pane: func(st ui.Styles, d *store.ReviewDetail, w int) []string {
			return ui.ContextLines(st, d.QA.Contexts, w, nil)
		},
		title: func(d *store.ReviewDetail) string {
			if n := len(d.QA.Contexts); n > 1 {
				return "Context (" + itoa(n) + " units)"
			}
			return "Context"
		},
	})
	registerRender(schema.KindClaim, kindRender{top: claimTop, pane: claimPane,
		title: func(*store.ReviewDetail) string { return "Answer and context" }})
}

func claimTop(st ui.Styles, d *store.ReviewDetail, w int) []string {
	title := "Claim " + ui.SanitizeLine(d.ExtID) + " of " + ui.SanitizeLine(d.QA.ID)
	if d.Claim.Origin == store.OriginAnnotator {
		title += " (added by " + ui.SanitizeLine(d.Claim.AddedBy) + ")"
	}
	out := []string{st.Label.Render(ui.Truncate(title, w))}
	return append(out, ui.ClaimText(st, d.Claim, w)...)
}

func claimPane(st ui.Styles, d *store.ReviewDetail, w int) []string {
	words := ui.ClaimWords(d.Claim)
	out := ui.HighlightedAnswer(st, d.QA.Answer, words, w)
	out = append(out, st.Dim.Render(ui.Truncate("Question: "+ui.SanitizeLine(d.QA.Question), w)), "")
	return append(out, ui.ContextLines(st, d.QA.Contexts, w, words)...)
}
