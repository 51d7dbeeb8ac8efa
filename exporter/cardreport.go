package exporter

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// The card's measured sections come from package report, so they are the
// numbers `annotate stats`, `annotate metrics` and `annotate agreement`
// print for the same label set. They are read once the data files are
// written (on a connection of their own), and the full text of the metrics
// and agreement reports follows each summary, folded.

// cardReports is what the card shows besides the rows themselves.
type cardReports struct {
	work   []store.Work
	guides []store.GuidelineUse // the guidelines versions of the labels (card_guidelines.go)
	// measured holds the report each exported kind measures for its own
	// sections (measured), by kind.
	measured  map[schema.Kind]any
	agreement *report.AgreementReport // nil with fewer than two annotators
	gen       *report.GenReport       // nil without generated answers (card_gen.go)
	cost      *report.CostReport
	// own counts, per field, the adjudications a lead made on a unit in
	// which they gave a label (review --allow-own).
	own map[string]int
	err error
}

// measuredOf is the report kind k measured for the card; the zero value
// (nil) when the kind is not exported, measures nothing or had no label
// set to measure.
func measuredOf[T any](c *card, k schema.Kind) T {
	t, _ := c.rep.measured[k].(T)
	return t
}

// measuredKind is a kind whose report the card draws from.
type measuredKind struct {
	kind schema.Kind
	m    measured
}

// reportsReader returns the function that reads the card's reports: the
// work and guidelines of the labels, each exported kind's measured report
// (in the configs' order, the kinds whose configs have rows as counted
// before any is written), the agreement, generation and cost.
//
// The hf export calls it after the rows, not beside them: read while the
// rows were written, on the other core, the reports' SQLite memory and the
// streams' came on top of each other, and the sum grew with the database
// (peak RSS at a million claims 66 MiB beside them, 56 MiB after them; 53
// and 48 MiB at ten thousand). The price is the reports' time added to
// the wall: about 25 s at a million claims.
func (e *exporter) reportsReader(configs []*hfConfig) func() cardReports {
	var measures []measuredKind
	for _, c := range configs { // read here: the writer updates the configs' rows afterwards
		if m, ok := c.kind.(measured); ok && c.rows > 0 && !slices.ContainsFunc(measures, func(x measuredKind) bool { return x.kind == c.kind.Kind() }) {
			measures = append(measures, measuredKind{c.kind.Kind(), m})
		}
	}
	return func() (r cardReports) {
		// One snapshot of its own for all of them.
		if err := e.s.Read(func(rx *store.ReadTx) error { r = e.cardReports(rx, measures); return nil }); err != nil && r.err == nil {
			r.err = err
		}
		return r
	}
}

// cardReports reads the card's reports in one snapshot.
func (e *exporter) cardReports(rx *store.ReadTx, measures []measuredKind) (r cardReports) {
	if r.work, r.err = rx.Work(); r.err != nil {
		return
	}
	if r.guides, r.err = rx.GuidelinesUsed(); r.err != nil {
		return
	}
	if r.own, r.err = rx.OwnAdjudications(); r.err != nil {
		return
	}
	sel := report.Selection{Annotator: e.labels.Annotator, Adjudicated: e.labels.Adjudicated}
	chosen := sel.Annotator != "" || sel.Adjudicated
	if !chosen && !e.o.AllAnnotators {
		return // nobody has labelled yet: no label set to report on
	}
	r.measured = map[schema.Kind]any{}
	for _, x := range measures {
		if !chosen {
			break // --all-annotators without a label set: no one set's figures
		}
		var m any
		if m, r.err = x.m.measure(e, rx, sel); r.err != nil {
			return
		}
		r.measured[x.kind] = m
	}
	// The same annotators as `annotate agreement` and review: per field,
	// those with labels of it.
	var few *report.TooFewAnnotatorsError
	if r.agreement, r.err = report.Agreement(rx, report.AgreementOptions{}); errors.As(r.err, &few) {
		r.agreement, r.err = nil, nil
	}
	if r.err == nil && chosen {
		r.gen, r.cost, r.err = genAndCost(rx, sel)
	}
	return r
}

