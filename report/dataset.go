package report

import (
	"cmp"
	"strings"
	"sync"

	"github.com/annotate-dev/annotate/store"
)

// dataset is what stats and metrics read: the items, by source, and one
// rater's labels.
type dataset struct {
	rater   rater
	sources []source
	srcIdx  []int // source id -> index in sources
	qas     []store.ReportQA
	claims  []store.ReportClaim
	labels  *labelSet
	n       int64 // bound of the item ids
	none    int   // row of the items without a source, if any
}

// source is a report row: a source of the database.
type source struct {
	name     string // as in the database ("" shows as "(none)")
	language string
}

// label is how text output names a source: "GDPR (EN)", like the paper.
func (s source) label() string {
	name := s.name
	if name == "" {
		name = "(no source)"
	}
	if s.language == "" {
		return name
	}
	return name + " (" + strings.ToUpper(s.language) + ")"
}

// allKey is the key of the overall row, next to the sources' names.
const allKey = "all"

// loadDataset reads sources, QA pairs, claims and the selected labels.
func loadDataset(r *store.ReportReader, sel Selection) (*dataset, error) {
	rt, err := resolve(r, sel)
	if err != nil {
		return nil, err
	}
	srcs, err := r.Sources()
	if err != nil {
		return nil, err
	}
	// The items and the labels are read at the same time (one snapshot,
	// the reader decodes in parallel what SQLite hands over in turn).
	var qas []store.ReportQA
	var claims []store.ReportClaim
	var itemsErr error
	var wg sync.WaitGroup
	wg.Go(func() { qas, claims, itemsErr = r.QAsAndClaims(false) })
	q := store.LabelQuery{Adjudicated: rt.adjudicated, Annotators: []int64{rt.id}}
	if rt.adjudicated {
		q.Annotators = nil
	}
	ld := newLabelLoader([]rater{rt}, 0)
	err = r.EachLabel(q, ld.add)
	wg.Wait()
	if err = cmp.Or(itemsErr, err); err != nil {
		return nil, err
	}
	d := indexDataset(rt, srcs, qas, claims)
	ld.n = max(ld.n, d.n)
	sets, n := ld.finish()
	d.labels, d.n = sets[0], n
	return d, nil
}

// newDataset indexes rows already read, as loadDataset does.
func newDataset(rt rater, srcs []store.ReportSource, qas []store.ReportQA, claims []store.ReportClaim, labels []store.ReportLabel) *dataset {
	d := indexDataset(rt, srcs, qas, claims)
	sets, n := labelSets(labels, []rater{rt}, d.n)
	d.labels, d.n = sets[0], n
	return d
}

// indexDataset indexes the items: no I/O from here on.
func indexDataset(rt rater, srcs []store.ReportSource, qas []store.ReportQA, claims []store.ReportClaim) *dataset {
	d := &dataset{rater: rt, qas: qas, claims: claims}
	for _, q := range qas {
		d.n = max(d.n, q.ItemID+1)
	}
	for _, c := range claims {
		d.n = max(d.n, c.ItemID+1, c.QAItemID+1)
	}
	d.indexSources(srcs)
	return d
}

// indexSources lists the sources in id order and maps each source id of an
// item to its row; items without a source get a row of their own, so that
// nothing goes uncounted.
func (d *dataset) indexSources(srcs []store.ReportSource) {
	var maxID int64
	for _, s := range srcs {
		maxID = max(maxID, s.ID)
	}
	d.srcIdx = make([]int, maxID+1)
	for i := range d.srcIdx {
		d.srcIdx[i] = -1
	}
	for _, s := range srcs {
		d.srcIdx[s.ID] = len(d.sources)
		d.sources = append(d.sources, source{name: s.Name, language: s.Language})
	}
	d.none = -1
	orphans := false
	for _, q := range d.qas {
		orphans = orphans || d.src(q.SourceID) < 0
	}
	for _, c := range d.claims {
		orphans = orphans || d.src(c.SourceID) < 0
	}
	if orphans {
		d.none = len(d.sources)
		d.sources = append(d.sources, source{})
	}
}

// src is the row of an item's source.
func (d *dataset) src(id int64) int {
	if id > 0 && id < int64(len(d.srcIdx)) && d.srcIdx[id] >= 0 {
		return d.srcIdx[id]
	}
	return d.none
}
