package ui

import (
	"strings"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// What the annotation and the review screens both show of a generated
// claim: the evidence it is judged against.

// GenEvidence renders what a generated claim is judged against, the words
// it shares with the claim highlighted: the accepted gold answer for
// accuracy_support, the documents its answer used for grounded, both for
// any other field; then the generated answer itself ("" : not shown).
func GenEvidence(st Styles, ev *store.GenEvidence, claim, field, answer string, w int) []string {
	if ev == nil {
		ev = &store.GenEvidence{}
	}
	words := SignificantWords(claim)
	var out []string
	gold := func() {
		if ev.Gold == nil {
			out = append(out, Wrap(st.Lang.Sprintf("No accepted gold answer for this query yet: the lead accepts gold answers first (annotate review --kind answer_task)."), w)...)
			return
		}
		text := Data(ev.Gold.Text)
		out = append(out, WrapStyled(text, HighlightSpans(string(text), words, st.Highlight), w, nil)...)
		if len(ev.Gold.Citations) > 0 {
			out = append(out, st.Dim.Render(Truncate(st.Lang.Sprintf("Cites: %s", SanitizeLine(strings.Join(ev.Gold.Citations, "; "))), w)))
		}
	}
	docs := func() {
		if len(ev.Documents) == 0 && len(ev.Missing) == 0 {
			out = append(out, st.Dim.Render(Truncate(st.Lang.Sprintf("The answer names no document."), w)))
		}
		for i, doc := range ev.Documents {
			if i > 0 {
				out = append(out, "")
			}
			out = append(out, DocumentLines(st, doc, words, w)...)
		}
		if len(ev.Missing) > 0 {
			out = append(out, "", st.Dim.Render(Truncate(st.Lang.Sprintf("Not in the database: %s", SanitizeLine(strings.Join(ev.Missing, ", "))), w)))
		}
	}
	switch field {
	case schema.AccuracySupport:
		gold()
	case schema.Grounded:
		docs()
	default:
		out = append(out, st.Label.Render(st.Lang.Sprintf("Gold answer")))
		gold()
		out = append(out, "", st.Label.Render(st.Lang.Sprintf("Documents")))
		docs()
	}
	if answer != "" {
		out = append(out, "", st.Dim.Render(Truncate(st.Lang.Sprintf("The generated answer:"), w)))
		out = append(out, WrapStyled(Data(answer), nil, w, &st.Dim)...)
	}
	return out
}

// GenEvidenceTitle is the pane's title over GenEvidence for a field.
func GenEvidenceTitle(l *lang.Printer, field string) string {
	switch field {
	case schema.AccuracySupport:
		return l.Sprintf("Accepted gold answer")
	case schema.Grounded:
		return l.Sprintf("Documents the answer used")
	}
	return l.Sprintf("Gold answer and documents")
}
