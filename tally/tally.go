// Package tally computes what one family of items (a root item and its
// children: a QA pair and its claims) contributes to the counts the reports,
// the queues and the progress bars read. It is pure: the store loads a
// family, asks Compute for its contribution, and keeps the sums up to date
// in the write transaction by taking each touched family's old contribution
// away and adding its new one. The same function, summed over every family,
// is the from-scratch recomputation the tests compare the kept counts with.
package tally

import (
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/annotate-dev/annotate/schema"
)

// Rater ids of a Key: an annotator's id (> 0), or one of these.
const (
	Adjudicated int64 = 0  // the lead's final labels
	Anyone      int64 = -1 // counts of items, not of anybody's labels
)

// Key names one kept count.
type Key struct {
	Rater  int64
	Source int64 // source id, 0 for none
	Name   string
	A, B   string
}

// Prediction is a system's verdict on one field of an item.
type Prediction struct {
	System, Field, Value string
}

// Queue is a batch an item is in.
type Queue struct {
	Batch    int64
	Open     bool    // no assignees: every annotator's
	Assigned []int64 // annotators it is assigned to, when not open
	// AtOnce: the batch asks its items at once, whatever its assignees'
	// labels on their parents (the answers were judged elsewhere).
	AtOnce bool
}

// Member is one item of a family with everything its counts depend on.
type Member struct {
	ID     int64
	Kind   schema.Kind
	Source int64
	// Attrs are the kind's own columns the counts read (hop, origin, ...).
	Attrs map[string]string
	// Labels are the current labels by rater: annotators (role annotate)
	// by id, the adjudicated ones under Adjudicated.
	Labels      map[int64]map[string]string
	Predictions []Prediction
	Queues      []Queue
}

// Family is a root item and its children, in id order.
type Family struct {
	Root     Member
	Children []Member
}

// Result is a family's contribution.
type Result struct {
	Counts map[Key]int
	// Skip lists, per item, the annotators whose queues skip it: they
	// finished it, or it asks them nothing (Gated) (done_items).
	Skip map[int64][]Skip
	// Asked lists, per item of a kind that waits for its parent's labels,
	// whom it is asked of, done or not (asked_items, the queues' index of
	// such items): Anyone when it is asked of everyone at once, else each
	// annotator asked it at once (an assignee of a batch that asks at
	// once) or because of their labels on its parent (Offered). An
	// annotator whose labels on the parent gate an item asked of everyone
	// finds it in Skip.
	Asked map[int64][]int64
}

func (r *Result) add(k Key, n int) {
	if n != 0 {
		r.Counts[k] += n
	}
}

// Skip is an annotator whose queues skip an item.
type Skip struct {
	Annotator int64
	Gated     bool // the item asks them nothing (their labels on its parent)
}

// Kind is what the counts need of every kind: its name. Labels, queues
// and agreement are counted for every kind alike; what a kind adds to them
// it declares by the optional interfaces below (Queueable, Finisher,
// ItemCounter, RaterCounter, Referenced), each checked where it is used.
// A kind with nothing of its own implements Kind alone.
type Kind interface {
	Kind() schema.Kind
}

// Queueable is a kind whose items are not all annotated on their own (an
// annotator-added claim is not: it lives inside the missed-claims step).
type Queueable interface {
	Queueable(m *Member) bool
}

// Finisher adds a kind's own condition to "every asked field has a label"
// (the last claim of an answer waits for the missed-claims step).
type Finisher interface {
	Finished(f *Family, m *Member, rater int64) bool
}

// RaterCounter adds the kind's own counts for one rater.
type RaterCounter interface {
	Count(c *Counter, f *Family, m *Member, rater int64)
}

// ItemCounter adds the kind's own counts that depend on no rater.
type ItemCounter interface {
	CountItem(c *Counter, f *Family, m *Member)
}

// Referenced is a kind whose items may hold a reference rater's labels,
// not labels (a relevance gold set): every rule sees the member without
// them. Reference returns 0 for none.
type Referenced interface {
	Reference(m *Member) int64
}

// kinds are the registered kinds, in the order of registration.
var kinds schema.Registry[Kind]

// Register adds a kind's counting rules; each kind's file calls it from
// init. A kind registered twice is a mistake of the program.
func Register(k Kind) { kinds.Add(k) }

