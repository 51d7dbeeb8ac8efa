// Package adjudication is the pure part of adjudication (`annotate review`): given
// the labels of the annotators compared and the lead's final labels, which
// (item, field)s wait for the lead, which agreements can be accepted in bulk
// and in what order. The store loads the items and writes the decisions;
// nothing here does I/O.
//
// Labels count by the asked-when rule applied to each annotator's own labels
// (and their labels on the item's parent: a claim of an answer an annotator
// judged incorrect asks that annotator nothing), as in the reports; the
// lead's final labels obey the same rule as a label set of their own. Fields
// are walked in schema order and agreements accepted field by field, parents
// before children, so an entailment is accepted only once the claim's
// validity (and its answer's correctness) is decided.
package adjudication

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/schema"
)

// Ref names an item.
type Ref struct {
	ID    int64
	Ext   string
	Kind  schema.Kind
	Added bool // an annotator-added claim (its only field is claim_added)
}

// Item is one item's labels as review reads them.
type Item struct {
	Ref
	Parent int64 // the parent item's id, 0 for none
	// Labels and ParentLabels are each compared annotator's (by index)
	// current labels on the item and on its parent.
	Labels, ParentLabels []map[string]string
	// Final and FinalParent are the adjudicated labels.
	Final, FinalParent map[string]string
}

// State says where a unit stands.
type State int

const (
	Pending State = iota // waits for the lead's decision
	Done                 // adjudicated
	Moot                 // not asked given the item's adjudicated labels
)

func (s State) String() string { return [...]string{"pending", "done", "not_asked"}[s] }

// Verdicts is what review knows of one (item, field).
type Verdicts struct {
	Field string
	// Labels holds each annotator's label that counts (asked given their
	// own labels); an annotator without one is absent.
	Labels   map[string]string
	Final    string // the adjudicated value, "" if none
	FollowUp bool   // fewer than two labels, but asked given the adjudicated labels
	// Single: one annotator's label, the others' own labels having not
	// asked them the field (sam judged the answer incorrect, so its claims
	// asked him nothing). The lead decides it like a disagreement, or
	// accepts the one label (in bulk: AcceptSingle). Planned from the
	// start, whatever the decisions it waits on, so the workload is whole;
	// it leaves the plan once those decisions make it not asked.
	Single bool
	State  State
	// Own: the lead gave a label in this unit (Adjudicator.Mark); their
	// decision is refused unless --allow-own.
	Own bool
}

// Verdict returns the verdicts (PlanOf reads them through it).
func (v Verdicts) Verdict() Verdicts { return v }

// Unit is one (item, field) to adjudicate.
type Unit struct {
	Ref
	Verdicts
}

// PlanOf is what review walks through, with units naming their item as the
// caller does (Plan here, store.Adjudication with the store's item references).
type PlanOf[U interface{ Verdict() Verdicts }] struct {
	Annotators []string
	Units      []U // field by field in schema order, items in import order
	// Agreements: (item, field)s where at least two annotators have a label
	// that counts and all agree (or, for claims an annotator added, whose
	// answer is adjudicated as having had claims added). Agreeing ones are
	// not adjudicated yet (nor moot), Ready of them the bulk accept would
	// accept now, Accepted ones carry an adjudication already.
	Agreeing, Ready, Accepted int
	// ReadySingle is what the bulk accept with single-label units would
	// accept now: Ready's agreements and the lone labels of single-label
	// units, each asked given the adjudicated and accepted labels.
	ReadySingle int
}

// Plan is the plan Make returns.
type Plan = PlanOf[Unit]

// Singles returns the pending single-label units of a field ("" : all).
func (p PlanOf[U]) Singles(field string) int {
	n := 0
	for _, u := range p.Units {
		if v := u.Verdict(); v.Single && v.State == Pending && (field == "" || v.Field == field) {
			n++
		}
	}
	return n
}

// Counts returns the units of a field ("" : all) by state.
func (p PlanOf[U]) Counts(field string) (pending, done, moot int) {
	for _, u := range p.Units {
		v := u.Verdict()
		if field != "" && v.Field != field {
			continue
		}
		switch v.State {
		case Pending:
			pending++
		case Done:
			done++
		default:
			moot++
		}
	}
	return
}

// Acceptance is one label the bulk accept writes.
type Acceptance struct {
	Item         int64
	Field, Value string
	// Own: the lead labelled this unit and accepts it with --allow-own
	// (Adjudicator.Keep), recorded as such.
	Own bool
}

