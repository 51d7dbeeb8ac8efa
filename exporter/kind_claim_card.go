package exporter

import (
	"fmt"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// The claims' part of the dataset card's reports: how good the automatic
// claim extraction and verification were against the human labels, per
// source of QA pairs (the paper's Section 4.3 and Table 3).

// claimMeasure is the claims' measured report, when systems predicted
// them: annotate metrics against the default system (else the first
// one), the labels made with a suggestion included (the card says how
// many).
func claimMeasure(e *exporter, rx *store.ReadTx, sel report.Selection) (any, error) {
	if len(e.systems) == 0 {
		return (*report.MetricsReport)(nil), nil
	}
	system := report.DefaultSystem
	if !slices.Contains(e.systems, system) {
		system = e.systems[0]
	}
	return report.Metrics(rx, report.MetricsOptions{Selection: sel, System: system, IncludeSuggested: true})
}

// claimMetrics is the section of the first system with predictions
// (annotate metrics).
func claimMetrics(c *card, b *strings.Builder) bool {
	m := measuredOf[*report.MetricsReport](c, schema.KindClaim)
	if m == nil {
		return false
	}
	fmt.Fprintf(b, "## Claim extraction and verification (%s)\n\n", md(m.System))
	b.WriteString("How good the automatic tools were against the human labels (the paper's Section 4.3 and Table 3). " +
		"Extraction accuracy: claims judged correct over judged extracted claims (Wilson 95% interval). " +
		"Verification: over claims judged correct with an entailment label and a prediction.\n\n")
	// The card publishes every label; it says when some were anchored on
	// the very system it scores (annotate metrics refuses without a flag).
	if n := m.Suggested[m.System]; n > 0 {
		fmt.Fprintf(b, "**%d of these labels were made with %s's prediction preselected** (column `suggested_by`): "+
			"they are anchored on it, so the scores below overstate its agreement with blind experts.\n\n", n, md(m.System))
	}
	b.WriteString("| source | judged claims | extraction accuracy % | 95% CI | verified claims | accuracy % | macro F1 % | weighted F1 % | Cohen's κ |\n")
	b.WriteString("|---|---:|---:|---|---:|---:|---:|---:|---:|\n")
	for _, k := range c.sourceKeys() {
		x, v := m.Extraction[k], m.Verification[k]
		if x == nil || v == nil {
			continue
		}
		fmt.Fprintf(b, "| %s | %d | %s | %s | %d | %s | %s | %s | %s |\n", c.sourceLabel(k), x.Judged, pctCell(x.Accuracy),
			ciCell(x.CI95), v.N, pctCell(v.Accuracy), pctCell(v.MacroF1), pctCell(v.WeightedF1), coefCell(v.Kappa))
	}
	b.WriteString("\n")
	folded(b, "Full metrics report (`annotate metrics`)", m.WriteText)
	return true
}
