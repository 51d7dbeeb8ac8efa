package ui

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/annotate-dev/annotate/store"
)

// The claim kind's widgets: a claim is a triplet or a sub-sentence, drawn
// and searched for its words by the claim screens and the review of claims.

// ClaimText renders a claim on wrapped lines: subject │ predicate │ object,
// each part styled, or its sub-sentence text.
func ClaimText(st Styles, c store.Claim, w int) []string {
	if !c.IsTriplet() {
		return WrapStyled(Data(c.Text), nil, w, nil)
	}
	const sep Text = " │ "
	var b TextBuilder
	var spans []Span
	styles := []lipgloss.Style{st.Subject, st.Predicate, st.Object}
	for i, part := range c.Triplet {
		if i > 0 {
			spans = append(spans, Span{b.Len(), b.Len() + len(sep), st.Dim})
			b.Add(sep)
		}
		p := DataLine(part)
		if p == "" {
			p = "∅"
		}
		spans = append(spans, Span{b.Len(), b.Len() + len(p), styles[i]})
		b.Add(p)
	}
	return WrapStyled(b.Text(), spans, w, nil)
}

// ClaimWords is the set of folded significant words of a claim, its
// triplet read as one sentence.
func ClaimWords(c store.Claim) map[string]bool {
	if c.IsTriplet() {
		return SignificantWords(strings.Join(c.Triplet[:], " "))
	}
	return SignificantWords(c.Text)
}
