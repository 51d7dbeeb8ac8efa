package ui

import (
	"strings"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// The renderings of CanLegalRAGBench items that the annotation and the
// review screens share: what is known about a query, a document with words
// highlighted, and the evidence a generated claim is judged against.

// QueryTop renders a query's text and, dim under it, its persona, province
// and legal issue.
func QueryTop(st Styles, q *store.Query, w int) []string {
	label := st.Lang.Sprintf("Query")
	out := Labelled(st, label, Data(q.Text), w, nil, nil)
	var meta []string
	for _, v := range []string{q.Persona, q.Jurisdiction, q.Issue} {
		if v != "" {
			meta = append(meta, SanitizeLine(v))
		}
	}
	if len(meta) > 0 {
		out = append(out, st.Dim.Render(Truncate(strings.Repeat(" ", TextWidth(label)+1)+strings.Join(meta, " · "), w)))
	}
	return out
}

// QueryAbout renders a query's persona, province, legal issue and seed.
func QueryAbout(st Styles, q *store.Query, w int) []string {
	seed := q.SeedDoc
	if q.SeedGroup != "" {
		seed = strings.TrimSpace(seed + " " + st.Lang.Sprintf("(variations: %s)", q.SeedGroup))
	}
	var out []string
	l := st.Lang
	for _, kv := range [][2]string{{l.Sprintf("Persona"), q.Persona}, {l.Sprintf("Province"), q.Jurisdiction}, {l.Sprintf("Issue"), q.Issue}, {l.Sprintf("Seed"), seed}} {
		if kv[1] != "" {
			out = append(out, Labelled(st, kv[0], Data(kv[1]), w, nil, nil)...)
		}
	}
	return out
}

// DocumentLines renders a document: a dim "¶ id · title · citation" line,
// then its text with the given words highlighted.
func DocumentLines(st Styles, doc *store.Document, words map[string]bool, w int) []string {
	head := "¶ " + SanitizeLine(doc.ID)
	for _, v := range []string{doc.Title, doc.Citation} {
		if v != "" {
			head += " · " + SanitizeLine(v)
		}
	}
	text := Data(doc.Text)
	return append([]string{st.Dim.Render(Truncate(head, w))}, WrapStyled(text, HighlightSpans(string(text), words, st.Highlight), w, nil)...)
}

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
