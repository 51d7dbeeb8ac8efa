package report

import (
	"cmp"
	"sync"

	"github.com/annotate-dev/annotate/metrics"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// DefaultSystem is the system `annotate metrics` compares against.
const DefaultSystem = "refchecker"

// MetricsOptions are the flags of `annotate metrics`.
type MetricsOptions struct {
	Selection
	System string // "" : DefaultSystem
	CI     bool   // bootstrap intervals for kappa and F1
}

// MetricsReport is `annotate metrics`: the paper's Section 4.3 and Table 3,
// per source and overall ("all").
type MetricsReport struct {
	Annotator    string                   `json:"annotator"`
	Adjudicated  bool                     `json:"adjudicated"`
	System       string                   `json:"system"`
	Extraction   map[string]*Extraction   `json:"extraction"`
	Recall       map[string]*Recall       `json:"extraction_recall"`
	Verification map[string]*Verification `json:"verification"`
	// UnknownValues counts asked labels with values outside the schema, per
	// field and value; UnknownPredictions the system's values outside the
	// classes among the claims verified (the confusion's "other" column).
	UnknownValues      map[string]map[string]int `json:"unknown_values"`
	UnknownPredictions map[string]int            `json:"unknown_predictions"`
	NotAsked           map[string]int            `json:"not_asked"`
	Bootstrap          *BootstrapInfo            `json:"bootstrap,omitempty"`
	// Systems lists every system with predictions, to help a mistyped --system.
	Systems []string `json:"systems"`

	rows []string // source keys in display order, "all" last
	show map[string]string
}

// Extraction is the claim extraction accuracy of one source: claims the
// expert labelled correct over extracted claims with a claim_validity label.
type Extraction struct {
	Claims    int        `json:"claims"` // extracted claims
	Judged    int        `json:"judged"`
	Valid     int        `json:"valid"`
	Accuracy  float64    `json:"accuracy"`
	CI95      [2]float64 `json:"ci95"` // Wilson
	NotJudged int        `json:"not_judged"`
	Unknown   int        `json:"unknown_value"` // claim_validity outside the schema
}

// Recall is the claim extraction recall of one source, over the answers the
// expert checked for missed claims: correct extracted claims over those
// plus the claims the expert added.
type Recall struct {
	Answers          int        `json:"answers"`             // answers marked missed_claims_checked
	NotChecked       int        `json:"answers_not_checked"` // answers with extracted claims, not marked: left out
	CorrectExtracted int        `json:"correct_extracted"`
	Added            int        `json:"added"`
	Recall           float64    `json:"recall"`
	CI95             [2]float64 `json:"ci95"` // Wilson
}

// Verification scores the system's entailment labels against the expert's
// on one source.
type Verification struct {
	N          int                       `json:"n"`
	Classes    map[string]*ClassScores   `json:"classes"`
	Confusion  map[string]map[string]int `json:"confusion"` // expert -> system -> count; column "other" always present
	Accuracy   float64                   `json:"accuracy"`
	MacroF1    float64                   `json:"macro_f1"`
	WeightedF1 float64                   `json:"weighted_f1"`
	Kappa      float64                   `json:"kappa"`
	Macro      Averages                  `json:"macro"`
	Weighted   Averages                  `json:"weighted"`
	LeftOut    LeftOut                   `json:"left_out"`
	KappaCI95  *[2]float64               `json:"kappa_ci95,omitempty"`
	MacroF1CI  *[2]float64               `json:"macro_f1_ci95,omitempty"`
	classes    []string
	counts     metrics.Confusion
}

// ClassScores are one class's scores.
type ClassScores struct {
	Precision float64     `json:"precision"`
	Recall    float64     `json:"recall"`
	F1        float64     `json:"f1"`
	Support   int         `json:"support"`
	F1CI95    *[2]float64 `json:"f1_ci95,omitempty"`
}

// Averages are macro or support-weighted means of the per-class scores.
type Averages struct {
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
}

// LeftOut says why claims of a source are not in the verification: each
// claim is counted at the first step it fails, in this order.
type LeftOut struct {
	Claims            int `json:"claims"` // extracted claims of the source
	NotJudged         int `json:"not_judged"`
	UnknownValidity   int `json:"unknown_claim_validity"`
	JudgedIncorrect   int `json:"judged_incorrect"`
	NoEntailment      int `json:"no_entailment"`
	UnknownEntailment int `json:"unknown_entailment"`
	NoPrediction      int `json:"no_prediction"`
}

// Metrics builds the extraction and verification report.
func Metrics(s *store.Store, o MetricsOptions) (*MetricsReport, error) {
	if o.System == "" {
		o.System = DefaultSystem
	}
	r, err := s.ReportReader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var preds []store.ReportPrediction
	var predsErr error
	var wg sync.WaitGroup
	wg.Go(func() { preds, predsErr = r.Predictions(o.System) }) // with the dataset, same snapshot
	d, err := loadDataset(r, o.Selection)
	wg.Wait()
	if err = cmp.Or(err, predsErr); err != nil {
		return nil, err
	}
	systems, err := r.Systems()
	if err != nil {
		return nil, err
	}
	rep := computeMetrics(d, o, preds)
	rep.Systems = append([]string{}, systems...) // [] rather than null in JSON
	return rep, nil
}

// predictionCodes encodes a system's predictions by item id, reading them
// as the importer would (case and spaces do not matter).
func predictionCodes(preds []store.ReportPrediction, n int64) (codes []int8, verbatim map[int64]string) {
	for _, p := range preds {
		n = max(n, p.ItemID+1)
	}
	codes = make([]int8, n)
	for i := range codes {
		codes[i] = missing
	}
	memo := map[string]int8{}
	for _, p := range preds {
		c, ok := memo[p.Value]
		if !ok {
			canon, known := schema.Normalize(schema.Entailment, p.Value)
			c = unknown
			if known {
				c = valueCode(fEntailment, canon)
			}
			memo[p.Value] = c
		}
		if p.ItemID < 0 {
			continue
		}
		codes[p.ItemID] = c
		if c == unknown {
			if verbatim == nil {
				verbatim = map[int64]string{}
			}
			verbatim[p.ItemID] = p.Value
		}
	}
	return codes, verbatim
}

// pairs are the (expert, system) codes of the verified claims of a source.
type pairs struct{ truth, pred []int }

func computeMetrics(d *dataset, o MetricsOptions, preds []store.ReportPrediction) *MetricsReport {
	l := d.labels
	pc, verbatim := predictionCodes(preds, d.n)
	ns := len(d.sources)
	ext := make([]Extraction, ns)
	rec := make([]Recall, ns)
	left := make([]LeftOut, ns)
	ver := make([]pairs, ns)
	unknownPred := map[string]int{}

	for _, q := range d.qas {
		switch {
		case l.code(fMissedChecked, q.ItemID) >= 0:
			rec[d.src(q.SourceID)].Answers++
		case q.HasClaims:
			rec[d.src(q.SourceID)].NotChecked++
		}
	}
	for _, c := range d.claims {
		s := d.src(c.SourceID)
		checked := l.code(fMissedChecked, c.QAItemID) >= 0
		if c.Origin == store.OriginAnnotator {
			if checked && standing(d.rater, l, c) {
				rec[s].Added++
			}
			continue
		}
		e, lo := &ext[s], &left[s]
		e.Claims++
		lo.Claims++
		v := l.code(fClaimValidity, c.ItemID)
		switch {
		case v == missing:
			e.NotJudged++
			lo.NotJudged++
			continue
		case v < 0: // unknown (notAsked cannot happen: validity is always asked)
			e.Unknown++
			lo.UnknownValidity++
			continue
		}
		e.Judged++
		if v != correct {
			lo.JudgedIncorrect++
			continue
		}
		e.Valid++
		if checked {
			rec[s].CorrectExtracted++
		}
		ent := l.code(fEntailment, c.ItemID)
		switch {
		case ent == missing || ent == notAsked:
			lo.NoEntailment++
			continue
		case ent < 0:
			lo.UnknownEntailment++
			continue
		}
		p := missing
		if c.ItemID < int64(len(pc)) {
			p = pc[c.ItemID]
		}
		if p == missing {
			lo.NoPrediction++
			continue
		}
		if p == unknown {
			unknownPred[verbatim[c.ItemID]]++
		}
		ver[s].truth = append(ver[s].truth, int(ent))
		ver[s].pred = append(ver[s].pred, int(p))
	}

	rep := &MetricsReport{
		Annotator:          d.rater.name,
		Adjudicated:        d.rater.adjudicated,
		System:             o.System,
		Extraction:         map[string]*Extraction{},
		Recall:             map[string]*Recall{},
		Verification:       map[string]*Verification{},
		UnknownValues:      l.unknownValues(),
		UnknownPredictions: unknownPred,
		NotAsked:           l.staleCounts(),
		show:               map[string]string{},
	}
	if o.CI {
		rep.Bootstrap = &BootstrapInfo{Replicates: BootstrapReplicates, Seed: BootstrapSeed}
	}
	var allExt Extraction
	var allRec Recall
	var allLeft LeftOut
	var all pairs
	for i, src := range d.sources {
		key := src.name
		rep.rows = append(rep.rows, key)
		rep.show[key] = src.label()
		rep.Extraction[key] = finishExtraction(ext[i])
		rep.Recall[key] = finishRecall(rec[i])
		rep.Verification[key] = verify(ver[i], left[i], o.CI)
		allExt.add(ext[i])
		allRec.add(rec[i])
		allLeft.add(left[i])
		all.truth = append(all.truth, ver[i].truth...)
		all.pred = append(all.pred, ver[i].pred...)
	}
	rep.rows = append(rep.rows, allKey)
	rep.show[allKey] = "Total"
	rep.Extraction[allKey] = finishExtraction(allExt)
	rep.Recall[allKey] = finishRecall(allRec)
	rep.Verification[allKey] = verify(all, allLeft, o.CI)
	return rep
}

func finishExtraction(e Extraction) *Extraction {
	e.Accuracy = ratio(e.Valid, e.Judged)
	e.CI95[0], e.CI95[1] = metrics.Wilson(e.Valid, e.Judged)
	return &e
}

func finishRecall(r Recall) *Recall {
	r.Recall = ratio(r.CorrectExtracted, r.CorrectExtracted+r.Added)
	r.CI95[0], r.CI95[1] = metrics.Wilson(r.CorrectExtracted, r.CorrectExtracted+r.Added)
	return &r
}

func (e *Extraction) add(o Extraction) {
	e.Claims += o.Claims
	e.Judged += o.Judged
	e.Valid += o.Valid
	e.NotJudged += o.NotJudged
	e.Unknown += o.Unknown
}

func (r *Recall) add(o Recall) {
	r.Answers += o.Answers
	r.NotChecked += o.NotChecked
	r.CorrectExtracted += o.CorrectExtracted
	r.Added += o.Added
}

func (l *LeftOut) add(o LeftOut) {
	l.Claims += o.Claims
	l.NotJudged += o.NotJudged
	l.UnknownValidity += o.UnknownValidity
	l.JudgedIncorrect += o.JudgedIncorrect
	l.NoEntailment += o.NoEntailment
	l.UnknownEntailment += o.UnknownEntailment
	l.NoPrediction += o.NoPrediction
}

// verify scores one source's pairs.
func verify(p pairs, left LeftOut, ci bool) *Verification {
	classes := tracked[fEntailment].Values
	k := len(classes)
	cm := metrics.NewConfusion(p.truth, p.pred, k)
	r := cm.Report()
	v := &Verification{
		N:          r.N,
		Classes:    map[string]*ClassScores{},
		Confusion:  map[string]map[string]int{},
		Accuracy:   r.Accuracy,
		MacroF1:    r.Macro.F1,
		WeightedF1: r.Weighted.F1,
		Kappa:      r.Kappa,
		Macro:      Averages{r.Macro.Precision, r.Macro.Recall, r.Macro.F1},
		Weighted:   Averages{r.Weighted.Precision, r.Weighted.Recall, r.Weighted.F1},
		LeftOut:    left,
		classes:    classes,
		counts:     cm,
	}
	for t, name := range classes {
		s := r.Classes[t]
		v.Classes[name] = &ClassScores{Precision: s.Precision, Recall: s.Recall, F1: s.F1, Support: s.Support}
		row := map[string]int{OtherColumn: 0}
		for pi, n := range cm.Counts[t] {
			col := OtherColumn
			if pi < k {
				col = classes[pi]
			}
			row[col] = n
		}
		v.Confusion[name] = row
	}
	if ci && r.N > 0 {
		bootstrapVerification(v, p, k)
	}
	return v
}

// OtherColumn names the confusion column of system values outside the classes.
const OtherColumn = "other"

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
