package report

import (
	"fmt"
	"io"
	"strings"
)

// The text of `annotate ir`: the runs' four metrics before → after (Δ), in
// percent with one decimal like the paper; the rankings; the queries left
// out; with --by, the paper's Table 4 layout (runs as rows, the groups as
// columns) for nDCG@k and recall@k.

var irLabels = map[string]string{"recall": "recall", "precision": "precision", "ndcg": "nDCG", "mrr": "MRR"}

// WriteText renders the report.
func (r *IRReport) WriteText(w io.Writer) error {
	expert := "no expert judgments yet"
	if r.Annotator != "" {
		expert = "expert judgments: " + r.Annotator
	}
	over := ""
	if r.Overrides {
		over = " (overriding the gold set)"
	}
	scope := "queries the runs retrieved for"
	if r.Pooled {
		scope = "queries of relevance pools"
	}
	fmt.Fprintf(w, "Retrieval at k=%d · gold set: %s · %s%s\n", r.K, r.Gold, expert, over)
	fmt.Fprintf(w, "%d %s; judged %d, added to the gold set %d, dropped from it %d\n\n",
		r.Queries, scope, r.Judgments.Judged, r.Judgments.Added, r.Judgments.Dropped)
	t := newTable(w, append([]string{"run (before → after, Δ)"}, r.runOrder...))
	head := []string{}
	for _, m := range IRMetrics {
		head = append(head, fmt.Sprintf("%s@%d", irLabels[m], r.K))
	}
	t.row("run (before → after, Δ)", append(head, "queries")...)
	for _, name := range r.runOrder {
		run := r.Runs[name]
		var cells []string
		for _, m := range IRMetrics {
			cells = append(cells, fmt.Sprintf("%s → %s (%s)", pctOf(irValue(run.Before, m)), pctOf(irValue(run.After, m)), signedPct(deltaValue(run.Delta, m))))
		}
		cells = append(cells, fmt.Sprintf("%d → %d", run.Before.Queries, run.After.Queries))
		t.row(name, cells...)
	}
	if err := t.flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for _, m := range append([]string{r.Ranking.Metric}, otherMetrics(r.Ranking.Metric)...) {
		rk := r.Rankings[m]
		swapped := "none"
		if len(rk.Swapped) > 0 {
			var ps []string
			for _, p := range rk.Swapped {
				ps = append(ps, p[0]+" ⇄ "+p[1])
			}
			swapped = strings.Join(ps, ", ")
		}
		fmt.Fprintf(w, "Ranking by %s@%d: before %s; after %s; Kendall's τ %s; swapped: %s\n", irLabels[m], r.K,
			strings.Join(rk.Before, " > "), strings.Join(rk.After, " > "), coefOf(rk.KendallTau), swapped)
	}
	for _, phase := range []string{"before", "after"} {
		if ex := r.Excluded[phase]; len(ex) > 0 {
			fmt.Fprintf(w, "No relevant document %s (left out of its averages): %d (%s)\n", phase, len(ex), listNames(ex))
		}
	}
	for attr, groups := range r.By {
		if err := r.writeBy(w, attr, groups); err != nil {
			return err
		}
	}
	return nil
}

// writeBy renders a breakdown like the paper's Table 4: the runs as rows,
// the groups as columns, nDCG@k then recall@k, each cell before → after.
func (r *IRReport) writeBy(w io.Writer, attr string, groups map[string]map[string]*IRRun) error {
	return writeGroups(w, sortedKeys(groups), r.runOrder, []string{"ndcg", "recall"},
		func(m string) string { return fmt.Sprintf("%s@%d by %s", irLabels[m], r.K, attr) },
		func(v, name, m string) string {
			run := groups[v][name]
			return fmt.Sprintf("%s → %s (%d)", pctOf(irValue(run.Before, m)), pctOf(irValue(run.After, m)), run.After.Queries)
		})
}

// writeGroups renders one table per metric: the runs as rows, the groups'
// values as columns ("(none)" for items without one), cell(value, run,
// metric) in each cell. Both retrieval definitions print their --by this way.
func writeGroups(w io.Writer, values, runs, metrics []string, title func(m string) string, cell func(v, run, m string) string) error {
	head := make([]string, 0, len(values))
	for _, v := range values {
		if v == "" {
			v = "(none)"
		}
		head = append(head, v)
	}
	for _, m := range metrics {
		fmt.Fprintf(w, "\n%s (before → after; queries after)\n", title(m))
		t := newTable(w, append([]string{"run"}, runs...))
		t.row("run", head...)
		for _, name := range runs {
			cells := make([]string, 0, len(values))
			for _, v := range values {
				cells = append(cells, cell(v, name, m))
			}
			t.row(name, cells...)
		}
		if err := t.flush(); err != nil {
			return err
		}
	}
	return nil
}

func otherMetrics(first string) []string {
	var out []string
	for _, m := range IRMetrics {
		if m != first {
			out = append(out, m)
		}
	}
	return out
}

// signedPct prints a difference in points with its sign.
func signedPct(x *float64) string {
	if x == nil {
		return undefinedText
	}
	s := fmt.Sprintf("%+.1f", 100**x)
	if s == "-0.0" || s == "+0.0" {
		return "0.0"
	}
	return s
}

func listNames(list []string) string {
	const shown = 10
	if len(list) <= shown {
		return strings.Join(list, ", ")
	}
	return strings.Join(list[:shown], ", ") + fmt.Sprintf(", … %d more (--json lists them all)", len(list)-shown)
}
