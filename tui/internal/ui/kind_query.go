package ui

import (
	"strings"

	"github.com/annotate-dev/annotate/store"
)

// What the annotation and the review screens both show of a query: its
// text and what is known about it.

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
