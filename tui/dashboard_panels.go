package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/store"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// The dashboard's panels. Every figure is the reports' own (report.*Text
// prints it as the commands do); names from the database reach the terminal
// through SanitizeLine.

type dashPanel int

const (
	panelProgress dashPanel = iota
	panelActivity
	panelCost
	panelAgreement
	panelPairs
	panelSystem
	panelIR
	panelErrors
)

// dashPanels names the panels in focus order.
var dashPanels = []struct{ name string }{
	panelProgress:  {"Progress"},
	panelActivity:  {"Labels per day"},
	panelCost:      {"Cost so far"},
	panelAgreement: {"Agreement"},
	panelPairs:     {"Annotator × annotator"},
	panelSystem:    {"Expert × system"},
	panelIR:        {"IR before → after"},
	panelErrors:    {"Errors by category"},
}

// summary is the short figure a panel's title carries.
func (d *dashboardScreen) summary(p dashPanel) string {
	r := d.rep
	if r == nil {
		return ""
	}
	switch p {
	case panelProgress:
		done, total := 0, 0
		for _, q := range r.Progress {
			if q.Batch == "" {
				done, total = done+q.Done, total+q.Total
			}
		}
		return itoa(done) + "/" + itoa(total) + " " + ui.Percent(nil, done, total)
	case panelActivity:
		if len(r.Days) == 0 {
			return ""
		}
		return itoa(dayLabels(r.Days[len(r.Days)-1])) + " today"
	case panelCost:
		if r.Cost != nil && r.Cost.Total.Cost != nil {
			return fmt.Sprintf("%.2f %s", *r.Cost.Total.Cost, ui.SanitizeLine(r.Cost.Total.Currency))
		}
	case panelAgreement:
		if r.Agreement != nil {
			return itoa(len(agreedFields(r.Agreement))) + " fields"
		}
	case panelSystem:
		if v := systemVerification(r); v != nil {
			return "κ " + report.CoefText(v.Kappa)
		}
	case panelIR:
		if r.IR != nil {
			return ui.Plural(len(r.IR.RunOrder()), "run")
		}
	case panelErrors:
		if r.Gen != nil && r.Gen.Errors != nil {
			return ui.Plural(r.Gen.Errors.Claims, "generated claim") // the error taxonomy sorts generated claims
		}
	}
	return ""
}

// panelLines draws a panel's body in w×h cells (h is a hint: the caller cuts).
func (d *dashboardScreen) panelLines(p dashPanel, w, h int) []string {
	r, st := d.rep, d.e.styles
	note := func(s string) []string {
		var out []string
		for _, l := range ui.Wrap(ui.Sanitize(s), w) {
			out = append(out, st.Dim.Render(l))
		}
		return out
	}
	switch p {
	case panelProgress:
		return progressLines(st, r.Progress, w)
	case panelActivity:
		return activityLines(st, r.Days, w)
	case panelCost:
		return costLines(st, r.Cost, w)
	case panelAgreement:
		if r.Agreement == nil {
			return note(r.AgreementErr)
		}
		return agreementLines(st, r.Agreement, w)
	case panelPairs:
		if r.Agreement == nil {
			return note(r.AgreementErr)
		}
		field, pair := busiestPair(r.Agreement)
		if pair == nil {
			return note("No item labelled by two annotators yet.")
		}
		fa := r.Agreement.Fields[field]
		head := st.Dim.Render(ui.Truncate(field+": rows "+ui.SanitizeLine(pair.A)+", columns "+ui.SanitizeLine(pair.B)+" · κ "+report.CoefText(pair.CohenKappa), w))
		return append([]string{head}, heatmapOf(fa.Classes, fa.Classes, pair.Confusion).Lines(st, w)...)
	case panelSystem:
		if r.Metrics == nil {
			return note(r.MetricsErr)
		}
		v := systemVerification(r)
		if v == nil || v.N == 0 {
			return note("No claim both the expert and " + r.Metrics.System + " judged yet.")
		}
		who := r.Metrics.Annotator
		if r.Metrics.Adjudicated {
			who = "adjudicated"
		}
		head := st.Dim.Render(ui.Truncate("entailment: rows "+ui.SanitizeLine(who)+", columns "+ui.SanitizeLine(r.Metrics.System)+" · n "+itoa(v.N)+" · acc "+report.PercentText(v.Accuracy)+"%", w))
		classes := v.ClassOrder()
		return append([]string{head}, heatmapOf(classes, append(slices.Clip(classes), "other"), v.Confusion).Lines(st, w)...)
	case panelIR:
		if r.IR == nil {
			return note(r.IRErr)
		}
		return irLines(st, r.IR, w)
	case panelErrors:
		if r.Gen == nil {
			return note(r.GenErr)
		}
		return errorLines(st, r.Gen, w)
	}
	return nil
}

