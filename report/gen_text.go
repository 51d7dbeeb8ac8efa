package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/annotate-dev/annotate/schema"
)

// WriteText renders the generation report: the systems' table, the judge
// against the expert, the error categories and the bounds.
func (r *GenReport) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "Generated answers, %s (judge: %s)\n\n", who(r.Annotator, r.Annotator == adjudicatedName), r.Judge)
	if err := writeGenTable(w, r.Systems); err != nil {
		return err
	}
	fmt.Fprintln(w, "accuracy: claims supported by the accepted gold answer / claims judged; groundedness: claims grounded in")
	fmt.Fprintln(w, "the documents the answer used / claims judged (Wilson 95% intervals); judge: the same over every claim")
	fmt.Fprintln(w, "with a verdict of the judge; chars: mean answer length in characters.")
	fmt.Fprintf(w, "Gold answers: %d accepted, mean %s characters (%d submitted, mean %s).\n",
		r.AnswerLengths.Gold.Answers, meanOf(r.AnswerLengths.Gold.MeanChars), r.AnswerLengths.Written.Answers, meanOf(r.AnswerLengths.Written.MeanChars))
	for _, attr := range sortedKeys(r.By) {
		for _, v := range sortedKeys(r.By[attr]) {
			fmt.Fprintf(w, "\n%s %s\n", attr, orNoneText(v))
			if err := writeGenTable(w, r.By[attr][v]); err != nil {
				return err
			}
		}
	}
	for _, f := range []string{schema.AccuracySupport, schema.Grounded} {
		a := r.JudgeVsExpert[f]
		fmt.Fprintf(w, "\nJudge %s against %s, %s: %d claims\n", r.Judge, r.Annotator, f, a.N)
		if a.N == 0 {
			continue
		}
		t := newTable(w, append([]string{"class"}, a.classes...))
		t.row("class", "support", "P", "R", "F1")
		for _, c := range a.classes {
			s := a.Classes[c]
			t.row(c, itoa(s.Support), pct(s.Precision), pct(s.Recall), pct(s.F1))
		}
		if err := t.flush(); err != nil {
			return err
		}
		fmt.Fprintf(w, "  accuracy %s%%, macro F1 %s%%, Cohen's kappa %s\n", pctOf(a.Accuracy), pctOf(a.MacroF1), coefOf(a.Kappa))
		if err := writeConfusion(w, "rows: "+r.Annotator+", columns: "+r.Judge, a.classes, a.counts.Counts, a.counts.Other); err != nil {
			return err
		}
	}
	if err := writeErrors(w, r.Errors, r.taxonomy); err != nil {
		return err
	}
	if len(r.UnknownCategories) > 0 {
		var parts []string
		for _, v := range sortedKeys(r.UnknownCategories) {
			parts = append(parts, fmt.Sprintf("%s (%d)", v, r.UnknownCategories[v]))
		}
		fmt.Fprintf(w, "  outside the taxonomy, in no group: %s\n", strings.Join(parts, ", "))
	}
	writeBounds(w, "", r.HallucinationRate)
	for _, sys := range sortedKeys(r.Systems) {
		for _, cond := range sortedKeys(r.Systems[sys]) {
			c := r.Systems[sys][cond]
			if c.Errors.Claims > 0 {
				writeBounds(w, sys+" "+cond+": ", c.HallucinationRate)
			}
		}
	}
	return nil
}

func writeGenTable(w io.Writer, cells map[string]map[string]*GenCell) error {
	labels := []string{"system"}
	for sys := range cells {
		labels = append(labels, sys)
	}
	t := newTable(w, labels)
	t.row("system", "condition", "answers", "claims", "judged", "accuracy %", "95% CI", "grounded %", "95% CI", "judge acc %", "judge grd %", "chars")
	for _, sys := range sortedKeys(cells) {
		for _, cond := range sortedKeys(cells[sys]) {
			c := cells[sys][cond]
			t.row(sys, cond, itoa(c.Answers), itoa(c.Claims), itoa(c.Judged), pctOf(c.Accuracy), ci(c.AccuracyCI),
				pctOf(c.Groundedness), ci(c.GroundednessCI), pctOf(c.Judge.Accuracy), pctOf(c.Judge.Groundedness), meanOf(c.MeanChars))
		}
	}
	return t.flush()
}

func writeErrors(w io.Writer, d *ErrorDistribution, tax []schema.ErrorKind) error {
	fmt.Fprintf(w, "\nError categories: %d claims categorised, %d assignments (a claim may have several)\n", d.Claims, d.Assignments)
	if d.Claims == 0 {
		return nil
	}
	order := []string{}
	for _, c := range tax {
		order = append(order, c.Value)
	}
	for _, v := range sortedKeys(d.Categories) {
		if !contains(order, v) {
			order = append(order, v)
		}
	}
	t := newTable(w, append([]string{"category"}, order...))
	t.row("category", "group", "claims", "% of claims", "assignments", "% of assignments")
	for _, v := range order {
		s := d.Categories[v]
		if s == nil || s.Claims == 0 {
			continue
		}
		t.row(v, orNoneText(s.Group), itoa(s.Claims), pctOf(s.ShareOfClaims), itoa(s.Assignments), pctOf(s.ShareOfAssignments))
	}
	for _, g := range sortedKeys(d.Groups) {
		s := d.Groups[g]
		t.row("group "+g, "", itoa(s.Claims), pctOf(s.ShareOfClaims), itoa(s.Assignments), pctOf(s.ShareOfAssignments))
	}
	return t.flush()
}

func writeBounds(w io.Writer, prefix string, h *HallucinationRate) {
	if h.Upper == nil {
		fmt.Fprintf(w, "%sHallucination rate: — (no claim judged for groundedness)\n", prefix)
		return
	}
	if h.Lower == nil {
		fmt.Fprintf(w, "%sHallucination rate: at most %s%% (the %s's not-grounded rate over %d claims; no claim categorised for the lower bound)\n",
			prefix, pctOf(h.Upper), h.RateFrom, h.RateClaims)
		return
	}
	fmt.Fprintf(w, "%sHallucination rate: between %s%% and %s%% (hallucinations %s%% of categorised claims × not grounded %s%% of %d claims, by the %s)\n",
		prefix, pctOf(h.Lower), pctOf(h.Upper), pctOf(h.HallucinationShare), pctOf(h.NotGroundedRate), h.RateClaims, h.RateFrom)
}

func meanOf(x *float64) string {
	if x == nil {
		return undefinedText
	}
	return fmt.Sprintf("%.0f", *x)
}

func orNoneText(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