// fieldsOf lists the fields review compares on an item: the asked fields
// with values to pick from and the answer-level marker of its kind; an annotator-added claim has only
// its claim_added (keep it, or drop it).
func fieldsOf(r Ref) []schema.Field {
	var out []schema.Field
	for _, f := range schema.KindFields(r.Kind) {
		switch {
		case len(f.Values) == 0 || f.Multi || f.Role == schema.RoleLead:
			// Free text, several values, the lead's own review of an
			// answer: not a pick among values (annotate review --kind
			// answer_task reviews gold answers).
		case r.Added:
			if f.Name == schema.ClaimAdded {
				out = append(out, f)
			}
		case f.Name != schema.ClaimAdded:
			out = append(out, f)
		}
	}
	return out
}

// Make classifies every (item, field) of the items into units and
// agreements and lists the agreements that are ready to accept. only
// restricts the units to one field; the agreements then cover that field
// and the fields before it in its kind. Items come in any order; parents
// are planned before their children.
func Make(items []Item, names []string, only string) (Plan, []Acceptance) {
	p, acc, _ := MakeAll(items, names, only)
	return p, acc
}

// MakeAll is Make that also lists what the bulk accept with single-label
// units writes: the agreements and the lone label of every single-label
// unit, in the same order (parents first, fields in schema order), each
// asked given what is adjudicated or accepted before it.
func MakeAll(items []Item, names []string, only string) (Plan, []Acceptance, []Acceptance) {
	pl := planner{plan: Plan{Annotators: names}, names: names, only: only, byField: map[string][]Unit{},
		agreements: pass{sims: map[int64]map[string]string{}}, withSingles: pass{sims: map[int64]map[string]string{}}}
	for _, it := range familyOrder(items) {
		pl.item(it)
	}
	return pl.finish()
}

// planner is one MakeAll under way. Two passes of acceptances run side by
// side: of agreements only, and of agreements and single-label units.
type planner struct {
	plan                    Plan
	names                   []string
	only                    string
	byField                 map[string][]Unit
	agreements, withSingles pass
}

// pass is one pass of acceptances: what it accepts, and by item the final
// labels plus what it accepted (a child reads its parent's).
type pass struct {
	acc  []Acceptance
	sims map[int64]map[string]string
}

// view is what one pass sees of one item: its labels as accepted so far,
// and its parent's.
type view struct {
	sim, parent map[string]string
}

// start opens the pass's view of an item.
func (ps *pass) start(it Item) view {
	v := view{sim: maps.Clone(it.Final), parent: it.FinalParent}
	if v.sim == nil {
		v.sim = map[string]string{}
	}
	if s, ok := ps.sims[it.Parent]; ok && it.Parent != 0 {
		v.parent = s
	}
	ps.sims[it.ID] = v.sim
	return v
}

// accept takes value for the field unless the pass has one already or the
// field is not asked given what the pass holds; it reports whether it took it.
func (ps *pass) accept(v view, item int64, f schema.Field, value string) bool {
	if v.sim[f.Name] != "" || !f.Marker && !schema.Asked(f.Name, v.sim, v.parent) {
		return false
	}
	ps.acc = append(ps.acc, Acceptance{Item: item, Field: f.Name, Value: value})
	v.sim[f.Name] = value
	return true
}

// fieldCase is one field of one item as review classifies it.
type fieldCase struct {
	f       schema.Field
	labels  map[string]string // each annotator's label that counts
	common  string            // the agreed value, when agree
	agree   bool
	inScope bool // its agreements count (only: up to the field asked for)
	moot    bool // not asked given the adjudicated labels, for good
	// followUp: asked only given other decisions, now made, that fewer
	// than two annotators answered: the lead answers it.
	followUp bool
	single   bool // one annotator's label, the others not asked it
}

// item plans one item's fields, in schema order up to the last in scope.
func (pl *planner) item(it Item) {
	fields := fieldsOf(it.Ref)
	counted := make([]map[string]string, len(pl.names))
	for i := range pl.names {
		counted[i] = schema.Counted(it.Kind, at(it.Labels, i), at(it.ParentLabels, i))
	}
	agreements, withSingles := pl.agreements.start(it), pl.withSingles.start(it)
	last := len(fields) - 1 // the last field whose agreements count
	if pl.only != "" {
		last = slices.IndexFunc(fields, func(f schema.Field) bool { return f.Name == pl.only })
	}
	spec := schema.SpecOf(it.Kind)
	for fi, f := range fields {
		c := pl.classify(it, spec, fields[:fi], f, counted, agreements.parent)
		c.inScope = fi <= last
		pl.acceptAgreement(it, c, agreements, withSingles)
		pl.acceptSingle(it, spec, c, withSingles)
		pl.keepAdded(it, c, agreements, withSingles)
		pl.addUnit(it, c)
		if fi == last {
			break
		}
	}
}

