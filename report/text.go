package report

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/annotate-dev/annotate/schema"
)

// Text output: tables aligned with tabwriter, percentages with one decimal
// like the paper, coefficients (kappa, alpha, AC1) with three.

func pct(x float64) string { return fmt.Sprintf("%.1f", 100*x) }

func coef(x float64) string { return fmt.Sprintf("%.3f", x) }

// undefinedText stands for a statistic with nothing to count.
const undefinedText = "—"

// pctOf and coefOf print a statistic that may be undefined.
func pctOf(x *float64) string {
	if x == nil {
		return undefinedText
	}
	return pct(*x)
}

func coefOf(x *float64) string {
	if x == nil {
		return undefinedText
	}
	return coef(*x)
}

func ci(c *[2]float64) string {
	if c == nil {
		return undefinedText
	}
	return "[" + pct(c[0]) + ", " + pct(c[1]) + "]"
}

func ciPtr(c *[2]float64, format func(float64) string) string {
	if c == nil {
		return ""
	}
	return "[" + format(c[0]) + ", " + format(c[1]) + "]"
}

// table writes right-aligned columns; the first column is left-aligned by
// padding it to the widest label.
type table struct {
	tw    *tabwriter.Writer
	width int
}

func newTable(w io.Writer, labels []string) *table {
	width := 0
	for _, l := range labels {
		width = max(width, len([]rune(l)))
	}
	return &table{tw: tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight), width: width}
}

func (t *table) row(label string, cells ...string) {
	for len(cells) > 0 && cells[len(cells)-1] == "" {
		cells = cells[:len(cells)-1] // no trailing blanks
	}
	pad := t.width - len([]rune(label))
	fmt.Fprint(t.tw, label+strings.Repeat(" ", max(pad, 0)))
	for _, c := range cells {
		fmt.Fprint(t.tw, "\t"+c)
	}
	fmt.Fprint(t.tw, "\t\n")
}

func (t *table) flush() error { return t.tw.Flush() }

func who(name string, adjudicated bool) string {
	if adjudicated {
		return "adjudicated labels"
	}
	return "labels of " + name
}

