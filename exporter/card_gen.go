package exporter

import (
	"errors"
	"fmt"
	"strings"

	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// The card's CanLegalRAGBench sections: the generated answers' accuracy and
// groundedness, the judge against the expert, the error distribution and
// the hallucination bounds (the numbers `annotate gen` prints for the
// exported label set), then what the annotation cost (`annotate cost`).

// genAndCost computes the two reports; gen is nil when there are no
// generated answers, cost nil when nobody has worked yet.
func genAndCost(s *store.Store, sel report.Selection) (*report.GenReport, *report.CostReport, error) {
	gen, err := report.Gen(s, report.GenOptions{Selection: sel})
	if errors.Is(err, report.ErrNoGenerated) {
		gen, err = nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	cost, err := report.Cost(s)
	return gen, cost, err
}

func (c *card) genSection(b *strings.Builder) {
	g := c.rep.gen
	if g == nil {
		return
	}
	b.WriteString("## Generated answers (accuracy and groundedness)\n\n")
	fmt.Fprintf(b, "Claims of the systems' answers judged by %s against the accepted gold answer (accuracy) and against the documents the answer used (groundedness), "+
		"with Wilson 95%% intervals; the automatic judge %s over every claim it gave a verdict on.\n\n", cell(g.Annotator), code(g.Judge))
	b.WriteString("| system | condition | answers | claims | judged | accuracy % | 95% CI | groundedness % | 95% CI | judge accuracy % | judge groundedness % | mean answer characters |\n")
	b.WriteString("|---|---|" + strings.Repeat("---:|", 10) + "\n")
	for _, sys := range sortedKeys(g.Systems) {
		for _, cond := range sortedKeys(g.Systems[sys]) {
			x := g.Systems[sys][cond]
			fmt.Fprintf(b, "| %s | %s | %d | %d | %d | %s | %s | %s | %s | %s | %s | %s |\n", cell(sys), cell(cond), x.Answers, x.Claims, x.Judged,
				pctText(x.Accuracy), ciText(x.AccuracyCI), pctText(x.Groundedness), ciText(x.GroundednessCI),
				pctText(x.Judge.Accuracy), pctText(x.Judge.Groundedness), meanText(x.MeanChars))
		}
	}
	gl := g.AnswerLengths.Gold
	fmt.Fprintf(b, "\nGold answers: %d accepted, mean %s characters.\n\n", gl.Answers, meanText(gl.MeanChars))
	for _, f := range []string{schema.AccuracySupport, schema.Grounded} {
		a := g.JudgeVsExpert[f]
		if a == nil || a.N == 0 {
			continue
		}
		fmt.Fprintf(b, "The judge against the expert on `%s`: %d claims, accuracy %s%%, macro F1 %s%%, Cohen's κ %s.\n\n",
			f, a.N, pctText(a.Accuracy), pctText(a.MacroF1), coefText(a.Kappa))
	}
	d := g.Errors
	if d.Claims > 0 {
		fmt.Fprintf(b, "### Error categories\n\n%d claims categorised, %d assignments (a claim may have several categories).\n\n", d.Claims, d.Assignments)
		b.WriteString("| category | group | claims | % of claims | assignments | % of assignments |\n|---|---|---:|---:|---:|---:|\n")
		for _, k := range schema.Taxonomy() {
			s := d.Categories[k.Value]
			if s == nil || s.Claims == 0 {
				continue
			}
			fmt.Fprintf(b, "| %s | %s | %d | %s | %d | %s |\n", cellCode(k.Value), cell(k.Group), s.Claims, pctText(s.ShareOfClaims), s.Assignments, pctText(s.ShareOfAssignments))
		}
		for _, grp := range sortedKeys(d.Groups) {
			s := d.Groups[grp]
			fmt.Fprintf(b, "| **group %s** | | %d | %s | %d | %s |\n", cell(grp), s.Claims, pctText(s.ShareOfClaims), s.Assignments, pctText(s.ShareOfAssignments))
		}
		b.WriteString("\n")
	}
	if h := g.HallucinationRate; h.Lower != nil {
		fmt.Fprintf(b, "Hallucination rate: between %s%% and %s%% (the hallucination share of the categorised claims, %s%%, times the not-grounded rate, %s%% of %d claims by the %s; the upper bound is that rate).\n\n",
			pctText(h.Lower), pctText(h.Upper), pctText(h.HallucinationShare), pctText(h.NotGroundedRate), h.RateClaims, h.RateFrom)
	}
}

func (c *card) costSection(b *strings.Builder) {
	r := c.rep.cost
	if r == nil || len(r.Annotators) == 0 {
		return
	}
	b.WriteString("## Cost of the annotation\n\n")
	b.WriteString("Per annotator and task: items, active hours, session hours (wall clock, shared out among tasks by active time) and cost at the annotator's hourly rate, paid by the session hour. " + ActiveTimeRule + "\n\n")
	b.WriteString("| annotator | role | task | items | active hours | session hours | minutes per item | cost |\n|---|---|---|---:|---:|---:|---:|---:|\n")
	for _, name := range sortedKeys(r.Annotators) {
		a := r.Annotators[name]
		for _, k := range sortedKeys(a.Kinds) {
			x := a.Kinds[k]
			fmt.Fprintf(b, "| %s | %s | %s | %d | %.2f | %.2f | %s | %s |\n", cell(name), cell(a.Role), cell(k), x.Items, x.ActiveHours, x.SessionHours,
				minutesCell(x.MinutesPerItem), moneyCell(x.Cost, a.Currency))
		}
	}
	t := r.Total
	var costs []string
	for _, cur := range sortedKeys(t.Costs) {
		costs = append(costs, fmt.Sprintf("%.2f %s", t.Costs[cur], md(cur)))
	}
	if len(costs) == 0 {
		costs = []string{"— (no rate set)"}
	}
	fmt.Fprintf(b, "\nTotal: %d items, %.2f active hours, %.2f session hours, %s.", t.Items, t.ActiveHours, t.SessionHours, strings.Join(costs, " + "))
	if len(t.NoRate) > 0 {
		fmt.Fprintf(b, " Without a rate (not costed): %s.", cell(strings.Join(t.NoRate, ", ")))
	}
	b.WriteString("\n\n")
}

func pctText(x *float64) string {
	if x == nil {
		return "—"
	}
	return fmt.Sprintf("%.1f", 100**x)
}

func coefText(x *float64) string {
	if x == nil {
		return "—"
	}
	return fmt.Sprintf("%.3f", *x)
}

func ciText(c *[2]float64) string {
	if c == nil {
		return "—"
	}
	return fmt.Sprintf("[%.1f, %.1f]", 100*c[0], 100*c[1])
}

func meanText(x *float64) string {
	if x == nil {
		return "—"
	}
	return fmt.Sprintf("%.0f", *x)
}

func minutesCell(x *float64) string {
	if x == nil {
		return "—"
	}
	return fmt.Sprintf("%.1f", *x)
}

func moneyCell(x *float64, cur string) string {
	if x == nil {
		return "—"
	}
	return strings.TrimSpace(fmt.Sprintf("%.2f %s", *x, cell(cur)))
}
