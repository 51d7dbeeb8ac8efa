package schema

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// The asked-when rule as it was written before Parent (a parent's labels
// recounted by every call), kept verbatim but renamed as the reference the
// functions built on Parent are compared with.

// refCounted: applies the asked-when rule to one rater's current labels on an
// item (and on its parent, nil when the kind has none or it is unknown): it
// keeps the labels of fields that are asked, dropping e.g. a persona left
// over from when the question was valid, and every field of a claim whose
// answer was judged incorrect. Markers always count.
func refCounted(k Kind, item, parent map[string]string) map[string]string {
	out := make(map[string]string, len(item))
	s := SpecOf(k)
	if s == nil {
		return out
	}
	gated := refParentGate(s, parent) != ""
	for _, f := range s.Fields {
		v, ok := item[f.Name]
		if !ok {
			continue
		}
		if f.Marker || (!gated && askedGiven(f, out)) {
			out[f.Name] = v
		}
	}
	return out
}

// refParentGate: returns the first UnlessParent condition that holds on the
// parent's counted labels, as "field=value", or "" when the item is asked.
func refParentGate(s *Spec, parent map[string]string) string {
	if len(s.UnlessParent) == 0 || len(parent) == 0 {
		return ""
	}
	pc := refCounted(s.Parent, parent, nil)
	for _, c := range s.UnlessParent {
		if c.holds(pc) {
			return c.Field + "=" + pc[c.Field]
		}
	}
	return ""
}

// refOffered: reports whether an item of kind k is asked of a rater whose labels
// on its parent are parent; atOnce when the parent is not under review for
// this rater (imported as given, or a batch that asks at once). When it is
// not, why: the parent gate ("answer_correctness=incorrect") or the
// condition still waited for ("answer_correctness unlabelled").
func refOffered(k Kind, parent map[string]string, atOnce bool) (bool, string) {
	s := SpecOf(k)
	if s == nil {
		return false, "unknown kind"
	}
	if g := refParentGate(s, parent); g != "" {
		return false, g
	}
	if atOnce || len(s.OnlyOnceParent) == 0 {
		return true, ""
	}
	pc := refCounted(s.Parent, parent, nil)
	for _, c := range s.OnlyOnceParent {
		if c.holds(pc) {
			return true, ""
		}
	}
	c := s.OnlyOnceParent[0]
	if v, ok := parent[c.Field]; ok {
		if _, counts := pc[c.Field]; counts {
			return false, c.Field + "=" + v
		}
		return false, c.Field + " not asked"
	}
	return false, c.Field + " unlabelled"
}

// refNotAskedReason: says why a label of field on the item is not counted:
// "answer_correctness=incorrect" (the parent gate), "claim_validity=incorrect"
// (the field's own condition), "claim_validity unlabelled"; "" when it counts.
func refNotAskedReason(k Kind, field string, item, parent map[string]string) string {
	s := SpecOf(k)
	if s == nil {
		return "unknown kind"
	}
	f, ok := fieldOf(s, field)
	if !ok {
		return "not a field of " + string(k)
	}
	if f.Marker {
		return ""
	}
	if g := refParentGate(s, parent); g != "" {
		return g
	}
	counted := refCounted(k, item, parent)
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

// refNextFieldOf: returns the first asked field of kind k that has no label yet
// by this rater, or "" when the item is complete. parent holds the rater's
// labels on the parent item (nil when none).
func refNextFieldOf(k Kind, item, parent map[string]string, role string) string {
	s := SpecOf(k)
	if s == nil || refParentGate(s, parent) != "" {
		return ""
	}
	counted := refCounted(k, item, parent)
	for _, f := range s.Fields {
		if f.Marker || f.Role != role || !askedGiven(f, counted) {
			continue
		}
		if _, ok := item[f.Name]; !ok || item[f.Name] == "" {
			return f.Name
		}
	}
	return ""
}

// randomLabels draws a rater's labels on an item of kind k: each field
// absent, one of its values, or a value outside them.
func randomLabels(rng *rand.Rand, k Kind) map[string]string {
	if rng.IntN(5) == 0 {
		return nil
	}
	out := map[string]string{}
	for _, f := range SpecOf(k).Fields {
		switch n := rng.IntN(len(f.Values) + 2); {
		case n == 0:
		case n == 1 || len(f.Values) == 0:
			out[f.Name] = "other"
		default:
			out[f.Name] = f.Values[n-2]
		}
	}
	return out
}

func TestParentMatchesTheReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 5))
	kinds := AllKinds()
	for range 20000 {
		k := kinds[rng.IntN(len(kinds))]
		item := randomLabels(rng, k)
		var parent map[string]string
		if s := SpecOf(k); s.Parent != "" {
			parent = randomLabels(rng, s.Parent)
		} else if rng.IntN(4) == 0 {
			parent = randomLabels(rng, KindQA) // a root given labels anyway
		}
		atOnce := rng.IntN(3) == 0
		if g, w := Counted(k, item, parent), refCounted(k, item, parent); !reflect.DeepEqual(g, w) {
			t.Fatalf("Counted(%s, %v, %v) = %v, want %v", k, item, parent, g, w)
		}
		if g, w := ParentGate(k, parent), refParentGate(SpecOf(k), parent); g != w {
			t.Fatalf("ParentGate(%s, %v) = %q, want %q", k, parent, g, w)
		}
		g1, g2 := Offered(k, parent, atOnce)
		w1, w2 := refOffered(k, parent, atOnce)
		if g1 != w1 || g2 != w2 {
			t.Fatalf("Offered(%s, %v, %v) = %v %q, want %v %q", k, parent, atOnce, g1, g2, w1, w2)
		}
		for _, role := range []string{"", RoleLead} {
			if g, w := NextFieldOf(k, item, parent, role), refNextFieldOf(k, item, parent, role); g != w {
				t.Fatalf("NextFieldOf(%s, %v, %v, %q) = %q, want %q", k, item, parent, role, g, w)
			}
		}
		for _, f := range append(SpecOf(k).Fields, Field{Name: "no_such_field"}) {
			if g, w := NotAskedReason(k, f.Name, item, parent), refNotAskedReason(k, f.Name, item, parent); g != w {
				t.Fatalf("NotAskedReason(%s, %s, %v, %v) = %q, want %q", k, f.Name, item, parent, g, w)
			}
		}
	}
	if g, w := NotAskedReason("nokind", Entailment, nil, nil), refNotAskedReason("nokind", Entailment, nil, nil); g != w {
		t.Errorf("unknown kind: %q, want %q", g, w)
	}
}
