package schema

// Parent is what the asked-when rule reads of one rater's labels on the
// parent of an item of some kind: the parent's counted labels and the gate
// they set. Worked out once, it serves each of the parent's children (the
// five claims of a QA pair) instead of being recounted for every question
// asked about every child; Counted, ParentGate, Offered, NotAskedReason and
// NextFieldOf are its methods on a Parent made for the call.
type Parent struct {
	spec *Spec // the child's kind, nil when unknown
	// Labels are the rater's labels on the parent, as given (nil: none).
	Labels map[string]string
	// Counted are the parent's labels its own kind counts (nil when it has
	// none); shared, so read-only.
	Counted map[string]string
	// Gate is the first of the child kind's UnlessParent conditions that
	// holds, as "field=value", or "" when the child is asked.
	Gate string
}

// ParentOf reads a rater's labels on the parent of an item of kind k (nil
// when the item has no parent).
func ParentOf(k Kind, labels map[string]string) Parent {
	p := Parent{spec: SpecOf(k), Labels: labels}
	if p.spec == nil || len(labels) == 0 || p.spec.Parent == "" {
		return p
	}
	// The parent's own parent is not read: its counted labels are those of
	// a root.
	p.Counted = countedBy(SpecOf(p.spec.Parent), labels, false)
	for _, c := range p.spec.UnlessParent {
		if c.holds(p.Counted) {
			p.Gate = c.Field + "=" + p.Counted[c.Field]
			break
		}
	}
	return p
}

// CountedItem keeps the labels of a child (of the kind the Parent was made
// for) that the asked-when rule counts: see Counted.
func (p Parent) CountedItem(item map[string]string) map[string]string {
	return countedBy(p.spec, item, p.Gate != "")
}

// Offered says whether the child is asked of the rater: see Offered.
func (p Parent) Offered(atOnce bool) (bool, string) {
	s := p.spec
	if s == nil {
		return false, "unknown kind"
	}
	if p.Gate != "" {
		return false, p.Gate
	}
	if atOnce || len(s.OnlyOnceParent) == 0 {
		return true, ""
	}
	for _, c := range s.OnlyOnceParent {
		if c.holds(p.Counted) {
			return true, ""
		}
	}
	c := s.OnlyOnceParent[0]
	if v, ok := p.Labels[c.Field]; ok {
		if _, counts := p.Counted[c.Field]; counts {
			return false, c.Field + "=" + v
		}
		return false, c.Field + " not asked"
	}
	return false, c.Field + " unlabelled"
}

// NotAskedReason says why the child's label of field is not counted: see
// NotAskedReason.
func (p Parent) NotAskedReason(field string, item map[string]string) string {
	s := p.spec
	if s == nil {
		return "unknown kind"
	}
	f, ok := fieldOf(s, field)
	if !ok {
		return "not a field of " + string(s.Kind)
	}
	if f.Marker {
		return ""
	}
	if p.Gate != "" {
		return p.Gate
	}
	counted := p.CountedItem(item)
	if askedGiven(f, counted) {
		return ""
	}
	c := f.AskedIf[0]
	if v, ok := item[c.Field]; ok {
		if _, counts := counted[c.Field]; counts {
			return c.Field + "=" + v
		}
		return c.Field + " not asked"
	}
	return c.Field + " unlabelled"
}

// NextField is the child's first asked field of the role without a label:
// see NextFieldOf. An optional field is not one: it never leaves an item
// unfinished.
func (p Parent) NextField(item map[string]string, role string) string {
	return p.next(item, role, nil)
}

// next is NextField where the optional fields not passed are asked too
// (passed nil: none is).
func (p Parent) next(item map[string]string, role string, passed func(field string) bool) string {
	s := p.spec
	if s == nil || p.Gate != "" {
		return ""
	}
	counted := p.CountedItem(item)
	for _, f := range s.Fields {
		if f.Marker || f.Role != role || !askedGiven(f, counted) {
			continue
		}
		if f.Optional && (passed == nil || passed(f.Name)) {
			continue
		}
		if _, ok := item[f.Name]; !ok || item[f.Name] == "" {
			return f.Name
		}
	}
	return ""
}