// Counter is handed to a kind's rules to add counts.
type Counter struct {
	res *Result
	src int64
	rd  *readings
}

// Add adds n to a count of the member's source.
func (c *Counter) Add(rater int64, name, a, b string, n int) {
	c.res.add(Key{Rater: rater, Source: c.src, Name: name, A: a, B: b}, n)
}

// Counted is the rater's labels on a member of the family being counted
// that the asked-when rule keeps (Family.Counted, worked out once): shared,
// so read-only.
func (c *Counter) Counted(m *Member, rater int64) map[string]string {
	return c.rd.countedOf(m, rater)
}

// Labels returns a rater's labels on a member (nil if none).
func (m *Member) LabelsOf(rater int64) map[string]string { return m.Labels[rater] }

// ParentLabels returns a rater's labels on the member's parent: the root,
// when the member is a child.
func (f *Family) ParentLabels(m *Member, rater int64) map[string]string {
	if m == &f.Root || m.ID == f.Root.ID {
		return nil
	}
	return f.Root.Labels[rater]
}

// Counted is the rater's labels on the member that the asked-when rule keeps.
func (f *Family) Counted(m *Member, rater int64) map[string]string {
	return schema.Counted(m.Kind, m.Labels[rater], f.ParentLabels(m, rater))
}

// Compute returns a family's contribution.
func Compute(f *Family) Result { return compute(f, newReadings(f)) }

func compute(f *Family, rd *readings) Result {
	// A QA pair and its claims labelled by three annotators make some 14
	// counts a member: sized once, the map does not grow (and rehash) on
	// the way.
	n := 1 + len(f.Children)
	res := Result{Counts: make(map[Key]int, 16*n), Skip: make(map[int64][]Skip, n), Asked: map[int64][]int64{}}
	computeMember(&res, f, &f.Root, rd)
	for i := range f.Children {
		computeMember(&res, f, &f.Children[i], rd)
	}
	return res
}

func computeMember(res *Result, f *Family, m *Member, rd *readings) {
	kr := kinds.Get(m.Kind)
	if rf, ok := kr.(Referenced); ok {
		if ref := rf.Reference(m); ref != 0 && m.Labels[ref] != nil {
			without := *m
			without.Labels = maps.Clone(m.Labels)
			delete(without.Labels, ref)
			m = &without
		}
	}
	c := &Counter{res: res, src: m.Source, rd: rd}
	queueable := true
	if q, ok := kr.(Queueable); ok {
		queueable = q.Queueable(m)
	}
	if ic, ok := kr.(ItemCounter); ok {
		ic.CountItem(c, f, m)
	}
	if queueable {
		c.Add(Anyone, Items, string(m.Kind), "", 1)
		for _, p := range m.Predictions {
			c.Add(Anyone, Predictions, p.System, p.Field, 1)
		}
		for _, q := range m.Queues {
			batch := strconv.FormatInt(q.Batch, 10)
			if q.Open {
				c.Add(Anyone, Queued, string(m.Kind), batch, 1)
			}
			for _, a := range q.Assigned {
				c.Add(a, Queued, string(m.Kind), batch, 1)
			}
		}
	}
	waits := queueable && schema.WaitsForParent(m.Kind)
	if waits {
		countAtOnce(c, f, m)
		everyone, who := atOnce(f, m)
		switch {
		case everyone:
			res.Asked[m.ID] = []int64{Anyone}
		case len(who) > 0:
			res.Asked[m.ID] = slices.Sorted(maps.Keys(who))
		}
	}
	rc, counts := kr.(RaterCounter)
	for _, r := range raters(f, m) {
		if queueable {
			countLabels(c, f, m, r)
			if r != Adjudicated {
				countQueue(res, c, f, m, r, kr)
			} else if reason := rd.gate(m, r); reason != "" {
				c.Add(r, Gated, string(m.Kind), reason, 1)
			}
		}
		if counts {
			rc.Count(c, f, m, r)
		}
	}
	if queueable {
		countAgreement(c, f, m)
	}
}