func dayLabels(d store.LabelDay) int {
	n := 0
	for _, v := range d.Labels {
		n += v
	}
	return n
}

func progressLines(st ui.Styles, qs []store.QueueProgress, w int) []string {
	if len(qs) == 0 {
		return []string{st.Dim.Render(ui.Truncate("No annotator yet.", w))}
	}
	nameW := 0
	for _, q := range qs {
		nameW = max(nameW, ui.TextWidth(ui.SanitizeLine(q.Annotator)))
	}
	nameW = min(nameW, 12)
	queueW := min(16, max(6, w/4))
	// name queue bar done/total pct, with a space between each.
	barW := min(40, max(0, w-nameW-queueW-11-4-4))
	var out []string
	last := ""
	for _, q := range qs {
		name := ""
		if q.Annotator != last {
			name, last = ui.SanitizeLine(q.Annotator), q.Annotator
		}
		queue := q.Kind
		if q.Batch != "" {
			queue = ui.SanitizeLine(q.Batch)
		}
		line := st.Label.Render(ui.PadRight(name, nameW)) + " " + ui.PadRight(queue, queueW) + " "
		if barW >= 4 {
			line += ui.StyledBar(st, q.Done, q.Total, barW) + " "
		}
		line += ui.PadLeft(itoa(q.Done)+"/"+itoa(q.Total), 11) + " " + ui.PadLeft(ui.Percent(nil, q.Done, q.Total), 4)
		out = append(out, ui.TruncateStyled(line, w))
	}
	return out
}

// activityLines: decisions and active hours per day, all annotators, then
// each annotator's decisions; the oldest day first, today last.
func activityLines(st ui.Styles, days []store.LabelDay, w int) []string {
	if len(days) == 0 {
		return nil
	}
	var labels, hours []int64
	who := map[string]bool{}
	var activeToday int64
	for _, d := range days {
		var ms int64
		for a, v := range d.ActiveMs {
			ms += v
			who[a] = true
		}
		for a := range d.Labels {
			who[a] = true
		}
		labels, hours = append(labels, int64(dayLabels(d))), append(hours, ms)
		activeToday = ms
	}
	span := ui.Plural(len(days), "day") + " to today"
	out := []string{st.Dim.Render(ui.Truncate(span+", a cell a day (· none)", w))}
	row := func(name string, vals []int64, last string) string {
		const nameW = 12
		return ui.TruncateStyled(st.Label.Render(ui.PadRight(name, nameW))+" "+ui.Sparkline(vals, len(vals))+" "+last, w)
	}
	out = append(out, row("labels", labels, itoa(int(labels[len(labels)-1]))+" today"))
	out = append(out, row("active hours", hours, fmt.Sprintf("%.1f h today", float64(activeToday)/3.6e6)))
	names := make([]string, 0, len(who))
	for a := range who {
		names = append(names, a)
	}
	slices.Sort(names)
	for _, a := range names {
		var vals []int64
		for _, d := range days {
			vals = append(vals, int64(d.Labels[a]))
		}
		out = append(out, row("  "+ui.SanitizeLine(a), vals, itoa(int(vals[len(vals)-1]))))
	}
	return out
}

