package report

import (
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// StatsReport is `annotate stats`: the paper's Table 1 per source and overall.
type StatsReport struct {
	Annotator   string                  `json:"annotator"`
	Adjudicated bool                    `json:"adjudicated"`
	Sources     map[string]*SourceStats `json:"sources"`
	All         *SourceStats            `json:"all"`
	// UnknownValues counts, per field and value, asked labels whose value is
	// outside the schema: left out of every count above.
	UnknownValues map[string]map[string]int `json:"unknown_values"`
	// NotAsked counts, per field, labels the asked-when rule leaves out
	// (e.g. a persona kept from when the question was valid).
	NotAsked map[string]int `json:"not_asked"`

	rows []statsRow // display order, for the text renderer
}

type statsRow struct {
	label string // "GDPR (EN)"
	s     *SourceStats
}

// SourceStats are the Table 1 counts of one source (or of all).
type SourceStats struct {
	Language string `json:"language,omitempty"`
	QA       int    `json:"qa"`        // QA pairs imported
	QAJudged int    `json:"qa_judged"` // with a question_validity label
	QAValid  int    `json:"qa_valid"`
	// Over valid pairs; every class is present, zeros included.
	Persona  map[string]int `json:"persona"`
	Category map[string]int `json:"category"`
	// The generator's categories of the same valid pairs, and how many the
	// expert changed (among pairs with a category label).
	GeneratedCategory map[string]int `json:"generated_category"`
	CategoryChanged   int            `json:"category_changed"`
	// Answers with at least one extracted claim; extracted claims; judged
	// (claim_validity); valid (correct); entailment classes over valid claims.
	AnswersWithClaims int            `json:"answers_with_claims"`
	Claims            int            `json:"claims"`
	ClaimsJudged      int            `json:"claims_judged"`
	ValidClaims       int            `json:"valid_claims"`
	Entailment        map[string]int `json:"entailment"`
	// Claims the annotator added because the extractor missed them (and
	// whose addition stands); not in the counts above, which are about the
	// extractor's claims.
	ClaimsAdded int `json:"claims_added"`
}

// statsCounts accumulates one row with arrays indexed by codes.
type statsCounts struct {
	qa, qaJudged, qaValid          int
	persona, category, generated   []int
	categoryChanged                int
	answers, claims, judged, valid int
	entailment                     []int
	added                          int
}

func newStatsCounts() *statsCounts {
	return &statsCounts{
		persona:    make([]int, len(tracked[fPersona].Values)),
		category:   make([]int, len(tracked[fCategory].Values)),
		generated:  make([]int, len(tracked[fCategory].Values)),
		entailment: make([]int, len(tracked[fEntailment].Values)),
	}
}

// Field indexes and value codes the reports use.
var (
	fQuestionValidity = mustField(schema.QuestionValidity)
	fCategory         = mustField(schema.Category)
	fPersona          = mustField(schema.Persona)
	fClaimValidity    = mustField(schema.ClaimValidity)
	fEntailment       = mustField(schema.Entailment)
	fMissedChecked    = mustField(schema.MissedClaimsChecked)
	fClaimAdded       = mustField(schema.ClaimAdded)

	valid   = valueCode(fQuestionValidity, "valid")
	correct = valueCode(fClaimValidity, "correct")
	addedOK = valueCode(fClaimAdded, "yes")
)

// Stats builds the Table 1 report from the labels sel selects.
func Stats(s *store.Store, sel Selection) (*StatsReport, error) {
	r, err := s.ReportReader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	d, err := loadDataset(r, sel)
	if err != nil {
		return nil, err
	}
	return computeStats(d), nil
}

func computeStats(d *dataset) *StatsReport {
	per := make([]*statsCounts, len(d.sources))
	for i := range per {
		per[i] = newStatsCounts()
	}
	l := d.labels
	for _, q := range d.qas {
		c := per[d.src(q.SourceID)]
		c.qa++
		if q.HasClaims {
			c.answers++
		}
		v := l.code(fQuestionValidity, q.ItemID)
		if v < 0 {
			continue
		}
		c.qaJudged++
		if v != valid {
			continue
		}
		c.qaValid++
		if p := l.code(fPersona, q.ItemID); p >= 0 {
			c.persona[p]++
		}
		cat := l.code(fCategory, q.ItemID)
		if cat >= 0 {
			c.category[cat]++
		}
		if g := valueCode(fCategory, q.Category); g >= 0 {
			c.generated[g]++
			if cat >= 0 && cat != g {
				c.categoryChanged++
			}
		}
	}
	for _, cl := range d.claims {
		c := per[d.src(cl.SourceID)]
		if cl.Origin == store.OriginAnnotator {
			if standing(d.rater, l, cl) {
				c.added++
			}
			continue
		}
		c.claims++
		v := l.code(fClaimValidity, cl.ItemID)
		if v < 0 {
			continue
		}
		c.judged++
		if v != correct {
			continue
		}
		c.valid++
		if e := l.code(fEntailment, cl.ItemID); e >= 0 {
			c.entailment[e]++
		}
	}
	rep := &StatsReport{
		Annotator:     d.rater.name,
		Adjudicated:   d.rater.adjudicated,
		Sources:       map[string]*SourceStats{},
		UnknownValues: l.unknownValues(),
		NotAsked:      l.staleCounts(),
	}
	all := newStatsCounts()
	for i, c := range per {
		all.add(c)
		st := c.export(d.sources[i].language)
		rep.Sources[d.sources[i].name] = st
		rep.rows = append(rep.rows, statsRow{d.sources[i].label(), st})
	}
	rep.All = all.export("")
	rep.rows = append(rep.rows, statsRow{"Total", rep.All})
	return rep
}

// standing reports whether an annotator-added claim counts for the rater:
// its claim_added label stands (undo retracts it) and, for an annotator,
// they added it themselves.
func standing(rt rater, l *labelSet, c store.ReportClaim) bool {
	if l.code(fClaimAdded, c.ItemID) != addedOK {
		return false
	}
	return rt.adjudicated || c.AddedBy == rt.id
}

func (c *statsCounts) add(o *statsCounts) {
	c.qa += o.qa
	c.qaJudged += o.qaJudged
	c.qaValid += o.qaValid
	addInts(c.persona, o.persona)
	addInts(c.category, o.category)
	addInts(c.generated, o.generated)
	c.categoryChanged += o.categoryChanged
	c.answers += o.answers
	c.claims += o.claims
	c.judged += o.judged
	c.valid += o.valid
	addInts(c.entailment, o.entailment)
	c.added += o.added
}

func addInts(dst, src []int) {
	for i, v := range src {
		dst[i] += v
	}
}

func (c *statsCounts) export(lang string) *SourceStats {
	return &SourceStats{
		Language:          lang,
		QA:                c.qa,
		QAJudged:          c.qaJudged,
		QAValid:           c.qaValid,
		Persona:           classMap(fPersona, c.persona),
		Category:          classMap(fCategory, c.category),
		GeneratedCategory: classMap(fCategory, c.generated),
		CategoryChanged:   c.categoryChanged,
		AnswersWithClaims: c.answers,
		Claims:            c.claims,
		ClaimsJudged:      c.judged,
		ValidClaims:       c.valid,
		Entailment:        classMap(fEntailment, c.entailment),
		ClaimsAdded:       c.added,
	}
}

// classMap names counts by the field's values.
func classMap(f int, counts []int) map[string]int {
	m := make(map[string]int, len(counts))
	for i, v := range counts {
		m[tracked[f].Values[i]] = v
	}
	return m
}
