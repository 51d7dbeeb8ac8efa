package report

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/annotate-dev/annotate/tally"
)

// ResponseLevel is RefChecker's response-level meta-evaluation
// (benchmark/evaluation/corr.py): a response is factual when every claim is
// entailed; its hallucination rate is the share of claims not entailed.
// Over the responses the expert judged at least one claim of, in the
// sources the system judged claims of, the system's factual verdicts
// against the expert's (accuracy, F1 of the factual and of the non-factual
// class) and the correlation of the two rates. The system's side is over
// the claims of one extractor (--extractor) or of all; a response with no
// such claim the system judged is factual with rate 0, as corr.py counts a
// response its extractor gave no claim.
type ResponseLevel struct {
	Responses int      `json:"responses"`
	Accuracy  *float64 `json:"accuracy"`
	FactF1    float64  `json:"fact_f1"`    // 0 with an empty denominator, as scikit-learn
	NonFactF1 float64  `json:"nonfact_f1"` // likewise
	Pearson   *float64 `json:"pearson"`    // null when either rate is constant
	Spearman  *float64 `json:"spearman"`
	// WithoutClaims counts the responses with no claim of the system's
	// side (counted factual, rate 0).
	WithoutClaims int `json:"responses_without_claims"`
}

// responsePair is one response's rates: k of n expert-judged claims not
// entailed, j of m system-judged claims not entailed.
type responsePair struct{ k, n, j, m int }

// parseResponse reads a Response key's B: "k/n" (the response, A "") or
// "k/n|{extractor:[j,m]}" (a system's rates per extractor). extractor ""
// pools the extractors; otherwise a response whose extractor has no claim
// the system judged gets 0/0.
func parseResponse(b, extractor string) (responsePair, map[string][2]int, bool) {
	var p responsePair
	e, rest, _ := strings.Cut(b, "|")
	var err error
	if p.k, p.n, err = fraction(e); err != nil || p.n == 0 {
		return p, nil, false
	}
	if rest == "" {
		return p, nil, true
	}
	var parts map[string][2]int
	if json.Unmarshal([]byte(rest), &parts) != nil {
		return p, nil, false
	}
	for x, jm := range parts {
		if extractor == "" || x == extractor {
			p.j += jm[0]
			p.m += jm[1]
		}
	}
	return p, parts, true
}

func fraction(s string) (int, int, error) {
	a, b, _ := strings.Cut(s, "/")
	x, err := strconv.Atoi(a)
	if err != nil {
		return 0, 0, err
	}
	y, err := strconv.Atoi(b)
	return x, y, err
}

// responseCounts gathers the responses of one source as corr.py counts them
// for system and extractor: each response the expert judged a claim of,
// with the system's rate over the extractor's claims; a response with no
// such claim (the extractor gave none, or the system judged none) is
// factual with rate 0, as corr.py's all([]) and its rate 0. A source the
// system judged nothing of is left out (ran false), unless the extractor
// ran on it (found nothing there). extractors collects the extractors the
// system judged claims of.
func responseCounts(rt rater, t *tallies, src int64, system, extractor string, extractors map[string]bool) (ps []responsePair, counts []int, empty int, ran bool) {
	universe := map[responsePair]int{}
	judged := map[responsePair]int{}
	t.each(rt.id, src, false, tally.Response, func(k tally.Key, n int) {
		switch k.A {
		case "":
			if p, _, ok := parseResponse(k.B, ""); ok {
				universe[p] += n
			}
		case system:
			p, parts, ok := parseResponse(k.B, extractor)
			if !ok {
				return
			}
			ran = true
			for x := range parts {
				extractors[x] = true
			}
			judged[responsePair{k: p.k, n: p.n}] += n
			if p.m == 0 {
				empty += n
			}
			ps = append(ps, p)
			counts = append(counts, n)
		}
	})
	// A source the extractor ran on counts even where the system judged
	// nothing: the extractor found nothing there.
	if !ran && (extractor == "" || t.sum(tally.Anyone, src, false, tally.ExtractorRan, extractor, nil) == 0) {
		return nil, nil, 0, false
	}
	for p, n := range universe {
		if extra := n - judged[p]; extra > 0 {
			ps = append(ps, p) // j = m = 0
			counts = append(counts, extra)
			empty += extra
		}
	}
	return ps, counts, empty, true
}