// classify reads one field's labels and says what kind of unit it is, given
// the adjudicated labels (and the parent's as the agreements pass holds them).
func (pl *planner) classify(it Item, spec *schema.Spec, earlier []schema.Field, f schema.Field, counted []map[string]string, finalParent map[string]string) fieldCase {
	c := fieldCase{f: f, labels: map[string]string{}}
	for i, l := range counted {
		if v := l[f.Name]; v != "" {
			c.labels[pl.names[i]] = v
		}
	}
	c.common, c.agree = agreed(f, c.labels)
	asked := f.Marker || schema.Asked(f.Name, it.Final, finalParent)
	c.moot = !asked && settled(f, spec, it.Final, finalParent, earlier)
	conditional := len(f.AskedIf) > 0 || it.Added || len(spec.UnlessParent) > 0 && decided(spec, finalParent)
	c.followUp = len(c.labels) < 2 && asked && conditional
	c.single = !it.Added && len(c.labels) == 1 && declined(it, f, pl.names, c.labels)
	return c
}

// acceptAgreement counts an agreement in scope and, when it is neither
// adjudicated nor moot, accepts its common value in both passes.
func (pl *planner) acceptAgreement(it Item, c fieldCase, agreements, withSingles view) {
	if !c.agree || !c.inScope {
		return
	}
	switch {
	case it.Final[c.f.Name] != "":
		pl.plan.Accepted++
	case !c.moot:
		pl.plan.Agreeing++
		pl.agreements.accept(agreements, it.ID, c.f, c.common)
		pl.withSingles.accept(withSingles, it.ID, c.f, c.common)
	}
}

// acceptSingle accepts the lone label of a single-label unit, in the pass
// that takes them, once its field is asked given the labels before it and
// the parent's fields its kind is gated on are decided (a claim waits for
// its answer's correctness).
func (pl *planner) acceptSingle(it Item, spec *schema.Spec, c fieldCase, withSingles view) {
	if !c.single || !c.inScope || it.Final[c.f.Name] != "" || c.moot || withSingles.sim[c.f.Name] != "" ||
		spec != nil && !decided(spec, withSingles.parent) {
		return
	}
	if v := soleValue(c.labels); slices.Contains(c.f.Values, v) {
		pl.withSingles.accept(withSingles, it.ID, c.f, v)
	}
}

// keepAdded keeps, in bulk, a claim an annotator added when the answer it
// was added to is adjudicated (or accepted) as having had claims added.
func (pl *planner) keepAdded(it Item, c fieldCase, agreements, withSingles view) {
	if !it.Added || c.f.Name != schema.ClaimAdded || !c.inScope || it.Final[c.f.Name] != "" || len(c.labels) != 1 {
		return
	}
	if agreements.sim[c.f.Name] == "" && agreements.parent[schema.MissedClaimsChecked] == "added" {
		pl.agreements.acc = append(pl.agreements.acc, Acceptance{Item: it.ID, Field: c.f.Name, Value: "yes"})
		agreements.sim[c.f.Name] = "yes"
		pl.plan.Agreeing++
	}
	if withSingles.sim[c.f.Name] == "" && withSingles.parent[schema.MissedClaimsChecked] == "added" {
		pl.withSingles.acc = append(pl.withSingles.acc, Acceptance{Item: it.ID, Field: c.f.Name, Value: "yes"})
		withSingles.sim[c.f.Name] = "yes"
	}
}

// addUnit puts a disagreement, a follow-up or a single-label unit in the
// plan. A single-label unit that its decisions made not asked leaves the
// plan: it was never a disagreement.
func (pl *planner) addUnit(it Item, c fieldCase) {
	if pl.only != "" && pl.only != c.f.Name || !(len(c.labels) >= 2 && !c.agree || c.followUp || c.single && !c.moot) {
		return
	}
	u := Unit{Ref: it.Ref, Verdicts: Verdicts{Field: c.f.Name, Labels: c.labels, Final: it.Final[c.f.Name], FollowUp: c.followUp, Single: c.single}}
	switch {
	case c.moot:
		u.State = Moot
	case u.Final != "":
		u.State = Done
	}
	pl.byField[c.f.Name] = append(pl.byField[c.f.Name], u)
}