// raters lists who has labels on the member or, for a child, on its parent
// (whose labels decide what the child asks), or, for the root, on a child
// (whose labels make up the root's answer-level counts), in id order
// (Adjudicated first).
func raters(f *Family, m *Member) []int64 {
	set := map[int64]bool{}
	for r := range m.Labels {
		set[r] = true
	}
	if m.ID != f.Root.ID {
		for r := range f.Root.Labels {
			set[r] = true
		}
	} else {
		for i := range f.Children {
			for r := range f.Children[i].Labels {
				set[r] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// countLabels counts the rater's labels by field and value, and those the
// asked-when rule leaves out by field and reason.
func countLabels(c *Counter, f *Family, m *Member, r int64) {
	labels := m.Labels[r]
	if len(labels) == 0 {
		return
	}
	counted := c.Counted(m, r)
	for _, fd := range schema.SpecOf(m.Kind).Fields {
		v, ok := labels[fd.Name]
		if !ok {
			continue
		}
		if _, counts := counted[fd.Name]; counts {
			for _, b := range labelKeys(fd, v) {
				c.Add(r, Label, fd.Name, b, 1)
			}
		} else {
			c.Add(r, NotAsked, fd.Name, c.rd.notAsked(m, r, fd.Name), 1)
		}
	}
}

// labelKeys are the B of a counted label: its value; for a free-text
// field only that it is there (""), as an answer's text is no category to
// count by; for a multi-valued field with values, each of its elements.
func labelKeys(fd schema.Field, v string) []string {
	switch {
	case len(fd.Values) == 0:
		return []string{""}
	case fd.Multi:
		return schema.DecodeMulti(v)
	}
	return []string{v}
}

// countQueue decides whether the annotator's queues skip the item, and
// counts it as finished or as not asked, overall and per batch.
func countQueue(res *Result, c *Counter, f *Family, m *Member, r int64, kr Kind) {
	labels := m.Labels[r]
	name := ""
	reason := c.rd.gate(m, r)
	offered := true
	if schema.WaitsForParent(m.Kind) {
		offered = countOffered(c, f, m, r)
	}
	switch {
	case reason != "":
		name = Gated
	case !offered:
		return // not asked yet: neither in the queue nor finished
	case len(labels) > 0 && c.rd.nextField(m, r) == "" &&
		finished(kr, f, m, r):
		name = Done
	default:
		return
	}
	res.Skip[m.ID] = append(res.Skip[m.ID], Skip{Annotator: r, Gated: name == Gated})
	c.Add(r, name, string(m.Kind), reason, 1)
	for _, q := range m.Queues {
		if q.Open || slices.Contains(q.Assigned, r) {
			c.Add(r, name+InBatch, string(m.Kind), strconv.FormatInt(q.Batch, 10), 1)
		}
	}
}

// atOnce says who is asked an item at once, whatever their labels on its
// parent: everyone (its pair was imported as given, or it is in an open
// batch that asks at once), or the assignees of batches that ask at once.
func atOnce(f *Family, m *Member) (everyone bool, who map[int64]bool) {
	everyone = f.Root.Attrs[AttrAsGiven] == "1"
	who = map[int64]bool{}
	for _, q := range m.Queues {
		if !q.AtOnce {
			continue
		}
		if q.Open {
			everyone = true
		}
		for _, a := range q.Assigned {
			who[a] = true
		}
	}
	return everyone, who
}

func inQueue(q Queue, r int64) bool { return q.Open || slices.Contains(q.Assigned, r) }

// countAtOnce counts an item of a kind that waits for its parent's labels
// among the items asked at once (AtOnce), overall and per batch: under
// Anyone when everyone is asked it, else under each annotator who is.
func countAtOnce(c *Counter, f *Family, m *Member) {
	everyone, who := atOnce(f, m)
	kind := string(m.Kind)
	if everyone {
		c.Add(Anyone, AtOnce, kind, "", 1)
	} else {
		for _, a := range slices.Sorted(maps.Keys(who)) {
			c.Add(a, AtOnce, kind, "", 1)
		}
	}
	for _, q := range m.Queues {
		b := strconv.FormatInt(q.Batch, 10)
		switch {
		case q.Open && everyone:
			c.Add(Anyone, AtOnce+InBatch, kind, b, 1)
		case q.Open:
			for _, a := range slices.Sorted(maps.Keys(who)) {
				c.Add(a, AtOnce+InBatch, kind, b, 1)
			}
		default:
			for _, a := range q.Assigned {
				if everyone || who[a] {
					c.Add(a, AtOnce+InBatch, kind, b, 1)
				}
			}
		}
	}
}

// countOffered decides whether an item that waits for its parent's labels
// is asked of rater r, and corrects the at-once counts for r: an item asked
// at once that r's own labels on the parent gate is Withheld from r; one
// asked because of r's labels (an answer r judged correct) is Offered.
func countOffered(c *Counter, f *Family, m *Member, r int64) bool {
	everyone, who := atOnce(f, m)
	given := everyone || who[r]
	ok := c.rd.offered(m, r, given)
	name := ""
	switch {
	case given && !ok:
		name = Withheld
	case !given && ok:
		name = Offered
	default:
		return ok
	}
	kind := string(m.Kind)
	c.Add(r, name, kind, "", 1)
	for _, q := range m.Queues {
		if inQueue(q, r) {
			c.Add(r, name+InBatch, kind, strconv.FormatInt(q.Batch, 10), 1)
		}
	}
	if name == Offered {
		c.res.Asked[m.ID] = append(c.res.Asked[m.ID], r)
	}
	return ok
}

// countAgreement records, per field whose agreement is measured
// (schema.Field.Compared), which annotators gave which value: the pattern
// of the item. Every agreement statistic of any subset of
// annotators is a function of how many items share each pattern.
func countAgreement(c *Counter, f *Family, m *Member) {
	var ids []int64
	for r := range m.Labels {
		if r != Adjudicated {
			ids = append(ids, r)
		}
	}
	if len(ids) == 0 {
		return
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	counted := make([]map[string]string, len(ids))
	for i, r := range ids {
		counted[i] = c.Counted(m, r)
	}
	final := m.Labels[Adjudicated]
	finalParent := f.ParentLabels(m, Adjudicated)
	for _, fd := range schema.SpecOf(m.Kind).Fields {
		if !fd.Compared() {
			continue
		}
		var b strings.Builder
		first, disagree := "", false
		for i, r := range ids {
			v, ok := counted[i][fd.Name]
			if !ok || !slices.Contains(fd.Values, v) {
				continue
			}
			if b.Len() > 0 {
				b.WriteByte('|')
			}
			b.WriteString(strconv.FormatInt(r, 10))
			b.WriteByte('=')
			b.WriteString(v)
			if first == "" {
				first = v
			}
			disagree = disagree || v != first
		}
		if b.Len() > 0 {
			c.Add(Anyone, Agree, fd.Name, b.String(), 1)
		}
		// A marker's disagreement (two grades of a relevant document) is
		// not the lead's to decide: the field asked with it is.
		if _, decided := final[fd.Name]; disagree && !fd.Marker && !decided && !moot(m.Kind, fd, final, finalParent) {
			c.Add(Anyone, OpenDisagreement, fd.Name, "", 1)
		}
	}
}

// moot reports whether the lead's labels already make a field not asked, for
// good: its prerequisites are decided (the parent's too) and rule it out.
func moot(k schema.Kind, fd schema.Field, final, finalParent map[string]string) bool {
	if schema.ParentGate(k, finalParent) != "" {
		return true
	}
	if len(fd.AskedIf) == 0 || schema.Asked(fd.Name, final, finalParent) {
		return false
	}
	for _, c := range fd.AskedIf {
		if _, ok := final[c.Field]; !ok {
			return false
		}
	}
	return true
}

// Pattern is one decoded agreement pattern: annotator id -> value.
type Pattern map[int64]string

// ParsePattern decodes an Agree count's B.
func ParsePattern(s string) Pattern {
	p := Pattern{}
	for _, part := range strings.Split(s, "|") {
		id, v, ok := strings.Cut(part, "=")
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(id, 10, 64)
		if err == nil {
			p[n] = v
		}
	}
	return p
}

// Registered reports whether a kind has counting rules, so the store can
// refuse to open with a kind that forgot them.
func Registered(k schema.Kind) bool { _, ok := kinds.Lookup(k); return ok }

// finished is a kind's own condition of a finished item (Finisher), true
// for a kind without one.
func finished(k Kind, f *Family, m *Member, r int64) bool {
	fi, ok := k.(Finisher)
	return !ok || fi.Finished(f, m, r)
}