func responseLevel(rt rater, t *tallies, src int64, all bool, system, extractor string, extractors map[string]bool) *ResponseLevel {
	var ps []responsePair
	var counts []int
	empty, ran := 0, false
	for _, s := range t.sources {
		if !all && s.id != src {
			continue
		}
		p, c, e, ok := responseCounts(rt, t, s.id, system, extractor, extractors)
		ps, counts, empty, ran = append(ps, p...), append(counts, c...), empty+e, ran || ok
	}
	if !ran || len(ps) == 0 {
		return nil
	}
	// A fixed order, so sums come out the same whatever order the map gave.
	idx := make([]int, len(ps))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		pa, pb := ps[a], ps[b]
		return slices.Compare([]int{pa.k, pa.n, pa.j, pa.m}, []int{pb.k, pb.n, pb.j, pb.m})
	})
	total := 0
	for _, n := range counts {
		total += n
	}
	gt, sys := make([]float64, 0, total), make([]float64, 0, total)
	gtFact, sysFact := make([]bool, 0, total), make([]bool, 0, total)
	for _, i := range idx {
		p := ps[i]
		sr := 0.0
		if p.m > 0 {
			sr = float64(p.j) / float64(p.m)
		}
		for range counts[i] {
			gt = append(gt, float64(p.k)/float64(p.n))
			sys = append(sys, sr)
			gtFact = append(gtFact, p.k == 0)
			sysFact = append(sysFact, p.j == 0)
		}
	}
	rl := &ResponseLevel{Responses: len(gt), WithoutClaims: empty}
	same := 0
	for i := range gtFact {
		if gtFact[i] == sysFact[i] {
			same++
		}
	}
	rl.Accuracy = ratio(same, len(gt))
	rl.FactF1 = binaryF1(gtFact, sysFact, true)
	rl.NonFactF1 = binaryF1(gtFact, sysFact, false)
	rl.Pearson = pearson(gt, sys)
	rl.Spearman = pearson(ranks(gt), ranks(sys))
	return rl
}

// binaryF1 is scikit-learn's f1_score with pos_label pos (0 when undefined).
func binaryF1(truth, pred []bool, pos bool) float64 {
	tp, fp, fn := 0, 0, 0
	for i := range truth {
		switch {
		case truth[i] == pos && pred[i] == pos:
			tp++
		case truth[i] != pos && pred[i] == pos:
			fp++
		case truth[i] == pos && pred[i] != pos:
			fn++
		}
	}
	if 2*tp+fp+fn == 0 {
		return 0
	}
	return 2 * float64(tp) / float64(2*tp+fp+fn)
}

// pearson is the Pearson correlation, nil when either side is constant (as
// scipy's nan).
func pearson(x, y []float64) *float64 {
	n := float64(len(x))
	if n < 2 {
		return nil
	}
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= n
	my /= n
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return nil
	}
	r := sxy / math.Sqrt(sxx*syy)
	return ptr(math.Max(-1, math.Min(1, r)))
}

// ranks are the 1-based ranks of x, ties given their average rank (scipy's
// rankdata "average", which spearmanr uses). x holds few distinct values
// (rates of small counts) repeated over many responses, so the ranks come
// from the sorted distinct values and their counts, not a sort of x: a tie
// group at sorted positions i..j gets (i+j)/2 + 1 either way.
func ranks(x []float64) []float64 {
	count := map[float64]int{}
	for _, v := range x {
		count[v]++
	}
	distinct := make([]float64, 0, len(count))
	for v := range count {
		distinct = append(distinct, v)
	}
	slices.Sort(distinct)
	rank := make(map[float64]float64, len(count))
	i := 0
	for _, v := range distinct {
		j := i + count[v] - 1
		rank[v] = float64(i+j)/2 + 1
		i = j + 1
	}
	out := make([]float64, len(x))
	for k, v := range x {
		out[k] = rank[v]
	}
	return out
}

// listOr joins names ("" shown as (none named)), or says none.
func listOr(names []string, none string) string {
	if len(names) == 0 {
		return none
	}
	out := make([]string, len(names))
	for i, n := range names {
		if n == "" {
			n = `"" (claims whose file named no extractor)`
		}
		out[i] = n
	}
	return strings.Join(out, ", ")
}