// WriteText renders the stats like the paper's Table 1 (sources as rows),
// then the shares of valid pairs and the counts behind them.
func (r *StatsReport) WriteText(w io.Writer) error {
	labels := []string{""}
	for _, row := range r.rows {
		labels = append(labels, row.label)
	}
	fmt.Fprintf(w, "Dataset statistics (Table 1), %s\n\n", who(r.Annotator, r.Adjudicated))
	if r.All.QA == 0 && r.All.ClaimsExtracted == 0 {
		fmt.Fprintln(w, "No QA pairs or claims.")
		writeKinds(w, r.Kinds)
		writeLeftOut(w, r.UnknownValues, r.NotAsked)
		return nil
	}
	t := newTable(w, labels)
	t.row("", "ΣQA", "P1", "P2", "P3", "CG1", "CG2", "CG3", "CG4", "Σ_A", "Σ_C", "Valid", "ε", "η", "ζ")
	for _, row := range r.rows {
		s := row.s
		cells := []string{itoa(s.QAValid)}
		cells = append(cells, classCells(schema.Persona, s.Persona)...)
		cells = append(cells, classCells(schema.Category, s.Category)...)
		cells = append(cells, itoa(s.AnswersWithClaims), itoa(s.Claims), itoa(s.ValidClaims))
		cells = append(cells, classCells(schema.Entailment, s.Entailment)...)
		t.row(row.label, cells...)
	}
	if err := t.flush(); err != nil {
		return err
	}
	fmt.Fprint(w, `ΣQA: valid QA pairs. P1 citizen, P2 civil_officer, P3 legal_expert; CG1 general_legal_research,
CG2 factual_recall, CG3 false_premise, CG4 jurisdiction_time_specific (over valid pairs).
Σ_A: answers judged correct that have claims; Σ_C: their claims. Valid: claims judged correct;
ε entailment, η neutral, ζ contradiction (over valid claims).
`)

	fmt.Fprintf(w, "\nShares of valid pairs (%%)\n")
	t = newTable(w, labels)
	t.row("", "P1", "P2", "P3", "CG1", "CG2", "CG3", "CG4", "correct", "partial", "incorrect")
	for _, row := range r.rows {
		s := row.s
		cells := shareCells(schema.Persona, s.PersonaShare)
		cells = append(cells, shareCells(schema.Category, s.CategoryShare)...)
		cells = append(cells, shareCells(schema.AnswerCorrectness, s.AnswerShare)...)
		t.row(row.label, cells...)
	}
	if err := t.flush(); err != nil {
		return err
	}

	fmt.Fprintf(w, "\nQA pairs\n")
	t = newTable(w, labels)
	t.row("", "imported", "judged", "valid", "single", "multi", "correct", "partial", "incorrect")
	for _, row := range r.rows {
		s := row.s
		cells := []string{itoa(s.QA), itoa(s.QAJudged), itoa(s.QAValid), itoa(s.Hop["single"]), itoa(s.Hop["multi"])}
		cells = append(cells, classCells(schema.AnswerCorrectness, s.AnswerCorrectness)...)
		t.row(row.label, cells...)
	}
	if err := t.flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "judged: with a question_validity label; single, multi (hop) and answer correctness over valid pairs.")

	fmt.Fprintf(w, "\nClaims\n")
	t = newTable(w, labels)
	t.row("", "extracted", "not asked", "judged", "valid", "added")
	for _, row := range r.rows {
		s := row.s
		t.row(row.label, itoa(s.ClaimsExtracted), itoa(sumValues(s.ClaimsNotAsked)), itoa(s.ClaimsJudged), itoa(s.ValidClaims), itoa(s.ClaimsAdded))
	}
	if err := t.flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "not asked: claims of questions judged invalid or of answers judged partially correct or incorrect\n(ClaimRAG-LAW validates claims of correct answers only); added: claims the annotator added\nbecause the extractor missed them.")
	if reasons := r.All.ClaimsNotAsked; len(reasons) > 0 {
		var parts []string
		for _, k := range sortedKeys(reasons) {
			parts = append(parts, fmt.Sprintf("%s %d", k, reasons[k]))
		}
		fmt.Fprintf(w, "Claims not asked, by reason: %s\n", strings.Join(parts, ", "))
	}
	if changed := r.All.CategoryChanged; changed > 0 {
		fmt.Fprintf(w, "The category label differs from the generated category on %d valid pairs.\n", changed)
	}
	writeDeclared(w, r.DeclaredFields)
	writeKinds(w, r.Kinds)
	writeOpen(w, r.OpenDisagreements)
	writeLeftOut(w, r.UnknownValues, r.NotAsked)
	return nil
}

// writeOpen says how many disagreements the lead has still to decide.
func writeOpen(w io.Writer, open map[string]int) {
	if len(open) == 0 {
		return
	}
	var parts []string
	for _, f := range sortedKeys(open) {
		parts = append(parts, fmt.Sprintf("%s %d", f, open[f]))
	}
	fmt.Fprintf(w, "\nStill open: %d disagreements not adjudicated yet (%s); `annotate review` decides them.\n", sumValues(open), strings.Join(parts, ", "))
}

func itoa(n int) string { return fmt.Sprint(n) }

// count is "1 item", "2 items": n and the word, plural unless n is 1.
func count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "y") {
		return itoa(n) + " " + strings.TrimSuffix(word, "y") + "ies"
	}
	return itoa(n) + " " + word + "s"
}

// classCells lists counts in the field's value order.
func classCells(field string, m map[string]int) []string {
	var out []string
	for _, v := range schemaValues(field) {
		out = append(out, itoa(m[v]))
	}
	return out
}

// shareCells lists shares (as percentages) in the field's value order.
func shareCells(field string, m map[string]*float64) []string {
	var out []string
	for _, v := range schemaValues(field) {
		out = append(out, pctOf(m[v]))
	}
	return out
}

