package store

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// TestKeptCountsEqualRecount is the property test of the kept counts: after
// every step of random sequences of imports, labels, undos, labels on a
// pair that change what its claims ask, added claims, adjudications, batches
// and re-imports, the kept counts and done items equal a recount from
// scratch that replays the label log itself (not current_labels). One seed
// in three writes its imports in the smallest steps (a commit at every
// chance) and makes one import in three fail at its end: undone from its
// journal, it leaves every table as it was.
func TestKeptCountsEqualRecount(t *testing.T) {
	for seed := range uint64(30) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			if seed%2 == 1 {
				// Odd seeds write rows in bulk two at a time, so bulks
				// are written at every odd moment of a transaction.
				defer func(n int) { bulkRows = n }(bulkRows)
				bulkRows = 2
			}
			s := openTemp(t)
			r := rand.New(rand.NewPCG(seed, 99))
			w := &walker{t: t, s: s, r: r}
			if seed%3 == 2 {
				defer SetImportSteps(time.Nanosecond, 0)()
				w.failing = true
			}
			for step := range 40 {
				what := w.step()
				if msg := checkKept(t, s); msg != "" {
					t.Fatalf("seed %d, step %d (%s): %s", seed, step, what, msg)
				}
			}
		})
	}
}

type walker struct {
	t       *testing.T
	s       *Store
	r       *rand.Rand
	pairs   int
	batches int
	failing bool // one import in three fails at its end
}

// errFailedOnPurpose ends an import the walker makes fail.
var errFailedOnPurpose = errors.New("failed on purpose")

var people = []string{"jo", "sam", "lea"}

func (w *walker) item() (ItemRef, bool) {
	var refs []ItemRef
	for i := 1; i <= w.pairs; i++ {
		for _, ext := range []string{fmt.Sprintf("q%d", i), fmt.Sprintf("q%d-c1", i), fmt.Sprintf("q%d-c2", i), fmt.Sprintf("q%d-c3", i)} {
			if ref, err := w.s.pooled().Resolve(ext); err == nil {
				refs = append(refs, ref)
			}
		}
	}
	if len(refs) == 0 {
		return ItemRef{}, false
	}
	return refs[w.r.IntN(len(refs))], true
}

// value picks a value of a field, now and then one outside the schema.
func (w *walker) value(f schema.Field) string {
	if w.r.IntN(12) == 0 {
		return "Maybe"
	}
	return f.Values[w.r.IntN(len(f.Values))]
}