func (c *card) sourceLabel(key string) string {
	if key == "all" {
		return "**all**"
	}
	for _, s := range c.sources {
		if s.Name == key && s.Language != "" {
			return fmt.Sprintf("%s (%s)", md(key), md(strings.ToUpper(s.Language)))
		}
	}
	return md(key)
}

func (c *card) reports(b *strings.Builder) {
	c.kindText(b, cardStats) // each kind's statistics and metrics (kind_*_card.go)
	c.agreementSection(b)
	c.genSection(b)
	c.costSection(b)
}

// leftOut says which labels the counts leave out, so none goes unexplained.
func leftOut(b *strings.Builder, notAsked map[string]int, unknown map[string]map[string]int) {
	var parts []string
	for _, f := range sortedKeys(notAsked) {
		if notAsked[f] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", code(f), notAsked[f]))
		}
	}
	if len(parts) > 0 {
		b.WriteString("Left out of the counts and of the rows: labels of fields no longer asked given the item's other labels " +
			"(e.g. a persona given before the question was judged invalid; kept in the database's history): " + strings.Join(parts, ", ") + ".\n\n")
	}
	parts = nil
	for _, f := range sortedKeys(unknown) {
		for _, v := range sortedKeys(unknown[f]) {
			parts = append(parts, fmt.Sprintf("%s = %s: %d", code(f), code(v), unknown[f][v]))
		}
	}
	if len(parts) > 0 {
		b.WriteString("Left out of the counts (but kept verbatim in the rows): label values outside the schema: " + strings.Join(parts, ", ") + ".\n\n")
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func (c *card) agreementSection(b *strings.Builder) {
	a := c.rep.agreement
	if a == nil {
		return
	}
	fmt.Fprintf(b, "## Inter-annotator agreement\n\nBetween %s, per field, over the items labelled by at least two of them.\n\n", md(strings.Join(a.Annotators, ", ")))
	b.WriteString("| field | items | agreement % | Fleiss' κ | Krippendorff's α | Gwet's AC1 |\n|---|---:|---:|---:|---:|---:|\n")
	for _, f := range schema.AgreementFieldNames() {
		fa := a.Fields[f]
		if fa == nil || fa.Items == 0 {
			continue
		}
		alpha := coefCell(fa.KrippendorffAlpha)
		if fa.Scaled != nil { // an ordinal or interval field: α on its scale too
			alpha += " (" + fa.Scaled.Metric + " " + coefCell(fa.Scaled.KrippendorffAlpha) + ")"
		}
		fmt.Fprintf(b, "| `%s` | %d | %s | %s | %s | %s |\n", f, fa.Items, pctCell(fa.PercentAgreement), coefCell(fa.FleissKappa), alpha, coefCell(fa.GwetAC1))
	}
	b.WriteString("\n")
	folded(b, "Full agreement report (`annotate agreement`)", a.WriteText)
}

// folded adds a report's text output in a collapsed block.
func folded(b *strings.Builder, title string, write func(io.Writer) error) {
	var t strings.Builder
	if err := write(&t); err != nil {
		fmt.Fprintf(&t, "\n(report incomplete: %v)\n", err)
	}
	fmt.Fprintf(b, "<details>\n<summary>%s</summary>\n\n%s\n</details>\n\n", title, fenced(strings.TrimLeft(t.String(), "\n"), "text"))
}

// pctCell, ciCell and coefCell print a statistic, "—" when it has nothing to count.
func pctCell(x *float64) string {
	if x == nil {
		return "—"
	}
	return fmt.Sprintf("%.1f", 100**x)
}

func ciCell(c *[2]float64) string {
	if c == nil {
		return "—"
	}
	return fmt.Sprintf("[%.1f, %.1f]", 100*c[0], 100*c[1])
}

func coefCell(x *float64) string {
	if x == nil {
		return "—"
	}
	return fmt.Sprintf("%.3f", *x)
}
