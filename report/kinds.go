package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// KindStats are the dataset statistics of a kind beyond Table 1's QA pairs
// and claims (queries, …), read off the kept counts generically: how many
// items, how the rater labelled each field, and the items by each attribute
// the kind counts (a query's persona, jurisdiction, issue).
type KindStats struct {
	Items  int                       `json:"items"`
	Fields map[string]map[string]int `json:"fields"` // field -> value -> labels that count
	By     map[string]map[string]int `json:"by"`     // attribute -> value -> items
	// Judgments are the relevance kind's judgments and runs
	// (kind_relevance_stats.go).
	Judgments *JudgmentStats `json:"judgments,omitempty"`
}

// givenKey counts the labels of a free-text field (gold answers): there is
// no value to count them by.
const givenKey = "given"

// kindStats builds the statistics of every other kind with items.
func kindStats(rt rater, t *tallies) map[string]*KindStats {
	out := map[string]*KindStats{}
	for _, k := range schema.AllKinds() {
		if table1Kinds[k] {
			continue
		}
		if n := t.sum(tally.Anyone, 0, true, tally.Items, string(k), nil); n > 0 {
			out[string(k)] = kindStatsOf(k, n, rt, t)
		}
	}
	return out
}

// kindStatsOf is the statistics of kind k, of n items.
func kindStatsOf(k schema.Kind, n int, rt rater, t *tallies) *KindStats {
	ks := &KindStats{Items: n, Fields: map[string]map[string]int{}, By: map[string]map[string]int{}}
	for _, f := range schema.Fields(k) {
		ks.Fields[f.Name] = fieldCounts(f, rt, t)
	}
	prefix := string(k) + "/"
	t.each(tally.Anyone, 0, true, tally.ItemsBy, func(key tally.Key, c int) {
		if attr, ok := strings.CutPrefix(key.A, prefix); ok {
			if ks.By[attr] == nil {
				ks.By[attr] = map[string]int{}
			}
			ks.By[attr][key.B] += c
		}
	})
	return ks
}

// fieldCounts are the rater's labels of a field that count, by value (a
// free-text field's as given).
func fieldCounts(f schema.Field, rt rater, t *tallies) map[string]int {
	m := map[string]int{}
	for _, v := range f.Values {
		m[v] = t.sum(rt.id, 0, true, tally.Label, f.Name, strPtr(v))
	}
	if len(f.Values) == 0 { // free text: counted as given
		m[givenKey] = t.sum(rt.id, 0, true, tally.Label, f.Name, strPtr(""))
	}
	return m
}

// declaredStats counts the fields a lead declared on the kinds of Table 1
// (whose columns are fixed); a declared field of another kind is in its
// kind's statistics already.
func declaredStats(rt rater, t *tallies) map[string]map[string]int {
	out := map[string]map[string]int{}
	for k := range table1Kinds {
		for _, f := range schema.Fields(k) {
			if f.Declared > 0 {
				out[f.Name] = fieldCounts(f, rt, t)
			}
		}
	}
	return out
}

// writeDeclared renders the declared fields' counts, values in the
// declared order.
func writeDeclared(w io.Writer, declared map[string]map[string]int) {
	if len(declared) == 0 {
		return
	}
	fmt.Fprintln(w, "\nDeclared fields")
	for _, k := range schema.AllKinds() {
		for _, f := range schema.Fields(k) {
			m, ok := declared[f.Name]
			if !ok {
				continue
			}
			var parts []string
			for _, v := range f.Values {
				parts = append(parts, fmt.Sprintf("%s %d", v, m[v]))
			}
			if len(f.Values) == 0 {
				parts = append(parts, fmt.Sprintf("%s %d", givenKey, m[givenKey]))
			}
			fmt.Fprintf(w, "  %s (%s, %s): %s\n", f.Name, schema.SpecOf(k).Title, f.Scale.Level, strings.Join(parts, ", "))
		}
	}
}

// writeKinds renders the other kinds' statistics.
func writeKinds(w io.Writer, kinds map[string]*KindStats) {
	for _, k := range schema.AllKinds() {
		ks := kinds[string(k)]
		if ks == nil {
			continue
		}
		fmt.Fprintf(w, "\n%s: %d\n", schema.SpecOf(k).Title, ks.Items)
		for _, f := range schema.Fields(k) {
			var parts []string
			for _, v := range f.Values {
				parts = append(parts, fmt.Sprintf("%s %d", v, ks.Fields[f.Name][v]))
			}
			if len(f.Values) == 0 {
				parts = append(parts, fmt.Sprintf("%s %d", givenKey, ks.Fields[f.Name][givenKey]))
			}
			fmt.Fprintf(w, "  %s: %s\n", f.Name, strings.Join(parts, ", "))
		}
		for _, attr := range sortedKeys(ks.By) {
			var parts []string
			for _, v := range sortedKeys(ks.By[attr]) {
				name := v
				if name == "" {
					name = "(none)"
				}
				parts = append(parts, fmt.Sprintf("%s %d", name, ks.By[attr][v]))
			}
			fmt.Fprintf(w, "  by %s: %s\n", attr, strings.Join(parts, ", "))
		}
		if ks.Judgments != nil {
			writeJudgments(w, ks.Judgments)
		}
	}
}