func costLines(st ui.Styles, c *report.CostReport, w int) []string {
	if c == nil || len(c.Annotators) == 0 {
		return []string{st.Dim.Render(ui.Truncate("No work recorded yet.", w))}
	}
	names := make([]string, 0, len(c.Annotators))
	for a := range c.Annotators {
		names = append(names, a)
	}
	slices.Sort(names)
	money := func(x *float64, cur string) string {
		if x == nil {
			return "no rate"
		}
		return fmt.Sprintf("%.2f %s", *x, ui.SanitizeLine(cur))
	}
	out := []string{st.Dim.Render(ui.Truncate(ui.PadRight("", 12)+" "+ui.PadLeft("items", 7)+" "+ui.PadLeft("session h", 9)+" "+ui.PadLeft("cost", 13), w))}
	for _, a := range names {
		x := c.Annotators[a]
		out = append(out, ui.TruncateStyled(st.Label.Render(ui.PadRight(ui.SanitizeLine(a), 12))+" "+ui.PadLeft(itoa(x.Items), 7)+" "+
			ui.PadLeft(fmt.Sprintf("%.2f", x.SessionHours), 9)+" "+ui.PadLeft(money(x.Cost, x.Currency), 13), w))
	}
	total := "—"
	if c.Total.Cost != nil {
		total = money(c.Total.Cost, c.Total.Currency)
	}
	out = append(out, ui.TruncateStyled(st.Title.Render(ui.PadRight("total", 12))+" "+ui.PadLeft(itoa(c.Total.Items), 7)+" "+
		ui.PadLeft(fmt.Sprintf("%.2f", c.Total.SessionHours), 9)+" "+ui.PadLeft(total, 13), w))
	out = append(out, st.Dim.Render(ui.Truncate("paid by the session hour · per task: annotate cost", w)))
	return out
}

// agreedFields are the fields some items of which two annotators labelled.
func agreedFields(a *report.AgreementReport) []string {
	var out []string
	for _, f := range a.FieldOrder() {
		if fa := a.Fields[f]; fa != nil && fa.Items > 0 {
			out = append(out, f)
		}
	}
	return out
}

// coefCell is a coefficient as `agreement` prints it, coloured by its band
// and followed by the band's initial (readable without colour).
func coefCell(st ui.Styles, x *float64) string {
	text := report.CoefText(x)
	if x == nil {
		return ui.PadLeft(text, 6) + "   "
	}
	b := ui.BandOf(*x)
	return st.BandStyle(b).Render(ui.PadLeft(text, 6)) + " " + ui.PadRight(bandMark[b], 2)
}

// bandMark abbreviates a band: poor, slight, fair, moderate, substantial,
// almost perfect.
var bandMark = []string{"P", "S", "F", "M", "S+", "A"}

func agreementLines(st ui.Styles, a *report.AgreementReport, w int) []string {
	fields := agreedFields(a)
	if len(fields) == 0 {
		return []string{st.Dim.Render(ui.Truncate("No item labelled by two annotators yet.", w))}
	}
	nameW := 0
	for _, f := range fields {
		nameW = max(nameW, len(f))
	}
	nameW = min(nameW, max(8, w-40))
	head := ui.PadRight("", nameW) + " " + ui.PadLeft("α", 6) + "    " + ui.PadLeft("κ", 6) + "    " + ui.PadLeft("agree", 6) + " " + ui.PadLeft("items", 6)
	out := []string{st.Dim.Render(ui.Truncate(head, w))}
	scaled := false
	for _, f := range fields {
		fa := a.Fields[f]
		line := ui.PadRight(f, nameW) + " " + coefCell(st, fa.KrippendorffAlpha) + " " + coefCell(st, fa.FleissKappa) + " " + ui.PadLeft(percentCell(fa.PercentAgreement), 6) + " " + ui.PadLeft(itoa(fa.Items), 6)
		out = append(out, ui.TruncateStyled(line, w))
		// An ordinal or interval field: α on its scale, and the labels
		// within one step, on a line of their own under the nominal ones.
		if sc := fa.Scaled; sc != nil {
			scaled = true
			line := ui.PadRight("  "+sc.Metric, nameW) + " " + coefCell(st, sc.KrippendorffAlpha) + " " + ui.PadLeft("", 9) + " " + ui.PadLeft(percentCell(sc.PercentWithinOne), 6) + " " + ui.PadLeft("±1", 6)
			out = append(out, ui.TruncateStyled(line, w))
		}
	}
	legend := "α Krippendorff, κ Fleiss · bands P S F M S+ A (Landis–Koch)"
	if scaled {
		legend = "α Krippendorff (indented: on the field's scale, agree within ±1 step), κ Fleiss · bands P S F M S+ A"
	}
	out = append(out, st.Dim.Render(ui.Truncate(legend, w)))
	return out
}

