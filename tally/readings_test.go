package tally

import (
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"github.com/annotate-dev/annotate/schema"
)

// randomLabels draws one rater's labels on an item of kind k: each field
// absent, one of its values, or a value outside them.
func randomLabels(rng *rand.Rand, k schema.Kind) map[string]string {
	out := map[string]string{}
	for _, f := range schema.KindFields(k) {
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

// randomRaters gives labels to some of the annotators 7, 8, 9 and the lead.
func randomRaters(rng *rand.Rand, k schema.Kind) map[int64]map[string]string {
	out := map[int64]map[string]string{}
	for _, r := range []int64{Adjudicated, 7, 8, 9} {
		if rng.IntN(3) > 0 {
			out[r] = randomLabels(rng, k)
		}
	}
	return out
}

func randomQueues(rng *rand.Rand) []Queue {
	var out []Queue
	for b := range rng.IntN(3) {
		q := Queue{Batch: int64(b + 1), Open: rng.IntN(2) == 0, AtOnce: rng.IntN(3) == 0}
		if !q.Open {
			for _, a := range []int64{7, 8, 9} {
				if rng.IntN(2) == 0 {
					q.Assigned = append(q.Assigned, a)
				}
			}
		}
		out = append(out, q)
	}
	return out
}

// randomFamily is a QA pair with up to six claims (some added by an
// annotator), or a generated answer with its claims: labels, predictions
// and batches drawn at random.
func randomFamily(rng *rand.Rand) *Family {
	root, child := schema.KindQA, schema.KindClaim
	if rng.IntN(4) == 0 {
		root, child = schema.KindGenAnswer, schema.KindGenClaim
	}
	asGiven := []string{"", "1"}[rng.IntN(2)]
	f := &Family{Root: Member{ID: 1, Kind: root, Source: 1,
		Attrs:  map[string]string{"hop": "single", "category": "factual_recall", AttrAsGiven: asGiven, AttrSystem: "s", AttrCondition: "rag"},
		Labels: randomRaters(rng, root), Queues: randomQueues(rng)}}
	for i := range rng.IntN(7) {
		attrs := map[string]string{AttrOrigin: "extracted", AttrPosition: strconv.Itoa(rng.IntN(4)), AttrExtractor: []string{"", "x"}[rng.IntN(2)]}
		if rng.IntN(5) == 0 {
			attrs[AttrOrigin], attrs[AttrAddedBy] = "annotator", strconv.Itoa(7+rng.IntN(3))
		}
		var preds []Prediction
		if rng.IntN(2) == 0 {
			field := schema.Entailment
			if child == schema.KindGenClaim {
				field = schema.Grounded
			}
			preds = append(preds, Prediction{"refchecker", field, []string{"Entailment", "neutral", "contradicted", "odd"}[rng.IntN(4)]})
		}
		f.Children = append(f.Children, Member{ID: int64(2 + i), Kind: child, Source: 1, Attrs: attrs,
			Labels: randomRaters(rng, child), Predictions: preds, Queues: randomQueues(rng)})
	}
	return f
}

// The counts Compute keeps of a family are those of the rules asking the
// schema afresh for every question, on random families.
func TestReadingsCountAsRecomputing(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 5))
	for i := range 1500 {
		f := randomFamily(rng)
		got := Compute(f)
		slow := newReadings(f)
		slow.recompute = true
		want := compute(f, slow)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("family %d %+v:\ncounts %v\nwant   %v", i, f, got, want)
		}
		for j := range f.Children {
			m := &f.Children[j]
			for _, r := range []int64{Adjudicated, 7, 8, 9} {
				s1, e1 := Verify(f, m, r)
				s2, e2 := verify(slow, m, r)
				if s1 != s2 || e1 != e2 {
					t.Fatalf("family %d: Verify(%d, %d) = %q %q, want %q %q", i, m.ID, r, s1, e1, s2, e2)
				}
			}
		}
	}
}