// writeLeftOut says which labels no count includes.
func writeLeftOut(w io.Writer, unknown map[string]map[string]int, notAsked map[string]int) {
	if len(unknown) > 0 {
		fmt.Fprintln(w, "\nLeft out, values outside the schema:")
		for _, f := range sortedKeys(unknown) {
			var parts []string
			for _, v := range sortedKeys(unknown[f]) {
				parts = append(parts, fmt.Sprintf("%q %d", v, unknown[f][v]))
			}
			fmt.Fprintf(w, "  %s: %s\n", f, strings.Join(parts, ", "))
		}
	}
	if len(notAsked) > 0 {
		var parts []string
		for _, f := range sortedKeys(notAsked) {
			parts = append(parts, fmt.Sprintf("%s %d", f, notAsked[f]))
		}
		fmt.Fprintf(w, "\nLeft out, labels of fields not asked given the other labels (kept in the history): %s\n", strings.Join(parts, ", "))
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// WriteText renders extraction accuracy, recall and, per source, the
// verification table of the paper's Table 3.
func (r *MetricsReport) WriteText(w io.Writer) error {
	labels := []string{""}
	for _, k := range r.rows {
		labels = append(labels, r.show[k])
	}
	fmt.Fprintf(w, "Claim extraction, %s\n", who(r.Annotator, r.Adjudicated))
	t := newTable(w, labels)
	t.row("", "claims", "not asked", "judged", "correct", "accuracy %", "95% CI")
	for _, k := range r.rows {
		e := r.Extraction[k]
		t.row(r.show[k], itoa(e.Claims), itoa(e.NotAsked), itoa(e.Judged), itoa(e.Valid), pctOf(e.Accuracy), ci(e.CI95))
	}
	if err := t.flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "accuracy: claims labelled correct / claims with a claim_validity label (Wilson interval);")
	fmt.Fprintln(w, "not asked: claims of questions judged invalid or answers judged partially correct or incorrect.")

	fmt.Fprintf(w, "\nExtraction recall, over answers checked for missed claims\n")
	fmt.Fprintln(w, "answers: answers judged correct (or not under review) that have extracted claims (Σ_A),")
	fmt.Fprintln(w, "checked for missed claims; correct extracted and added are the claims of those answers.")
	if r.Recall[allKey].Answers == 0 {
		fmt.Fprintln(w, "  no answer judged correct with extracted claims is marked missed_claims_checked yet")
	} else {
		t = newTable(w, labels)
		t.row("", "answers", "correct extracted", "added", "recall %", "95% CI")
		for _, k := range r.rows {
			e := r.Recall[k]
			t.row(r.show[k], itoa(e.Answers), itoa(e.CorrectExtracted), itoa(e.Added), pctOf(e.Recall), ci(e.CI95))
		}
		if err := t.flush(); err != nil {
			return err
		}
		fmt.Fprintln(w, "recall: correct extracted / (correct extracted + claims the expert added).")
	}
	if n := r.Recall[allKey].NotChecked; n > 0 {
		fmt.Fprintf(w, "  left out, answers with claims not checked for missed claims yet: %d\n", n)
	}
	if n := r.Recall[allKey].NoClaims; n > 0 {
		fmt.Fprintf(w, "  left out, answers checked without an extracted claim (and the claims added to them): %d\n", n)
	}

	fmt.Fprintf(w, "\nClaim verification: %s against the %s\n", r.System, who(r.Annotator, r.Adjudicated))
	if r.Verification[allKey].N == 0 && len(r.Systems) > 0 && !contains(r.Systems, r.System) {
		fmt.Fprintf(w, "  no prediction of system %q (systems with predictions: %s)\n", r.System, strings.Join(r.Systems, ", "))
	}
	for _, k := range r.rows {
		if err := r.writeVerification(w, k); err != nil {
			return err
		}
	}
	if len(r.UnknownPredictions) > 0 {
		var parts []string
		for _, v := range sortedKeys(r.UnknownPredictions) {
			parts = append(parts, fmt.Sprintf("%q %d", v, r.UnknownPredictions[v]))
		}
		fmt.Fprintf(w, "\n%s values outside the classes (column other): %s\n", r.System, strings.Join(parts, ", "))
	}
	if err := r.writeResponseLevel(w, labels); err != nil {
		return err
	}
	if r.Bootstrap != nil {
		fmt.Fprintf(w, "\nIntervals: percentile bootstrap, %d replicates, seed %d.\n", r.Bootstrap.Replicates, r.Bootstrap.Seed)
	}
	writeOpen(w, r.OpenDisagreements)
	writeLeftOut(w, r.UnknownValues, r.NotAsked)
	writeSuggested(w, "by system", r.Suggested)
	return nil
}

// writeResponseLevel renders RefChecker's response-level meta-evaluation.
func (r *MetricsReport) writeResponseLevel(w io.Writer, labels []string) error {
	if len(r.ResponseLevel) == 0 {
		return nil
	}
	side := "every claim it judged"
	switch {
	case r.Extractor != "":
		side = "the claims of extractor " + r.Extractor
	case len(r.Extractors) > 1:
		side = fmt.Sprintf("the claims of %d extractors pooled (%s; --extractor NAME for one, as corr.py)", len(r.Extractors), listOr(r.Extractors, ""))
	}
	fmt.Fprintf(w, "\nResponse level (RefChecker's meta-evaluation): %s over %s, against the %s\n", r.System, side, who(r.Annotator, r.Adjudicated))
	t := newTable(w, labels)
	t.row("", "responses", "no claim", "accuracy %", "Fact F1 %", "NonFact F1 %", "Pearson %", "Spearman %")
	for _, k := range r.rows {
		rl := r.ResponseLevel[k]
		if rl == nil {
			continue
		}
		t.row(r.show[k], itoa(rl.Responses), itoa(rl.WithoutClaims), pctOf(rl.Accuracy), pct(rl.FactF1), pct(rl.NonFactF1), pctOf(rl.Pearson), pctOf(rl.Spearman))
	}
	if err := t.flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "a response is factual when every claim is entailed; Pearson and Spearman of the share of claims not entailed;")
	fmt.Fprintln(w, "no claim: responses without a claim the system judged, counted factual with rate 0 (as corr.py).")
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (r *MetricsReport) writeVerification(w io.Writer, key string) error {
	v := r.Verification[key]
	fmt.Fprintf(w, "\n%s: %d claims\n", r.show[key], v.N)
	lo := v.LeftOut
	if v.N > 0 {
		labels := append([]string{"class", "macro", "weighted"}, v.classes...)
		t := newTable(w, labels)
		head := []string{"support", "P", "R", "F1"}
		if v.KappaCI95 != nil {
			head = append(head, "F1 95% CI")
		}
		t.row("class", head...)
		for _, c := range v.classes {
			s := v.Classes[c]
			cells := []string{itoa(s.Support), pct(s.Precision), pct(s.Recall), pct(s.F1)}
			if s.F1CI95 != nil {
				cells = append(cells, ciPtr(s.F1CI95, pct))
			}
			t.row(c, cells...)
		}
		macro := []string{"", pct(v.Macro.Precision), pct(v.Macro.Recall), pct(v.Macro.F1)}
		if v.MacroF1CI != nil {
			macro = append(macro, ciPtr(v.MacroF1CI, pct))
		}
		t.row("macro", macro...)
		t.row("weighted", "", pct(v.Weighted.Precision), pct(v.Weighted.Recall), pct(v.Weighted.F1))
		if err := t.flush(); err != nil {
			return err
		}
		fmt.Fprintf(w, "  accuracy %s%%, Cohen's kappa %s\n", pctOf(v.Accuracy), strings.TrimSpace(coefOf(v.Kappa)+" "+ciPtr(v.KappaCI95, coef)))
		if err := writeConfusion(w, "rows: "+r.Annotator+", columns: "+r.System, v.classes, v.counts.Counts, v.counts.Other); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "  left out %d of %d extracted claims: %d not asked, %d not judged, %d judged incorrect, %d without an entailment label, %d without a %s prediction",
		lo.Claims-v.N, lo.Claims, lo.NotAsked, lo.NotJudged, lo.JudgedIncorrect, lo.NoEntailment, lo.NoPrediction, r.System)
	if lo.UnknownValidity+lo.UnknownEntailment > 0 {
		fmt.Fprintf(w, ", %d with a label value outside the schema", lo.UnknownValidity+lo.UnknownEntailment)
	}
	fmt.Fprintln(w)
	return nil
}

// writeConfusion prints a confusion matrix; the other column only when used.
func writeConfusion(w io.Writer, title string, classes []string, counts [][]int, other bool) error {
	fmt.Fprintf(w, "  confusion (%s):\n", title)
	t := newTable(w, append([]string{""}, classes...))
	head := append([]string{}, classes...)
	if other {
		head = append(head, OtherColumn)
	}
	t.row("", head...)
	for i, c := range classes {
		var cells []string
		for _, n := range counts[i] {
			cells = append(cells, itoa(n))
		}
		t.row(c, cells...)
	}
	return t.flush()
}

// WriteText renders the agreement of each field.
func (r *AgreementReport) WriteText(w io.Writer) error {
	if len(r.Annotators) == 0 {
		// A field nobody has answered yet (one just declared): say so
		// rather than print a table of no one.
		for _, name := range r.order {
			fmt.Fprintf(w, "%s: no annotator has labelled it yet", name)
			if out := r.Fields[name].LeftOut; len(out) > 0 {
				fmt.Fprintf(w, " (none of %s)", strings.Join(out, ", "))
			}
			fmt.Fprintln(w)
		}
		return nil
	}
	fmt.Fprintf(w, "Agreement between %s\n", strings.Join(r.Annotators, ", "))
	for _, name := range r.order {
		fa := r.Fields[name]
		if len(fa.LeftOut) > 0 {
			fmt.Fprintf(w, "  %s: left out %s (no label of this field)\n", name, strings.Join(fa.LeftOut, ", "))
		}
	}
	for _, name := range r.order {
		if err := r.writeField(w, name); err != nil {
			return err
		}
	}
	if r.Bootstrap != nil {
		fmt.Fprintf(w, "\nIntervals: percentile bootstrap, %d replicates, seed %d.\n", r.Bootstrap.Replicates, r.Bootstrap.Seed)
	}
	for _, name := range r.order {
		writeSuggested(w, name, r.Suggested[name])
	}
	for _, name := range r.order {
		if n := r.OwnAdjudications[name]; n > 0 {
			fmt.Fprintf(w, "%s: %d adjudicated by a lead who had labelled the unit (review --allow-own)\n", name, n)
		}
	}
	return nil
}

func (r *AgreementReport) writeField(w io.Writer, name string) error {
	fa := r.Fields[name]
	fmt.Fprintf(w, "\n%s (%s): ", name, strings.Join(fa.Annotators, ", "))
	if fa.Items == 0 {
		fmt.Fprintf(w, "no item labelled by two of them\n")
		r.writeFieldLeftOut(w, fa)
		return nil
	}
	fmt.Fprintf(w, "%d items labelled by at least two, %d by all %d\n", fa.Items, fa.Complete, len(fa.Annotators))
	sc := fa.Scaled
	if sc != nil {
		fmt.Fprintf(w, "  %s scale: %s\n", fa.Scale, strings.Join(fa.Classes, " < "))
	}
	widest := "Krippendorff's alpha"
	if sc != nil {
		widest += ", " + sc.Metric
	}
	t := newTable(w, []string{widest})
	t.row("percent agreement", percentText(fa.PercentAgreement), "")
	if sc != nil {
		t.row("within one step", percentText(sc.PercentWithinOne), "")
	}
	t.row("Fleiss' kappa", coefOf(fa.FleissKappa), ciPtr(fa.FleissKappaCI95, coef))
	t.row("Krippendorff's alpha", coefOf(fa.KrippendorffAlpha), ciPtr(fa.KrippendorffAlphaCI95, coef))
	if sc != nil {
		t.row("Krippendorff's alpha, "+sc.Metric, coefOf(sc.KrippendorffAlpha), ciPtr(sc.KrippendorffAlphaCI95, coef))
	}
	t.row("Gwet's AC1", coefOf(fa.GwetAC1), ciPtr(fa.GwetAC1CI95, coef))
	if o := fa.GwetAC1Observed; coefOf(o) != coefOf(fa.GwetAC1) {
		// Some class of the field is never used: irrCAC's default (the
		// classes used) gives another AC1 (docs/metrics.md).
		t.row("  over the classes used", coefOf(o), "")
	}
	if err := t.flush(); err != nil {
		return err
	}
	var parts []string
	for _, c := range fa.Classes {
		parts = append(parts, c+" "+coefOf(fa.PerClass[c].FleissKappa))
	}
	fmt.Fprintf(w, "  per class Fleiss' kappa: %s\n", strings.Join(parts, ", "))
	labels := []string{"pair"}
	for _, p := range fa.Pairs {
		labels = append(labels, p.A+" / "+p.B)
	}
	t = newTable(w, labels)
	head := []string{"n", "agree %", "Cohen's kappa"}
	t.row("pair", head...)
	for _, p := range fa.Pairs {
		t.row(p.A+" / "+p.B, itoa(p.N), pctOf(p.PercentAgreement), coefOf(p.CohenKappa), ciPtr(p.CohenKappaCI95, coef))
	}
	if err := t.flush(); err != nil {
		return err
	}
	if err := writeScaledPairs(w, fa, labels, r.Bootstrap != nil); err != nil {
		return err
	}
	for _, p := range fa.Pairs {
		if p.N == 0 {
			continue
		}
		if err := writeConfusion(w, "rows: "+p.A+", columns: "+p.B, fa.Classes, p.counts.Counts, false); err != nil {
			return err
		}
	}
	if err := writeVersions(w, fa); err != nil {
		return err
	}
	r.writeFieldLeftOut(w, fa)
	if fa.Disagreements != nil {
		fmt.Fprintf(w, "  %d disagreements:\n", len(fa.Disagreements))
		t = newTable(w, []string{"item"})
		t.row("item", fa.Annotators...)
		for _, d := range fa.Disagreements {
			var cells []string
			for _, a := range fa.Annotators {
				v := d.Labels[a]
				if v == "" {
					v = "-"
				}
				cells = append(cells, v)
			}
			t.row(d.Item, cells...)
		}
		return t.flush()
	}
	return nil
}

// percentText is a share as "95.9%", or the undefined mark.
func percentText(x *float64) string {
	if x == nil {
		return undefinedText
	}
	return pct(*x) + "%"
}

// writeScaledPairs prints, for an ordinal or interval field, each pair's
// statistics on the scale (with ci, the intervals beside the kappas).
func writeScaledPairs(w io.Writer, fa *FieldAgreement, labels []string, ci bool) error {
	if fa.Scaled == nil || len(fa.Pairs) == 0 {
		return nil
	}
	title := "pair, " + fa.Scale + " scale"
	t := newTable(w, append(slices.Clone(labels), title))
	head := []string{"within one %", "kappa linear", "kappa quadratic"}
	if ci {
		head = []string{"within one %", "kappa linear", "95% interval", "kappa quadratic", "95% interval"}
	}
	t.row(title, head...)
	for _, p := range fa.Pairs {
		s := p.Scaled
		cells := []string{pctOf(s.PercentWithinOne), coefOf(s.CohenKappaLinear), coefOf(s.CohenKappaQuadratic)}
		if ci {
			cells = []string{pctOf(s.PercentWithinOne), coefOf(s.CohenKappaLinear), ciPtr(s.CohenKappaLinearCI95, coef),
				coefOf(s.CohenKappaQuadratic), ciPtr(s.CohenKappaQuadraticCI95, coef)}
		}
		t.row(p.A+" / "+p.B, cells...)
	}
	return t.flush()
}

func (r *AgreementReport) writeFieldLeftOut(w io.Writer, fa *FieldAgreement) {
	for _, a := range fa.Annotators {
		var parts []string
		for _, v := range sortedKeys(fa.UnknownValues[a]) {
			parts = append(parts, fmt.Sprintf("%q %d", v, fa.UnknownValues[a][v]))
		}
		if n := fa.NotAsked[a]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d not asked given %s's other labels", n, a))
		}
		if len(parts) > 0 {
			fmt.Fprintf(w, "  left out for %s: %s\n", a, strings.Join(parts, ", "))
		}
	}
}