// percentCell is a share as the panel prints it: "66.7%", or the
// undefined mark.
func percentCell(x *float64) string {
	if x == nil {
		return report.PercentText(x)
	}
	return report.PercentText(x) + "%"
}

// busiestPair is the pair of annotators with the most items in common
// among the pairs that disagree on something (a table of agreements only
// teaches nothing), on the field where they have the most.
func busiestPair(a *report.AgreementReport) (string, *report.PairAgreement) {
	var field string
	var best *report.PairAgreement
	better := func(p *report.PairAgreement) bool {
		if best == nil {
			return true
		}
		if d, bd := disagrees(p), disagrees(best); d != bd {
			return d
		}
		return p.N > best.N
	}
	for _, f := range a.FieldOrder() {
		for _, p := range a.Fields[f].Pairs {
			if p.N > 0 && better(p) {
				field, best = f, p
			}
		}
	}
	return field, best
}

func disagrees(p *report.PairAgreement) bool {
	return p.PercentAgreement != nil && *p.PercentAgreement < 1
}

func heatmapOf(rows, cols []string, m map[string]map[string]int) ui.Heatmap {
	h := ui.Heatmap{}
	for _, r := range rows {
		h.Rows = append(h.Rows, ui.SanitizeLine(r))
		var line []int
		for _, c := range cols {
			line = append(line, m[r][c])
		}
		h.Counts = append(h.Counts, line)
	}
	for _, c := range cols {
		h.Cols = append(h.Cols, ui.SanitizeLine(c))
	}
	return h
}

// systemVerification is the expert-against-system scores over every source.
func systemVerification(r *report.DashboardReport) *report.Verification {
	if r.Metrics == nil {
		return nil
	}
	return r.Metrics.Verification["all"]
}

func irLines(st ui.Styles, ir *report.IRReport, w int) []string {
	runs := ir.RunOrder()
	nameW := 0
	for _, run := range runs {
		nameW = max(nameW, ui.TextWidth(ui.SanitizeLine(run)))
	}
	nameW = min(nameW, 18)
	out := []string{st.Dim.Render(ui.Truncate(fmt.Sprintf("nDCG@%d before → after (Δ) · %d judged, %d added, %d dropped", ir.K,
		ir.Judgments.Judged, ir.Judgments.Added, ir.Judgments.Dropped), w))}
	barW := max(0, w-nameW-28)
	for _, run := range runs {
		x := ir.Runs[run]
		delta := report.PercentText(x.Delta.NDCG)
		if x.Delta.NDCG != nil && *x.Delta.NDCG >= 0 {
			delta = "+" + delta
		}
		line := st.Label.Render(ui.PadRight(ui.SanitizeLine(run), nameW)) + " " +
			ui.PadLeft(report.PercentText(x.Before.NDCG), 5) + " → " + ui.PadLeft(report.PercentText(x.After.NDCG), 5) + " (" + delta + ")"
		if barW >= 4 && x.After.NDCG != nil {
			line += " " + ui.StyledBar(st, int(*x.After.NDCG*1000), 1000, min(barW, 30))
		}
		out = append(out, ui.TruncateStyled(line, w))
	}
	return out
}