// finish orders the units field by field in schema order, items in import
// order, and counts what each pass would accept.
func (pl *planner) finish() (Plan, []Acceptance, []Acceptance) {
	for _, k := range schema.Kinds() {
		for _, f := range schema.KindFields(k) {
			us := pl.byField[f.Name]
			slices.SortStableFunc(us, func(a, b Unit) int { return cmp.Compare(a.ID, b.ID) })
			pl.plan.Units = append(pl.plan.Units, us...)
		}
	}
	pl.plan.Ready, pl.plan.ReadySingle = len(pl.agreements.acc), len(pl.withSingles.acc)
	return pl.plan, pl.agreements.acc, pl.withSingles.acc
}

// familyOrder sorts items parents first: by root, then by id.
func familyOrder(items []Item) []Item {
	items = slices.Clone(items)
	slices.SortStableFunc(items, func(a, b Item) int {
		return cmp.Or(cmp.Compare(root(a), root(b)), cmp.Compare(a.ID, b.ID))
	})
	return items
}

// declined reports whether every compared annotator without a label of f
// on the item was, by their own labels, not asked it: they decided
// something that rules the field out (an answer judged incorrect, a claim
// judged incorrect), rather than not having got to it yet.
func declined(it Item, f schema.Field, names []string, labels map[string]string) bool {
	others := 0
	for i, n := range names {
		if _, ok := labels[n]; ok {
			continue
		}
		reason := schema.NotAskedReason(it.Kind, f.Name, at(it.Labels, i), at(it.ParentLabels, i))
		if reason == "" || strings.HasSuffix(reason, " unlabelled") {
			return false // asked, or waiting on a label of their own
		}
		others++
	}
	return others > 0
}

// soleValue is the one label of a single-label unit.
func soleValue(labels map[string]string) string {
	for _, v := range labels {
		return v
	}
	return ""
}

func root(it Item) int64 {
	if it.Parent != 0 {
		return it.Parent
	}
	return it.ID
}

func at(ls []map[string]string, i int) map[string]string {
	if i < len(ls) {
		return ls[i]
	}
	return nil
}

// agreed returns the common value of at least two labels that all agree.
// A common value outside the schema is no agreement: the lead decides it.
func agreed(f schema.Field, labels map[string]string) (string, bool) {
	if len(labels) < 2 {
		return "", false
	}
	common := ""
	for _, v := range labels {
		if common != "" && v != common {
			return "", false
		}
		common = v
	}
	return common, slices.Contains(f.Values, common)
}

// settled reports whether f's asked-when answer given the adjudicated labels
// can no longer change: it stays the same whatever values the earlier fields
// (and the parent's fields its kind is gated on) without an adjudication
// get, or if they get none. So a field that is not asked and settled is
// moot, while one waiting on an undecided prerequisite is not.
func settled(f schema.Field, spec *schema.Spec, final, finalParent map[string]string, earlier []schema.Field) bool {
	want := schema.Asked(f.Name, final, finalParent)
	type slot struct {
		field  schema.Field
		parent bool
	}
	var open []slot
	for _, e := range earlier {
		if final[e.Name] == "" && !e.Marker {
			open = append(open, slot{e, false})
		}
	}
	if spec != nil && spec.Parent != "" {
		for _, pf := range schema.Fields(spec.Parent) {
			if finalParent[pf.Name] == "" {
				open = append(open, slot{pf, true})
			}
		}
	}
	cur, curParent := maps.Clone(final), maps.Clone(finalParent)
	if cur == nil {
		cur = map[string]string{}
	}
	if curParent == nil {
		curParent = map[string]string{}
	}
	var try func(k int) bool
	try = func(k int) bool {
		if k == len(open) {
			return schema.Asked(f.Name, cur, curParent) == want
		}
		m := cur
		if open[k].parent {
			m = curParent
		}
		name := open[k].field.Name
		defer delete(m, name)
		delete(m, name)
		if !try(k + 1) {
			return false
		}
		for _, v := range open[k].field.Values {
			m[name] = v
			if !try(k + 1) {
				return false
			}
		}
		return true
	}
	return try(0)
}

// decided reports whether the lead has decided every parent field the kind
// is gated on (that is asked): only then does the gate say the item is asked.
func decided(spec *schema.Spec, finalParent map[string]string) bool {
	for _, c := range spec.UnlessParent {
		if schema.Asked(c.Field, finalParent, nil) && finalParent[c.Field] == "" {
			return false
		}
	}
	return true
}
