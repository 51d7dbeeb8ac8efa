package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

func init() {
	prompts[schema.ClaimValidity] = lang.Key("Is the claim correct: all required elements, coherent, meaningful?")
	prompts[schema.Entailment] = lang.Key("How does the claim relate to the context?")
	Register(claimKind{})
}

type claimKind struct{}

func (claimKind) Kind() schema.Kind { return schema.KindClaim }

func (claimKind) notAskedNote(l *lang.Printer, n int) string {
	return l.Sprintf("%d not asked: their answer not judged correct by you", n)
}

func (claimKind) Names() Names {
	return Names{Label: lang.Key("Claim"), Queue: lang.Key("Claims"), Noun: lang.Key("claim")}
}

func (claimKind) Top(dr Drawing, w int) []string {
	if dr.at.kind == askOwn {
		return missedTop(dr.st, dr.d, w)
	}
	return claimTop(dr.st, dr.d, w)
}

func (claimKind) Pane(dr Drawing, w int) []string {
	if dr.at.kind == askOwn {
		return missedPane(dr.st, dr.d, w)
	}
	return claimPane(dr.st, dr.d, w)
}

func (claimKind) PaneTitle(dr Drawing) string {
	if dr.at.kind == askOwn {
		return dr.st.Lang.Sprintf("Claims and context")
	}
	return dr.st.Lang.Sprintf("Answer and context")
}

func (claimKind) ownStep() *ownStep { return missedClaims }

func (claimKind) load(d *itemData, v *store.ItemView) { loadClaim(d, v) }

// missedClaims is the claim kind's own step: after the last extracted claim
// of an answer, did the extractor miss one? The answer records
// missed_claims_checked.
var missedClaims = &ownStep{
	ownStepRules: missedClaimsRules{},
	marker:       schema.MissedClaimsChecked, section: "missed_claims",
	checked: "checked", added: "added",
	refused: lang.Key("a adds a claim the extractor missed, enter says you are done with this answer."),
	title:   lang.Key("Missed claims"),
}

// missedClaimsRules: the step follows the last extracted claim of an
// answer, counts the claims the annotator added to it, and is about the
// answer's QA pair.
type missedClaimsRules struct{}

func (missedClaimsRules) asked(d *itemData) bool { return d.isLast }
func (missedClaimsRules) count(d *itemData) int  { return len(d.mine) }
func (missedClaimsRules) card(st ui.Styles, f flow, w int) []string {
	return missedCard(st, f.marker, f.added, w)
}
func (missedClaimsRules) of(d *itemData) (string, int64) { return d.qa.ID, d.qa.ItemID }

// pairData is what the QA pair and claim screens show of an item beyond
// its labels: the pair (a claim's: its answer's) and the answer's claims.
type pairData struct {
	qa       store.QAPair  // the QA pair (a claim's: its answer's pair)
	claim    store.Claim   // kind claim
	siblings []store.Claim // the extracted claims of the answer, in order
	mine     []store.Claim // claims this annotator added to the answer and that stand
	isLast   bool          // the last extracted claim of its answer: the missed-claims step follows it
	// claims are a QA pair's extracted claims, in order: judged correct,
	// the answer brings them next (claimsNext).
	claims []store.ItemRef
}

func loadClaim(d *itemData, v *store.ItemView) {
	c := v.Item.Payload.(*store.Claim)
	d.claim = *c
	if v.Parent != nil {
		if qa, ok := v.Parent.Payload.(*store.QAPair); ok {
			d.qa = *qa
		}
	}
	for _, it := range v.Siblings {
		if c, ok := it.Payload.(*store.Claim); ok {
			d.siblings = append(d.siblings, *c)
		}
	}
	for _, it := range v.Mine {
		if c, ok := it.Payload.(*store.Claim); ok {
			d.mine = append(d.mine, *c)
		}
	}
	// An added claim is never the last extracted one.
	d.isLast = v.IsLast && c.Origin != store.OriginAnnotator
}

// The claim screen: the claim (subject | predicate | object, or the
// sub-sentence text) above the pane; the pane holds the answer it came from
// and the context, the words they share with the claim highlighted. Then
// claim_validity, and entailment when the claim is correct. After the last
// claim of an answer comes the missed-claims step: `a` adds a claim the
// extractor missed (three inputs), enter says none were missed.

