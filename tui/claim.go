package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

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
	title := "Claim"
	if pos > 0 {
		title += " " + itoa(pos) + " of " + itoa(n) + " of " + ui.SanitizeLine(d.qa.ID)
	}
	if d.claim.Origin == store.OriginAnnotator {
		title += " (added by an annotator)"
	}
	out := []string{st.Label.Render(ui.Truncate(title, w))}
	return append(out, ui.ClaimText(st, d.claim, w)...)
}

// claimPane: the answer the claim came from and the context, highlighted.
func claimPane(st ui.Styles, d *itemData, words map[string]bool, w int, full bool) []string {
	var out []string
	if full {
		out = append(out, claimTop(st, d, w)...)
		out = append(out, "")
	}
	ans := ui.Sanitize(d.qa.Answer)
	out = append(out, ui.Labelled(st, "Answer", ans, w, nil, ui.HighlightSpans(ans, words, st.Highlight))...)
	out = append(out, st.Dim.Render(ui.Truncate("Question: "+ui.SanitizeLine(d.qa.Question), w)), "")
	return append(out, ui.ContextLines(st, d.qa.Contexts, w, words)...)
}

// missedTop: the answer whose claims are checked.
func missedTop(st ui.Styles, d *itemData, w int) []string {
	out := []string{st.Label.Render(ui.Truncate("Missed claims · answer of "+ui.SanitizeLine(d.qa.ID), w))}
	return append(out, ui.WrapStyled(ui.Sanitize(d.qa.Answer), nil, w, nil)...)
}

// missedPane lists the claims extracted from the answer and those the
// annotator added, then the context.
func missedPane(st ui.Styles, d *itemData, w int, full bool) []string {
	var out []string
	if full {
		out = append(out, missedTop(st, d, w)...)
		out = append(out, "")
	}
	out = append(out, st.Label.Render(ui.Truncate("Claims extracted from this answer ("+itoa(len(d.siblings))+")", w)))
	out = append(out, numberedClaims(st, d.siblings, w)...)
	if len(d.mine) > 0 {
		out = append(out, "", st.Label.Render(ui.Truncate("Claims you added ("+itoa(len(d.mine))+")", w)))
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

// decideMissed: `a` opens the three inputs of a missed claim, enter closes
// the step (missed_claims_checked = checked, or added after additions).
func (s *itemScreen) decideMissed(msg tea.KeyPressMsg) (ui.Child, tea.Cmd) {
	e, k := s.e, s.e.keys
	switch {
	case keyIs(msg, k.Add):
		return newAddClaimInput(e, s), nil
	case keyIs(msg, k.Accept):
		marker := s.d.parent[schema.MissedClaimsChecked]
		if marker != "" {
			// Already marked (claims were added here): move on.
			s.addedHere = false
			s.recompute()
			if e.work != nil {
				e.work.finished[s.d.ref.ItemID] = true
				e.work.done++
				next, cmd := e.advance()
				return next, tea.Batch(cmd, e.work.recount(e))
			}
			return e.goHome()
		}
		value := "checked"
		if len(s.d.mine) > 0 {
			value = "added"
		}
		return s, s.save(s.d.qa.ItemID, schema.MissedClaimsChecked, value)
	}
	return s, nil
}

// addClaim is called by the add-claim input with the three parts.
func (s *itemScreen) addClaim(t [3]string) tea.Cmd {
	e := s.e
	s.saving = true
	return addClaimCmd(e.store, e.annotator, s.d.qa.ItemID, t, e.session, s.d.parent[schema.MissedClaimsChecked])
}
