package adjudicate

import (
	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// Claims on the review screens: a claim (with the pair it comes from, pairOf
// in kind_qa.go) over the answer, words shared with the claim highlighted,
// the question and the context.

func init() { Register(claimKind{}) }

type claimKind struct{}

func (claimKind) Kind() schema.Kind { return schema.KindClaim }

func (claimKind) ComparedNouns() (one, several string) {
	return lang.Key("claim|one"), lang.Key("claims|several")
}

func (claimKind) PaneTitle(dr Drawing) string { return dr.st.Lang.Sprintf("Answer and context") }

func (claimKind) Top(dr Drawing, w int) []string {
	st, d := dr.st, dr.d
	l := st.Lang
	title := l.Sprintf("Claim %s of %s", ui.SanitizeLine(d.ExtID), ui.SanitizeLine(pairOf(d).ID))
	if claimOf(d).Origin == store.OriginAnnotator {
		title += " " + l.Sprintf("(added by %s)", ui.SanitizeLine(claimOf(d).AddedBy))
	}
	out := []string{st.Label.Render(ui.Truncate(title, w))}
	return append(out, ui.ClaimText(st, *claimOf(d), w)...)
}

func (claimKind) Pane(dr Drawing, w int) []string {
	st, d := dr.st, dr.d
	words := ui.ClaimWords(*claimOf(d))
	out := ui.HighlightedAnswer(st, pairOf(d).Answer, words, w)
	out = append(out, st.Dim.Render(ui.Truncate(st.Lang.Sprintf("Question: %s", ui.SanitizeLine(pairOf(d).Question)), w)), "")
	return append(out, ui.ContextLines(st, pairOf(d).Contexts, w, words)...)
}

// claimOf is the claim on screen (an empty one for another kind).
func claimOf(d *store.AdjudicationDetail) *store.Claim {
	if c, ok := d.Payload.(*store.Claim); ok {
		return c
	}
	return &store.Claim{}
}