// claimTop is the fixed part of the claim screen.
func claimTop(st ui.Styles, d *itemData, w int) []string {
	pos, n := 0, len(d.siblings)
	for i, c := range d.siblings {
		if c.ItemID == d.ref.ItemID {
			pos = i + 1
		}
	}
	l := st.Lang
	title := l.Sprintf("Claim")
	if pos > 0 {
		title = l.Sprintf("Claim %d of %d of %s", pos, n, ui.SanitizeLine(d.qa.ID))
	}
	if d.claim.Origin == store.OriginAnnotator {
		title += " " + l.Sprintf("(added by an annotator)")
	}
	out := []string{st.Label.Render(ui.Truncate(title, w))}
	return append(out, ui.ClaimText(st, d.claim, w)...)
}

// claimPane: the answer the claim came from and the context, highlighted.
func claimPane(st ui.Styles, d *itemData, w int) []string {
	words := ui.ClaimWords(d.claim)
	var out []string
	ans := ui.Data(d.qa.Answer)
	out = append(out, ui.Labelled(st, st.Lang.Sprintf("Answer"), ans, w, nil, ui.HighlightSpans(string(ans), words, st.Highlight))...)
	out = append(out, st.Dim.Render(ui.Truncate(st.Lang.Sprintf("Question: %s", ui.SanitizeLine(d.qa.Question)), w)), "")
	return append(out, ui.ContextLines(st, d.qa.Contexts, w, words)...)
}

// missedTop: the answer whose claims are checked.
func missedTop(st ui.Styles, d *itemData, w int) []string {
	out := []string{st.Label.Render(ui.Truncate(st.Lang.Sprintf("Answer of %s", ui.SanitizeLine(d.qa.ID)), w))}
	return append(out, ui.WrapStyled(ui.Data(d.qa.Answer), nil, w, nil)...)
}

// missedPane lists the claims extracted from the answer and those the
// annotator added, then the context.
func missedPane(st ui.Styles, d *itemData, w int) []string {
	var out []string
	out = append(out, st.Label.Render(ui.Truncate(st.Lang.Sprintf("Claims extracted from this answer (%d)", len(d.siblings)), w)))
	out = append(out, numberedClaims(st, d.siblings, w)...)
	if len(d.mine) > 0 {
		out = append(out, "", st.Label.Render(ui.Truncate(st.Lang.Sprintf("Claims you added (%d)", len(d.mine)), w)))
		out = append(out, numberedClaims(st, d.mine, w)...)
	}
	out = append(out, "")
	return append(out, ui.ContextLines(st, d.qa.Contexts, w, nil)...)
}

func numberedClaims(st ui.Styles, cs []store.Claim, w int) []string {
	var out []string
	for i, c := range cs {
		num := itoa(i+1) + ". "
		ind := ui.TextWidth(num)
		if w-ind < 8 {
			ind, num = 0, ""
		}
		for j, l := range ui.ClaimText(st, c, max(1, w-ind)) {
			if j == 0 {
				out = append(out, num+l)
			} else {
				out = append(out, strings.Repeat(" ", ind)+l)
			}
		}
	}
	return out
}

// missedCard is the card of the missed-claims step.
func missedCard(st ui.Styles, marker string, added int, w int) []string {
	bar := st.Card.Render("▌") + " "
	inner := max(1, w-2)
	l := st.Lang
	name := l.Field("missed_claims")
	head := st.Field.Render(ui.Truncate(name, inner))
	q := l.Sprintf("Did the extractor miss a claim of this answer?")
	if added > 0 {
		q = l.Sprintf("You added %d claims. Any other?", added)
	}
	if ui.TextWidth(name)+3 < inner {
		head += " " + st.Dim.Render(ui.Truncate(q, inner-ui.TextWidth(name)-1))
	}
	enter := l.Sprintf("none missed")
	if marker != "" || added > 0 {
		enter = l.Sprintf("done with this answer")
	}
	opts := st.Key.Render("[a]") + " " + st.Option.Render(l.Sprintf("add a missed claim")) + "   " +
		st.Key.Render("[enter]") + " " + st.Option.Render(enter)
	return []string{bar + head, bar + ui.TruncateStyled(opts, inner)}
}

type claimAddedMsg struct {
	qa     int64
	claim  store.Claim
	marker string // the missed_claims_checked value now recorded ("" if it failed)
	err    error
}

// addClaimCmd adds a missed claim and, in the same transaction, marks the
// answer as having had claims added.
func addClaimCmd(s *store.Store, annotator string, qa int64, triplet [3]string, session int64) tea.Cmd {
	return func() tea.Msg {
		var c store.Claim
		err := untilWritten(func() (err error) {
			c, err = s.AddMissedClaim(annotator, qa, triplet, session)
			return err
		})
		if err != nil {
			return claimAddedMsg{qa: qa, err: err}
		}
		return claimAddedMsg{qa: qa, claim: c, marker: "added"}
	}
}
