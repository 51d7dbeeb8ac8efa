package report

import (
	"slices"

	"github.com/annotate-dev/annotate/metrics"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Label codes. 0..k-1 index a field's canonical values (schema order); the
// negative codes say why there is no usable value.
const (
	missing  int8 = metrics.Missing // no label
	unknown  int8 = metrics.Other   // a value outside the schema (left out, counted)
	notAsked int8 = -3              // a label the asked-when rule drops (e.g. an old persona of an invalid question)
)

// tracked lists the fields the reports read: the schema's asked fields, then
// the answer-level markers (missed_claims_checked, claim_added).
var tracked = func() []schema.Field {
	fs := schema.AllFields()
	for _, m := range []string{schema.MissedClaimsChecked, schema.ClaimAdded} {
		if f, ok := schema.Lookup(m); ok {
			fs = append(fs, f)
		}
	}
	return fs
}()

// fieldIndex is the index of a field in tracked, -1 if the reports ignore it.
func fieldIndex(name string) int {
	for i, f := range tracked {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// mustField is fieldIndex for the schema's own constants.
func mustField(name string) int {
	i := fieldIndex(name)
	if i < 0 {
		panic("report: field " + name + " is not in the schema")
	}
	return i
}

// valueCode is the code of a canonical value of a tracked field, -1 if none.
func valueCode(f int, value string) int8 {
	for i, v := range tracked[f].Values {
		if v == value {
			return int8(i)
		}
	}
	return missing
}

// kindFields lists the tracked fields of a kind.
func kindFields(k schema.Kind) []int {
	var out []int
	for i, f := range tracked {
		if f.Kind == k {
			out = append(out, i)
		}
	}
	return out
}

// labelSet is one rater's current labels as codes: cols[f][item id]. Item
// ids are SQLite rowids handed out in import order and nothing is deleted,
// so they are dense and index a slice directly; a column is only allocated
// for a field the rater used.
type labelSet struct {
	cols [][]int8
	// verbatim keeps the values outside the schema (few), per field and
	// item, so a report can say which values it left out.
	verbatim []map[int64]string
	// stale counts, per field, labels dropped by the asked-when rule.
	stale []int
}

func newLabelSet() *labelSet {
	return &labelSet{
		cols:     make([][]int8, len(tracked)),
		verbatim: make([]map[int64]string, len(tracked)),
		stale:    make([]int, len(tracked)),
	}
}

// code returns the code of field f on an item.
func (l *labelSet) code(f int, item int64) int8 {
	c := l.cols[f]
	if item < 0 || item >= int64(len(c)) {
		return missing
	}
	return c[item]
}

// set records one label, growing the field's column as needed (pad makes
// every column n long once all labels are in).
func (l *labelSet) set(f int, item int64, value []byte) {
	c := l.cols[f]
	if item >= int64(len(c)) {
		c = growCol(c, max(item+1, 2*int64(len(c)), 1024))
		l.cols[f] = c
	}
	code := valueCodeBytes(f, value)
	if code == missing {
		code = unknown
		if l.verbatim[f] == nil {
			l.verbatim[f] = map[int64]string{}
		}
		l.verbatim[f][item] = string(value)
	}
	c[item] = code
}

// growCol extends a column to n items, the new ones missing.
func growCol(c []int8, n int64) []int8 {
	old := len(c)
	c = slices.Grow(c, int(n)-old)[:n]
	for i := old; i < len(c); i++ {
		c[i] = missing
	}
	return c
}

// pad makes every column exactly n items long.
func (l *labelSet) pad(n int64) {
	for f, c := range l.cols {
		if c != nil {
			if int64(len(c)) < n {
				c = growCol(c, n)
			}
			l.cols[f] = c[:n:n]
		}
	}
}

// valueCodeBytes is valueCode for a value read as bytes.
func valueCodeBytes(f int, value []byte) int8 {
	for i, v := range tracked[f].Values {
		if v == string(value) {
			return int8(i)
		}
	}
	return missing
}

// labelLoader turns label rows into one labelSet per rater as they are
// read (store.ReportReader.EachLabel): no string or struct per label.
type labelLoader struct {
	sets []*labelSet
	byID map[int64]int
	n    int64 // bound of the item ids

	// Rows come grouped by annotator: the last lookup is almost always the
	// right one.
	started bool
	lastAID int64
	lastSet int // -1: an annotator not asked for
}

func newLabelLoader(raters []rater, n int64) *labelLoader {
	ld := &labelLoader{sets: make([]*labelSet, len(raters)), byID: make(map[int64]int, len(raters)), n: n}
	for i, rt := range raters {
		ld.sets[i] = newLabelSet()
		ld.byID[rt.id] = i
	}
	return ld
}

// add records one label; field and value need not outlive the call.
func (ld *labelLoader) add(aid, item int64, field, value []byte) error {
	ld.n = max(ld.n, item+1)
	if aid != ld.lastAID || !ld.started {
		s, ok := ld.byID[aid]
		if !ok {
			s = -1
		}
		ld.lastAID, ld.lastSet, ld.started = aid, s, true
	}
	if ld.lastSet < 0 {
		return nil
	}
	f := -1
	for i := range tracked {
		if tracked[i].Name == string(field) {
			f = i
			break
		}
	}
	if f < 0 || item < 0 {
		return nil
	}
	ld.sets[ld.lastSet].set(f, item, value)
	return nil
}

// finish pads the columns to the bound of the item ids and applies the
// asked-when rule to each set with its own labels.
func (ld *labelLoader) finish() ([]*labelSet, int64) {
	for _, s := range ld.sets {
		s.pad(ld.n)
		for _, k := range schema.Kinds() {
			s.applyAsked(k, ld.n)
		}
	}
	return ld.sets, ld.n
}

// loadLabels reads the labels of the raters (only the given fields; nil:
// all) and turns them into label sets. n bounds the item ids (0: computed
// from the labels).
func loadLabels(r *store.ReportReader, raters []rater, fields []string, n int64) ([]*labelSet, int64, error) {
	q := store.LabelQuery{Fields: fields}
	if len(raters) == 1 && raters[0].adjudicated {
		q.Adjudicated = true
	} else {
		q.Annotators = []int64{} // not nil: nil is everyone
		for _, rt := range raters {
			q.Annotators = append(q.Annotators, rt.id)
		}
	}
	ld := newLabelLoader(raters, n)
	if err := r.EachLabel(q, ld.add); err != nil {
		return nil, 0, err
	}
	sets, n := ld.finish()
	return sets, n, nil
}

// labelSets encodes label rows already read into one labelSet per rater,
// as loadLabels does while reading.
func labelSets(rows []store.ReportLabel, raters []rater, n int64) ([]*labelSet, int64) {
	ld := newLabelLoader(raters, n)
	asBytes := map[string][]byte{} // the strings are interned: a handful
	b := func(s string) []byte {
		v, ok := asBytes[s]
		if !ok {
			v = []byte(s)
			asBytes[s] = v
		}
		return v
	}
	for _, l := range rows {
		ld.add(l.AnnotatorID, l.ItemID, b(l.Field), b(l.Value))
	}
	return ld.finish()
}

// applyAsked marks notAsked every label whose field is not asked given the
// rater's other current labels of the item, by schema's AskedWhen. The rule
// is evaluated once per distinct combination of codes, not per item: a
// million items have a few dozen combinations.
func (l *labelSet) applyAsked(k schema.Kind, n int64) {
	fs := kindFields(k)
	var cols [][]int8
	var present []int // positions in fs of the fields this rater used
	for i, f := range fs {
		if l.cols[f] != nil {
			cols = append(cols, l.cols[f])
			present = append(present, i)
		}
	}
	if len(cols) == 0 {
		return
	}
	// 4 bits per field hold codes -2..13 shifted by 2; a kind with more
	// fields than fit falls back to evaluating every item.
	memoOK := len(cols) <= 16
	for _, f := range fs {
		memoOK = memoOK && len(tracked[f].Values) <= 13
	}
	memo := map[uint64]uint32{}
	codes := make([]int8, len(fs))
	for item := range n {
		var key uint64
		labelled := false
		for j, c := range cols {
			v := c[item]
			if v != missing {
				labelled = true
			}
			key |= uint64(v+2) << (4 * j)
		}
		if !labelled {
			continue
		}
		mask, ok := memo[key]
		if !ok || !memoOK {
			for i := range codes {
				codes[i] = missing
			}
			for j, c := range cols {
				codes[present[j]] = c[item]
			}
			mask = askedMask(fs, codes)
			if memoOK {
				memo[key] = mask
			}
		}
		for j, c := range cols {
			if c[item] != missing && mask&(1<<present[j]) == 0 {
				c[item] = notAsked
				l.stale[fs[present[j]]]++
			}
		}
	}
}

// unknownMarker stands for a value outside the schema when AskedWhen is
// evaluated: it equals no canonical value, exactly as the verbatim value.
const unknownMarker = "\x00unknown"

// askedMask evaluates AskedWhen of each field of fs given codes (one per
// field of fs); bit i says fs[i] is asked.
func askedMask(fs []int, codes []int8) uint32 {
	cur := make(map[string]string, len(fs))
	for i, f := range fs {
		switch c := codes[i]; {
		case c >= 0:
			cur[tracked[f].Name] = tracked[f].Values[c]
		case c == unknown:
			cur[tracked[f].Name] = unknownMarker
		}
	}
	var mask uint32
	for i, f := range fs {
		if tracked[f].AskedWhen(cur) {
			mask |= 1 << i
		}
	}
	return mask
}

// unknownValues counts, per field name and verbatim value, the asked labels
// whose value is outside the schema: they are left out of every metric.
func (l *labelSet) unknownValues() map[string]map[string]int {
	out := map[string]map[string]int{}
	for f, m := range l.verbatim {
		for item, v := range m {
			if l.code(f, item) != unknown {
				continue // dropped by the asked-when rule
			}
			if out[tracked[f].Name] == nil {
				out[tracked[f].Name] = map[string]int{}
			}
			out[tracked[f].Name][v]++
		}
	}
	return out
}

// staleCounts reports, per field name, labels the asked-when rule dropped.
func (l *labelSet) staleCounts() map[string]int {
	out := map[string]int{}
	for f, n := range l.stale {
		if n > 0 {
			out[tracked[f].Name] = n
		}
	}
	return out
}
