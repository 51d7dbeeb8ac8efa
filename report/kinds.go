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
	// (relevance_stats.go).
	Judgments *JudgmentStats `json:"judgments,omitempty"`
}

// givenKey counts the labels of a free-text field (gold answers): there is
// no value to count them by.
const givenKey = "given"

// table1Kinds are reported in Table 1 itself.
var table1Kinds = map[schema.Kind]bool{schema.KindQA: true, schema.KindClaim: true}

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
		m := map[string]int{}
		for _, v := range f.Values {
			m[v] = t.sum(rt.id, 0, true, tally.Label, f.Name, strPtr(v))
		}
		if len(f.Values) == 0 { // free text: counted as given
			m[givenKey] = t.sum(rt.id, 0, true, tally.Label, f.Name, strPtr(""))
		}
		ks.Fields[f.Name] = m
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