func (w *walker) step() string {
	t, s, r := w.t, w.s, w.r
	op := r.IntN(10)
	if w.pairs == 0 {
		op = 0
	}
	switch op {
	case 0, 1: // import (new pairs, or the same ones changed with --update)
		update := w.pairs > 0 && r.IntN(2) == 0
		n := 1 + r.IntN(2)
		fail := w.failing && r.IntN(3) == 0
		before := ""
		if fail {
			before = dbDigest(t, s)
		}
		err := s.Import(func(tx *Tx) error {
			for k := 0; k < n; k++ {
				i := w.pairs + 1 + k
				if update {
					i = 1 + r.IntN(w.pairs)
				}
				hop := []string{"single", "multi"}[r.IntN(2)]
				cat := []string{"factual_recall", "false_premise", "Weird"}[r.IntN(3)]
				qa := QAPair{ID: fmt.Sprintf("q%d", i), Source: []string{"GDPR", "CIVIL"}[i%2], Question: "Q", Answer: "A", Hop: hop, Category: cat,
					Contexts: []Context{{ID: fmt.Sprintf("p%d", i), Text: "t"}}, Predictions: map[string]string{"refchecker": []string{"Factual", "Nonfactual"}[r.IntN(2)]},
					AsGiven: r.IntN(6) == 0} // its claims asked of everyone at once
				if _, _, err := tx.PutQA(qa, qa.Hop+qa.Category+qa.Predictions["refchecker"], "f", update); err != nil {
					return err
				}
				for c := 1; c <= 1+r.IntN(3); c++ {
					pred := []string{"Entailment", "neutral", "contradicted", "odd"}[r.IntN(4)]
					cl := Claim{ID: fmt.Sprintf("q%d-c%d", i, c), QAID: qa.ID, Position: c, Triplet: [3]string{"s", "p", "o"},
						Predictions: map[string]string{"refchecker": pred}}
					if r.IntN(3) == 0 {
						cl.Predictions["nli"] = "neutral"
					}
					if _, _, err := tx.PutClaim(cl, pred+fmt.Sprint(len(cl.Predictions)), "f", update); err != nil {
						return err
					}
				}
				// Labels come in with the import too.
				if r.IntN(2) == 0 {
					id, _, err := tx.ItemID(qa.ID)
					if err != nil {
						return err
					}
					if _, err := tx.PutLabel(Label{Annotator: people[r.IntN(3)], ItemID: id, Field: schema.QuestionValidity, Value: []string{"valid", "invalid"}[r.IntN(2)]}); err != nil {
						return err
					}
				}
			}
			if fail {
				return errFailedOnPurpose
			}
			return nil
		})
		if fail {
			if !errors.Is(err, errFailedOnPurpose) {
				t.Fatalf("an import made to fail: %v", err)
			}
			if after := dbDigest(t, s); after != before {
				t.Fatalf("a failed import left the database changed:\n%s", diffLines(before, after))
			}
			return fmt.Sprintf("failed import %d update=%v", n, update)
		}
		if err != nil {
			t.Fatal(err)
		}
		if !update {
			w.pairs += n
		}
		return fmt.Sprintf("import %d update=%v", n, update)
	case 2, 3, 4: // a decision on screen
		ref, ok := w.item()
		if !ok {
			return "nothing"
		}
		who := people[r.IntN(3)]
		fields := schema.Fields(schema.Kind(ref.Kind))
		if ref.Kind == string(schema.KindQA) && r.IntN(3) == 0 {
			// The usual way through a pair: the question valid, the
			// answer judged (correct, most often: its claims are asked).
			answer := []string{"correct", "correct", "incorrect"}[r.IntN(3)]
			for _, l := range [][2]string{{schema.QuestionValidity, "valid"}, {schema.AnswerCorrectness, answer}} {
				if _, err := s.RecordLabel(Label{Annotator: who, ItemID: ref.ItemID, Field: l[0], Value: l[1]}); err != nil {
					t.Fatal(err)
				}
			}
			return fmt.Sprintf("%s judges %s's answer %s", who, ref.ExtID, answer)
		}
		if ref.Kind == string(schema.KindQA) && r.IntN(4) == 0 {
			_, err := s.RecordLabel(Label{Annotator: who, ItemID: ref.ItemID, Field: schema.MissedClaimsChecked, Value: "checked"})
			if err != nil {
				t.Fatal(err)
			}
			return who + " marks " + ref.ExtID
		}
		f := fields[r.IntN(len(fields))]
		v := w.value(f)
		if _, err := s.RecordLabel(Label{Annotator: who, ItemID: ref.ItemID, Field: f.Name, Value: v}); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%s labels %s %s=%s", who, ref.ExtID, f.Name, v)
	case 5: // undo
		who := people[r.IntN(3)]
		if _, _, err := s.Undo(who); err != nil && err != ErrNothingToUndo {
			t.Fatal(err)
		}
		return who + " undoes"
	case 6: // a missed claim
		qa := 1 + r.IntN(w.pairs)
		ref, _ := s.pooled().Resolve(fmt.Sprintf("q%d", qa))
		who := people[r.IntN(3)]
		if _, err := s.AddMissedClaim(who, ref.ItemID, [3]string{"x", "y", "z"}, 0); err != nil {
			t.Fatal(err)
		}
		return who + " adds a claim to " + ref.ExtID
	case 7: // adjudication
		if r.IntN(3) == 0 {
			if _, err := s.UndoAdjudication("lead"); err != nil && err != ErrNothingToUndo {
				t.Fatal(err)
			}
			return "lead undoes"
		}
		ref, ok := w.item()
		if !ok {
			return "nothing"
		}
		fields := schema.Fields(schema.Kind(ref.Kind))
		f := fields[r.IntN(len(fields))]
		if _, err := s.RecordLabel(Label{Annotator: "lead", ItemID: ref.ItemID, Field: f.Name, Value: w.value(f), Adjudicate: true}); err != nil {
			t.Fatal(err)
		}
		return "lead decides " + ref.ExtID
	case 8: // a batch
		w.batches++
		kind := []string{"qa", "claim"}[r.IntN(2)]
		spec := BatchSpec{Name: fmt.Sprintf("b%d", w.batches), Kind: kind, Size: 1 + r.IntN(3)}
		if r.IntN(2) == 0 {
			spec.Assign = []string{"jo", "sam"}
			spec.Overlap = 1 + r.IntN(2)
		}
		if kind == "claim" {
			// Claims asked at once (answers judged elsewhere), or only
			// those of answers each assignee judged correct.
			switch r.IntN(3) {
			case 0:
				spec.WithoutQA = true
			case 1:
				spec.OnlyCorrectAnswers = spec.Assign != nil
			}
		}
		if _, err := s.CreateBatch(spec); err != nil && !strings.Contains(err.Error(), "no ") {
			t.Fatal(err)
		}
		return "batch " + spec.Name
	default: // a label of another file
		ref, ok := w.item()
		if !ok {
			return "nothing"
		}
		fields := schema.Fields(schema.Kind(ref.Kind))
		f := fields[r.IntN(len(fields))]
		err := s.Import(func(tx *Tx) error {
			_, err := tx.PutLabel(Label{Annotator: people[r.IntN(3)], ItemID: ref.ItemID, Field: f.Name, Value: w.value(f)})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return "imported label on " + ref.ExtID
	}
}

// checkKept compares kept_counts, done_items and asked_items with a recount that replays
// label_events; it returns what differs.
func checkKept(t *testing.T, s *Store) string {
	t.Helper()
	kept := map[tally.Key]int{}
	err := eachRow(s.db, "SELECT name, rater, source_id, a, b, n FROM kept_counts", nil, func(sc func(...any) error) error {
		var k tally.Key
		var n int
		if err := sc(&k.Name, &k.Rater, &k.Source, &k.A, &k.B, &n); err != nil {
			return err
		}
		kept[k] = n
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	skip := map[string]bool{}
	err = eachRow(s.db, "SELECT item_id, annotator_id, gated FROM done_items", nil, func(sc func(...any) error) error {
		var item, a int64
		var gated bool
		if err := sc(&item, &a, &gated); err != nil {
			return err
		}
		skip[fmt.Sprint(item, "/", a, "/", gated)] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	asked := map[string]bool{}
	err = eachRow(s.db, "SELECT annotator_id, item_id FROM asked_items", nil, func(sc func(...any) error) error {
		var a, item int64
		if err := sc(&a, &item); err != nil {
			return err
		}
		asked[fmt.Sprint(a, "/", item)] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// The label log, replayed: the latest event per key that is neither a
	// retraction nor retracted.
	type lkey struct {
		role      string
		aid, item int64
		field     string
	}
	latest := map[lkey]struct {
		id    int64
		value string
	}{}
	retracted := map[int64]bool{}
	type ev struct {
		id, aid, item, retracts int64
		field, role, value      string
	}
	var evs []ev
	err = eachRow(s.db, "SELECT id, annotator_id, item_id, field, role, COALESCE(value,''), COALESCE(retracts,0) FROM label_events ORDER BY id", nil, func(sc func(...any) error) error {
		var e ev
		if err := sc(&e.id, &e.aid, &e.item, &e.field, &e.role, &e.value, &e.retracts); err != nil {
			return err
		}
		evs = append(evs, e)
		if e.retracts != 0 {
			retracted[e.retracts] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if e.retracts != 0 || retracted[e.id] {
			continue
		}
		k := lkey{e.role, e.aid, e.item, e.field}
		if e.role == RoleAdjudicate {
			k.aid = 0 // the latest adjudicator wins
		}
		latest[k] = struct {
			id    int64
			value string
		}{e.id, e.value}
	}
	roots, err := int64s(s.db, "SELECT id FROM items WHERE parent_id IS NULL ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	fams, err := loadFamilies(s.db, roots)
	if err != nil {
		t.Fatal(err)
	}
	want := map[tally.Key]int{}
	wantSkip := map[string]bool{}
	wantAsked := map[string]bool{}
	for _, f := range fams {
		members := []*tally.Member{&f.Root}
		for i := range f.Children {
			members = append(members, &f.Children[i])
		}
		for _, m := range members {
			m.Labels = map[int64]map[string]string{}
			for k, v := range latest {
				if k.item != m.ID {
					continue
				}
				rater := k.aid
				if k.role == RoleAdjudicate {
					rater = tally.Adjudicated
				}
				if m.Labels[rater] == nil {
					m.Labels[rater] = map[string]string{}
				}
				m.Labels[rater][k.field] = v.value
			}
		}
		res := tally.Compute(f)
		for k, n := range res.Counts {
			want[k] += n
		}
		for id, who := range res.Skip {
			for _, a := range who {
				wantSkip[fmt.Sprint(id, "/", a.Annotator, "/", a.Gated)] = true
			}
		}
		for id, who := range res.Asked {
			for _, a := range who {
				wantAsked[fmt.Sprint(a, "/", id)] = true
			}
		}
	}
	maps.DeleteFunc(want, func(_ tally.Key, n int) bool { return n == 0 })
	var diffs []string
	keys := slices.Collect(maps.Keys(want))
	for k := range kept {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		if kept[k] != want[k] {
			diffs = append(diffs, fmt.Sprintf("%v kept %d, recount %d", k, kept[k], want[k]))
		}
	}
	if !maps.Equal(skip, wantSkip) {
		diffs = append(diffs, fmt.Sprintf("done_items %v, recount %v", slices.Sorted(maps.Keys(skip)), slices.Sorted(maps.Keys(wantSkip))))
	}
	if !maps.Equal(asked, wantAsked) {
		diffs = append(diffs, fmt.Sprintf("asked_items %v, recount %v", slices.Sorted(maps.Keys(asked)), slices.Sorted(maps.Keys(wantAsked))))
	}
	slices.Sort(diffs)
	if len(diffs) > 8 {
		diffs = append(diffs[:8], "…")
	}
	return strings.Join(diffs, "\n")
}
