package tally

import "github.com/annotate-dev/annotate/schema"

// readings is the asked-when rule's reading of one family, worked out once
// per member and rater during a Compute. The rules ask the same things many
// times: every claim reads its pair's counted labels for each of its
// questions (is it gated, offered, finished, which labels count), and the
// pair's labels are the same for each of its claims. Nothing in a family
// changes while it is counted, so the answers are kept; they are read-only.
type readings struct {
	f       *Family
	parents map[kindRater]schema.Parent
	counted map[memberRater]map[string]string
	// recompute asks the schema's functions afresh every time, as the
	// rules were first written: the tests compare the two ways.
	recompute bool
}

type kindRater struct {
	k schema.Kind
	r int64
}

type memberRater struct {
	m *Member
	r int64
}

func newReadings(f *Family) *readings {
	return &readings{f: f, parents: map[kindRater]schema.Parent{}, counted: map[memberRater]map[string]string{}}
}

// parent is the rater's labels on m's parent, as m's kind reads them.
func (rd *readings) parent(m *Member, r int64) schema.Parent {
	labels := rd.f.ParentLabels(m, r)
	if labels == nil {
		return schema.ParentOf(m.Kind, nil) // a root, or no labels: nothing to count
	}
	k := kindRater{m.Kind, r}
	p, ok := rd.parents[k]
	if !ok {
		p = schema.ParentOf(m.Kind, labels)
		rd.parents[k] = p
	}
	return p
}

// countedOf is the rater's labels on m that the asked-when rule keeps.
func (rd *readings) countedOf(m *Member, r int64) map[string]string {
	if rd.recompute {
		return rd.f.Counted(m, r)
	}
	k := memberRater{m, r}
	c, ok := rd.counted[k]
	if !ok {
		c = rd.parent(m, r).CountedItem(m.Labels[r])
		rd.counted[k] = c
	}
	return c
}

// gate is why m asks the rater nothing because of their labels on its
// parent, "" when it is asked.
func (rd *readings) gate(m *Member, r int64) string {
	if rd.recompute {
		return schema.ParentGate(m.Kind, rd.f.ParentLabels(m, r))
	}
	return rd.parent(m, r).Gate
}

// offered says whether m is asked of the rater (schema.Offered).
func (rd *readings) offered(m *Member, r int64, atOnce bool) bool {
	if rd.recompute {
		ok, _ := schema.Offered(m.Kind, rd.f.ParentLabels(m, r), atOnce)
		return ok
	}
	ok, _ := rd.parent(m, r).Offered(atOnce)
	return ok
}

// nextField is the first field m still asks the annotator r.
func (rd *readings) nextField(m *Member, r int64) string {
	if rd.recompute {
		return schema.NextFieldOf(m.Kind, m.Labels[r], rd.f.ParentLabels(m, r), "")
	}
	return rd.parent(m, r).NextField(m.Labels[r], "")
}

// notAsked says why the rater's label of field on m is not counted.
func (rd *readings) notAsked(m *Member, r int64, field string) string {
	if rd.recompute {
		return schema.NotAskedReason(m.Kind, field, m.Labels[r], rd.f.ParentLabels(m, r))
	}
	return rd.parent(m, r).NotAskedReason(field, m.Labels[r])
}
