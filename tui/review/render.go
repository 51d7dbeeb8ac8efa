package review

import (
	"strconv"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// The item as the review screens show it: above the pane (ui.Frame) the
// claim or the QA pair, in the pane the answer and the context.

// itemTop is the item above the pane: a claim (with the pair it comes from),
// or a QA pair's question and answer.
func itemTop(st ui.Styles, d *store.ReviewDetail, w int) []string {
	if d.Kind != string(schema.KindClaim) {
		return ui.QATop(st, d.QA, w)
	}
	title := "Claim " + ui.SanitizeLine(d.ExtID) + " of " + ui.SanitizeLine(d.QA.ID)
	if d.Claim.Origin == store.OriginAnnotator {
		title += " (added by " + ui.SanitizeLine(d.Claim.AddedBy) + ")"
	}
	out := []string{st.Label.Render(ui.Truncate(title, w))}
	return append(out, ui.ClaimText(st, d.Claim, w)...)
}

// itemPane is the pane's content: for a claim, the answer it comes from
// (words shared with the claim highlighted) and the question; then every
// context unit (what of the item did not fit above is continued over it).
func itemPane(st ui.Styles, d *store.ReviewDetail, w int) []string {
	var out []string
	if d.Kind == string(schema.KindClaim) {
		out = append(out, ui.HighlightedAnswer(st, d.QA.Answer, ui.ClaimWords(d.Claim), w)...)
		out = append(out, st.Dim.Render(ui.Truncate("Question: "+ui.SanitizeLine(d.QA.Question), w)), "")
		return append(out, ui.ContextLines(st, d.QA.Contexts, w, ui.ClaimWords(d.Claim))...)
	}
	return append(out, ui.ContextLines(st, d.QA.Contexts, w, nil)...)
}

func paneTitleOf(d *store.ReviewDetail) string {
	if d.Kind == string(schema.KindClaim) {
		return "Answer and context"
	}
	if n := len(d.QA.Contexts); n > 1 {
		return "Context (" + itoa(n) + " units)"
	}
	return "Context"
}

func itoa(n int) string { return strconv.Itoa(n) }
