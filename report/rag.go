package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/annotate-dev/annotate/metrics"
	"github.com/annotate-dev/annotate/store"
)

// `annotate rag`: RAGChecker's 11 metrics per system and source, recomputed
// from the matrices its checking output stored (metrics.RAGResultScores),
// the layout of ClaimRAG-LAW's Table 2. With an expert, the same again over
// the ground-truth claims the expert did not judge incorrect, the
// difference, and how many claims that removed.

// RAGOptions select the report.
type RAGOptions struct {
	// Expert names the annotator whose claim_validity labels of the
	// ground-truth claims give the expert figures; "" for none.
	Expert string
	// Adjudicated takes the adjudicated labels instead (Expert "").
	Adjudicated bool
	// Systems keeps only these systems; nil for every one.
	Systems []string
}

// RAGGroup is one set of results (a system, or a system's source).
type RAGGroup struct {
	Results int `json:"results"`
	// All: RAGChecker's figures over every ground-truth claim, as its own
	// evaluation computes them; null when there is no result.
	All *metrics.RAGScores `json:"all"`
	// Expert: the same without the ground-truth claims the expert judged
	// incorrect; Delta = Expert − All. Null without --expert.
	Expert *metrics.RAGScores `json:"expert"`
	Delta  *metrics.RAGScores `json:"delta"`
	// AnswerClaims are the ground-truth claims of these results; the
	// expert judged JudgedClaims of them and RemovedClaims incorrect (null
	// without --expert).
	AnswerClaims  int  `json:"answer_claims"`
	JudgedClaims  *int `json:"judged_claims"`
	RemovedClaims *int `json:"removed_claims"`
}

// RAGSystem is a system's figures over all its results and per source.
type RAGSystem struct {
	RAGGroup
	BySource map[string]*RAGGroup `json:"by_source"`
}

// RAGReport is the report; Systems by name.
type RAGReport struct {
	Expert  string                `json:"expert,omitempty"`
	Metrics []string              `json:"metrics"`
	Systems map[string]*RAGSystem `json:"systems"`
	// Incomplete counts the results left out because the file lacked one
	// of the four matrices (a checking input, or a partial run).
	Incomplete int `json:"incomplete_results"`
}

// ragAcc gathers a group's per-result scores.
type ragAcc struct {
	all, expert             []metrics.RAGScores
	claims, judged, removed int
}

func (a *ragAcc) group(expert bool) *RAGGroup {
	g := &RAGGroup{Results: len(a.all), AnswerClaims: a.claims}
	if m, ok := metrics.RAGMean(a.all); ok {
		g.All = &m
	}
	if expert {
		judged, removed := a.judged, a.removed
		g.JudgedClaims, g.RemovedClaims = &judged, &removed
		if m, ok := metrics.RAGMean(a.expert); ok {
			g.Expert = &m
			if g.All != nil {
				d := m.Minus(*g.All)
				g.Delta = &d
			}
		}
	}
	return g
}

// RAG computes the report from the stored results.
func RAG(rx *store.ReadTx, o RAGOptions) (*RAGReport, error) {
	var rows []store.RAGRow
	var err error
	switch {
	case o.Adjudicated && o.Expert != "":
		return nil, fmt.Errorf("--expert and --adjudicated: choose one")
	case o.Adjudicated:
		rows, err = rx.RAGResultsAdjudicated()
		o.Expert = adjudicatedName
	default:
		rows, err = rx.RAGResults(o.Expert)
	}
	if err != nil {
		return nil, err
	}
	keep := map[string]bool{}
	for _, sys := range o.Systems {
		keep[sys] = true
	}
	rep := &RAGReport{Expert: o.Expert, Metrics: metrics.RAGMetricNames, Systems: map[string]*RAGSystem{}}
	type key struct{ system, source string }
	accs := map[key]*ragAcc{}
	acc := func(k key) *ragAcc {
		a := accs[k]
		if a == nil {
			a = &ragAcc{}
			accs[k] = a
		}
		return a
	}
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r.System] = true
		if len(keep) > 0 && !keep[r.System] {
			continue
		}
		m, ok, err := ragMatrices(r)
		if err != nil {
			return nil, err
		}
		if !ok {
			rep.Incomplete++
			continue
		}
		score := metrics.RAGResultScores(m)
		var drop []bool
		judged := 0
		for _, v := range r.Validity {
			drop = append(drop, v == "incorrect")
			if v != "" {
				judged++
			}
		}
		kept, removed := metrics.WithoutAnswerClaims(m, drop)
		expert := metrics.RAGResultScores(kept)
		for _, k := range []key{{r.System, ""}, {r.System, r.Source}} {
			a := acc(k)
			a.all, a.expert = append(a.all, score), append(a.expert, expert)
			a.claims += len(m.ResponseToAnswer)
			a.judged += judged
			a.removed += removed
		}
	}
	for _, sys := range o.Systems {
		if !seen[sys] {
			return nil, fmt.Errorf("no RAGChecker results of system %q (import its checking output with --system %s)", sys, sys)
		}
	}
	for k, a := range accs {
		if k.source != "" {
			continue
		}
		rep.Systems[k.system] = &RAGSystem{RAGGroup: *a.group(o.Expert != ""), BySource: map[string]*RAGGroup{}}
	}
	for k, a := range accs {
		if k.source != "" {
			rep.Systems[k.system].BySource[k.source] = a.group(o.Expert != "")
		}
	}
	return rep, nil
}

