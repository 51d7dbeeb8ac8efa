package exporter

import (
	"fmt"
	"strings"

	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// The QA pairs' parts of the dataset card: their sources, the paper's
// Table 1 over the pairs and their claims, and the pairs the label set
// leaves unlabelled.

// qaSources is the Dataset Description's table of the sources with QA
// pairs.
func qaSources(c *card, b *strings.Builder) bool {
	b.WriteString("| source | language | jurisdiction | QA pairs |\n|---|---|---|---:|\n")
	for _, s := range c.sources {
		if s.QA > 0 {
			fmt.Fprintf(b, "| %s | %s | %s | %d |\n", cell(s.Name), cell(s.Language), cell(s.Jurisdiction), s.QA)
		}
	}
	b.WriteString("\n")
	return true
}

// qaMeasure is the QA pairs' measured report: Table 1 (annotate stats),
// which counts their claims too.
func qaMeasure(e *exporter, rx *store.ReadTx, sel report.Selection) (any, error) {
	return report.Stats(rx, sel)
}

// qaStats is the Table 1 the card shows, nil without a label set.
func qaStats(c *card) *report.StatsReport {
	return measuredOf[*report.StatsReport](c, schema.KindQA)
}

// qaUnlabelled is the risk of the pairs with no question validity label.
func qaUnlabelled(c *card, b *strings.Builder) bool {
	st := qaStats(c)
	if st == nil || st.All.QA <= st.All.QAJudged {
		return false
	}
	fmt.Fprintf(b, "- %d of %d QA pairs have no question validity label in this label set (their labels are `null`).\n", st.All.QA-st.All.QAJudged, st.All.QA)
	return true
}

// sourceKeys lists the report keys of the sources with QA pairs, then "all".
func (c *card) sourceKeys() []string {
	var keys []string
	for _, s := range c.sources {
		if s.QA > 0 {
			keys = append(keys, s.Name)
		}
	}
	return append(keys, "all")
}

// qaTable1 is the paper's Table 1 for the exported label set: it counts
// QA pairs and their claims.
func qaTable1(c *card, b *strings.Builder) bool {
	st := qaStats(c)
	if st == nil {
		return false
	}
	b.WriteString("## Statistics (Table 1)\n\n")
	b.WriteString("| source | QA | judged | valid | P1 | P2 | P3 | CG1 | CG2 | CG3 | CG4 | answers | claims | judged | valid | ε | η | ζ | added |\n")
	b.WriteString("|---|" + strings.Repeat("---:|", 18) + "\n")
	persona := schema.Fields(schema.KindQA)[3].Values
	category := schema.Fields(schema.KindQA)[2].Values
	entail := schema.Fields(schema.KindClaim)[1].Values
	for _, k := range c.sourceKeys() {
		s := st.All
		if k != "all" {
			s = st.Sources[k]
		}
		if s == nil {
			continue
		}
		cells := []int{s.QA, s.QAJudged, s.QAValid}
		for _, v := range persona {
			cells = append(cells, s.Persona[v])
		}
		for _, v := range category {
			cells = append(cells, s.Category[v])
		}
		cells = append(cells, s.AnswersWithClaims, s.Claims, s.ClaimsJudged, s.ValidClaims)
		for _, v := range entail {
			cells = append(cells, s.Entailment[v])
		}
		cells = append(cells, s.ClaimsAdded)
		fmt.Fprintf(b, "| %s |", c.sourceLabel(k))
		for _, n := range cells {
			fmt.Fprintf(b, " %d |", n)
		}
		b.WriteString("\n")
	}
	b.WriteString("\nQA: pairs; judged: with a question validity label; valid: judged valid. " +
		"P1 citizen, P2 civil officer, P3 legal expert; CG1 general legal research, CG2 factual recall, CG3 false premise, " +
		"CG4 jurisdiction/time-specific (over valid pairs). answers: answers judged correct that have claims (the paper's Σ_A); claims: their claims (Σ_C); " +
		"valid: judged correct; ε entailment, η neutral, ζ contradiction (over valid claims); added: claims the expert added.\n\n")
	if n := st.All.CategoryChanged; n > 0 {
		fmt.Fprintf(b, "The expert changed the generated category of %d valid pair(s).\n\n", n)
	}
	leftOut(b, st.NotAsked, st.UnknownValues)
	return true
}