func errorLines(st ui.Styles, g *report.GenReport, w int) []string {
	e := g.Errors
	if e == nil || e.Claims == 0 {
		return []string{st.Dim.Render(ui.Truncate("No generated claim categorised yet.", w))}
	}
	out := []string{st.Dim.Render(ui.Truncate(fmt.Sprintf("%d claims categorised, %d assignments; share of claims", e.Claims, e.Assignments), w))}
	type row struct {
		name  string
		share *report.ErrorShare
		group bool
	}
	var rows []row
	groups := make([]string, 0, len(e.Groups))
	for gname := range e.Groups {
		groups = append(groups, gname)
	}
	slices.Sort(groups)
	for _, gname := range groups {
		rows = append(rows, row{gname, e.Groups[gname], true})
		var cats []string
		for c, s := range e.Categories {
			if s.Group == gname {
				cats = append(cats, c)
			}
		}
		slices.Sort(cats)
		for _, c := range cats {
			rows = append(rows, row{"  " + c, e.Categories[c], false})
		}
	}
	nameW := min(24, max(10, w/3))
	barW := max(0, w-nameW-16)
	for _, r := range rows {
		name := ui.PadRight(ui.SanitizeLine(r.name), nameW)
		if r.group {
			name = st.Label.Render(name)
		}
		line := name + " " + ui.PadLeft(itoa(r.share.Claims), 5) + " " + ui.PadLeft(report.PercentText(r.share.ShareOfClaims)+"%", 6)
		if barW >= 4 && r.share.ShareOfClaims != nil {
			line += " " + ui.StyledBar(st, int(*r.share.ShareOfClaims*1000), 1000, min(barW, 30))
		}
		out = append(out, ui.TruncateStyled(line, w))
	}
	return out
}

// detailText is a panel's detail: the text the matching command prints on
// the same state (the progress and the days as tables).
func detailText(p dashPanel, r *report.DashboardReport) (string, string) {
	var b strings.Builder
	write := func(fn func() error, errText string) {
		if errText != "" {
			b.WriteString(errText + "\n")
			return
		}
		fn()
	}
	switch p {
	case panelProgress:
		fmt.Fprintf(&b, "%-14s %-20s %-12s %7s %7s %5s\n", "annotator", "queue", "kind", "done", "total", "")
		for _, q := range r.Progress {
			queue := q.Batch
			if queue == "" {
				queue = "(all items)"
			} else if q.Pilot {
				queue += " (pilot)"
			}
			fmt.Fprintf(&b, "%-14s %-20s %-12s %7d %7d %5s\n", q.Annotator, queue, q.Kind, q.Done, q.Total, ui.Percent(nil, q.Done, q.Total))
		}
		return "Progress (annotate progress)", b.String()
	case panelActivity:
		fmt.Fprintf(&b, "%-10s %-14s %9s %12s\n", "day", "annotator", "decisions", "active h")
		for _, d := range r.Days {
			names := make([]string, 0, len(d.Labels))
			for a := range d.Labels {
				names = append(names, a)
			}
			slices.Sort(names)
			for _, a := range names {
				fmt.Fprintf(&b, "%-10s %-14s %9d %12.2f\n", d.Day, a, d.Labels[a], float64(d.ActiveMs[a])/3.6e6)
			}
		}
		return "Labels and active hours per day (UTC)", b.String()
	case panelCost:
		r.Cost.WriteText(&b)
		b.WriteString("\nThe session hours of each task and the active hours: annotate cost.\n")
		return "Cost so far (annotate cost)", b.String()
	case panelAgreement, panelPairs:
		write(func() error { return r.Agreement.WriteText(&b) }, r.AgreementErr)
		return "Agreement (annotate agreement)", b.String()
	case panelSystem:
		write(func() error { return r.Metrics.WriteText(&b) }, r.MetricsErr)
		return "Expert against system (annotate metrics)", b.String()
	case panelIR:
		write(func() error { return r.IR.WriteText(&b) }, r.IRErr)
		return "Retrieval before and after the experts' judgments (annotate ir)", b.String()
	case panelErrors:
		write(func() error { return r.Gen.WriteText(&b) }, r.GenErr)
		return "Generated claims (annotate gen)", b.String()
	}
	return "", ""
}