// ragMatrices decodes a stored result; false when one of the four matrices
// is missing.
func ragMatrices(r store.RAGRow) (metrics.RAGMatrices, bool, error) {
	var m metrics.RAGMatrices
	parts := []struct {
		name, js string
		dst      any
	}{
		{"answer2response", r.AnswerToResponse, &m.AnswerToResponse},
		{"response2answer", r.ResponseToAnswer, &m.ResponseToAnswer},
		{"retrieved2response", r.RetrievedToResponse, &m.RetrievedToResponse},
		{"retrieved2answer", r.RetrievedToAnswer, &m.RetrievedToAnswer},
	}
	for _, p := range parts {
		if p.js == "" {
			return m, false, nil
		}
		if err := json.Unmarshal([]byte(p.js), p.dst); err != nil {
			return m, false, fmt.Errorf("the stored %s of %q: %w", p.name, r.Pair, err)
		}
	}
	return m, true, nil
}

// ragHeads are the columns of ClaimRAG-LAW's Table 2, arrows as the paper:
// ↑ higher is better, ↓ lower.
var ragHeads = []string{"P↑", "R↑", "F1↑", "CR↑", "CP↑", "CU↑", "NS(r)↓", "NS(i)↓", "HL↓", "SK↓", "FT↑"}

// WriteText renders the report like ClaimRAG-LAW's Table 2: a row per
// system and source (then the system over all its sources), percentages
// with one decimal; with an expert, each row's automatic figures, the
// expert's and the difference.
func (r *RAGReport) WriteText(w io.Writer) error {
	fmt.Fprintln(w, "RAGChecker metrics (ClaimRAG-LAW Table 2), in percent: each result scored as RAGChecker's computation.py, then the mean")
	fmt.Fprintln(w, "Overall: P precision, R recall, F1 · Retriever: CR claim recall, CP context precision · Generator: CU context utilization,")
	fmt.Fprintln(w, "NS(r)/NS(i) noise sensitivity in relevant/irrelevant chunks, HL hallucination, SK self-knowledge, FT faithfulness")
	if r.Expert != "" {
		fmt.Fprintf(w, "expert: the ground-truth claims %s judged incorrect removed (claim_validity); unjudged claims stay\n", r.Expert)
	}
	fmt.Fprintln(w)
	if len(r.Systems) == 0 {
		fmt.Fprintln(w, "No RAGChecker results: import a checking output ({\"results\":[…]} with answer2response, response2answer, retrieved2response, retrieved2answer).")
		if r.Incomplete > 0 {
			fmt.Fprintf(w, "%s left out: without all four matrices.\n", count(r.Incomplete, "result"))
		}
		return nil
	}
	head := append([]string{"source", "results"}, ragHeads...)
	if r.Expert != "" {
		head = append([]string{"source", "figures", "results"}, ragHeads...)
		head = append(head, "removed", "judged")
	}
	t := newTable(w, append([]string{"system"}, sortedKeys(r.Systems)...))
	t.row("system", head...)
	for _, name := range sortedKeys(r.Systems) {
		sys := r.Systems[name]
		sources := sortedKeys(sys.BySource)
		for _, src := range sources {
			r.writeGroup(t, name, src, sys.BySource[src])
		}
		if len(sources) > 1 {
			r.writeGroup(t, name, "all", &sys.RAGGroup)
		}
	}
	if err := t.flush(); err != nil {
		return err
	}
	if r.Expert != "" {
		fmt.Fprintln(w, "\nremoved: ground-truth claims judged incorrect, left out of the expert figures; judged: of the ground-truth claims, those the expert labelled")
	}
	if r.Incomplete > 0 {
		fmt.Fprintf(w, "\n%s left out: without all four matrices (a checking input, or a partial run).\n", count(r.Incomplete, "result"))
	}
	return nil
}

func ragCells(s *metrics.RAGScores, signed bool) []string {
	out := make([]string, len(metrics.RAGMetricNames))
	for i := range out {
		switch {
		case s == nil:
			out[i] = undefinedText
		case signed:
			out[i] = signedPct(&s.Values()[i])
		default:
			out[i] = pct(s.Values()[i])
		}
	}
	return out
}

func (r *RAGReport) writeGroup(t *table, system, source string, g *RAGGroup) {
	n := itoa(g.Results)
	if r.Expert == "" {
		t.row(system, append([]string{source, n}, ragCells(g.All, false)...)...)
		return
	}
	removed, judged := "", ""
	if g.RemovedClaims != nil {
		removed = fmt.Sprintf("%d of %d", *g.RemovedClaims, g.AnswerClaims)
	}
	if g.JudgedClaims != nil {
		judged = fmt.Sprintf("%d of %d", *g.JudgedClaims, g.AnswerClaims)
	}
	t.row(system, append(append([]string{source, "automatic", n}, ragCells(g.All, false)...), removed, judged)...)
	t.row("", append([]string{"", "expert " + r.Expert, n}, ragCells(g.Expert, false)...)...)
	t.row("", append([]string{"", "Δ", ""}, ragCells(g.Delta, true)...)...)
}
