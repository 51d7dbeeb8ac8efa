package store_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// lookupStore holds QA pairs with the ids given, each with the claims
// "<id>-c1".."<id>-cN" (N from claims, 0 when missing).
func lookupStore(t *testing.T, ids []string, claims map[string]int) *store.Store {
	t.Helper()
	s := storetest.Open(t)
	err := s.Import(func(tx *store.Tx) error {
		for _, id := range ids {
			qa := store.QAPair{ID: id, Source: "GDPR", Question: "Q " + id, Answer: "A " + id, Category: "factual_recall"}
			if _, _, err := tx.PutQA(qa, "h"+id, "f", false); err != nil {
				return err
			}
			for c := 1; c <= claims[id]; c++ {
				cl := store.Claim{ID: fmt.Sprintf("%s-c%d", id, c), QAID: id, Position: c, Triplet: [3]string{"s", "p", "o"}}
				if _, _, err := tx.PutClaim(cl, "h"+cl.ID, "f", false); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func extIDs(refs []store.ItemRef) string {
	var out []string
	for _, r := range refs {
		out = append(out, r.ExtID)
	}
	return strings.Join(out, ",")
}

func TestFindItems(t *testing.T) {
	s := lookupStore(t, []string{"gdpr-1", "GDPR-10", "gdpr-11", "civil_1", "civilX1", "Mixed"}, map[string]int{"gdpr-1": 2})
	for _, c := range []struct{ typed, want string }{
		{"gdpr-1", "gdpr-1"},                // exact, though four more ids start with it
		{"GDPR-1", "gdpr-1"},                // equal ignoring case
		{"mixed", "Mixed"},                  // equal ignoring case
		{"gdpr-10", "GDPR-10"},              // equal ignoring case
		{"GDPR-1-C", "gdpr-1-c1,gdpr-1-c2"}, // a start ignoring case: two
		{"gdpr-1-c2", "gdpr-1-c2"},          // exact
		{"gd", "GDPR-10,gdpr-1,…"},          // more than the limit: limit+1, in id order
		{"civil_", "civil_1"},               // _ is a character, not LIKE's wildcard
		{"nope", ""},
		{"", ""},
	} {
		refs, err := storetest.Read(t, s).FindItems(c.typed, 2)
		if err != nil {
			t.Fatal(err)
		}
		got := extIDs(refs)
		if len(refs) == 3 {
			got = extIDs(refs[:2]) + ",…"
		}
		if got != c.want {
			t.Errorf("FindItems(%q) = %s, want %s", c.typed, got, c.want)
		}
	}
}

// QueueRank and QueueKey count the queue's items, done or not, in queue
// order, for each kind of queue.
func TestQueuePositions(t *testing.T) {
	s := lookupStore(t, []string{"q1", "q2", "q3", "q4"}, map[string]int{"q1": 2, "q2": 1})
	ref := func(ext string) int64 {
		r, err := storetest.Read(t, s).Resolve(ext)
		if err != nil {
			t.Fatal(err)
		}
		return r.ItemID
	}
	pos := func(q store.QueueQuery, ext string) string {
		t.Helper()
		key, in, err := storetest.Read(t, s).QueueKey(q, ref(ext))
		if err != nil {
			t.Fatal(err)
		}
		if !in {
			return "-"
		}
		n, err := storetest.Read(t, s).QueueRank(q, 0, key)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(n)
	}
	positions := func(q store.QueueQuery, exts ...string) string {
		var out []string
		for _, e := range exts {
			out = append(out, pos(q, e))
		}
		return strings.Join(out, " ")
	}
	qa := store.QueueQuery{Annotator: "jo", Kind: string(schema.KindQA)}
	claims := store.QueueQuery{Annotator: "jo", Kind: string(schema.KindClaim)}
	// A finished item keeps its place.
	if _, err := s.RecordLabel(store.Label{Annotator: "jo", ItemID: ref("q1"), Field: schema.QuestionValidity, Value: "invalid"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordLabel(store.Label{Annotator: "jo", ItemID: ref("q1"), Field: schema.InvalidReason, Value: "both"}); err != nil {
		t.Fatal(err)
	}
	// A claim added by an annotator is not in the claims queue.
	if _, err := s.AddMissedClaim("jo", ref("q1"), [3]string{"a", "b", "c"}, 0); err != nil {
		t.Fatal(err)
	}
	if got := positions(qa, "q1", "q2", "q3", "q4", "q1-c1"); got != "1 2 3 4 -" {
		t.Errorf("QA queue: %s", got)
	}
	// q1 is invalid for jo: its claims ask jo nothing and leave jo's queue;
	// q2's claim comes in once jo judged its answer correct.
	if got := positions(claims, "q1-c1", "q1-c2", "q2-c1", "q3"); got != "- - - -" {
		t.Errorf("claims queue before q2 is judged: %s", got)
	}
	for _, l := range [][2]string{{schema.QuestionValidity, "valid"}, {schema.AnswerCorrectness, "correct"}} {
		if _, err := s.RecordLabel(store.Label{Annotator: "jo", ItemID: ref("q2"), Field: l[0], Value: l[1]}); err != nil {
			t.Fatal(err)
		}
	}
	if got := positions(claims, "q1-c1", "q1-c2", "q2-c1", "q3"); got != "- - 1 -" {
		t.Errorf("claims queue: %s", got)
	}
	// From a known position: the count between two keys.
	k1, _, _ := storetest.Read(t, s).QueueKey(qa, ref("q1"))
	k4, _, _ := storetest.Read(t, s).QueueKey(qa, ref("q4"))
	if n, err := storetest.Read(t, s).QueueRank(qa, k1, k4); err != nil || n != 3 {
		t.Errorf("QueueRank(q1, q4] = %d, %v; want 3", n, err)
	}
	// A batch open to everyone (order: its positions), then one assigned to
	// jo, which also becomes jo's QA queue.
	seed := int64(7)
	if _, err := s.CreateBatch(store.BatchSpec{Name: "open", Kind: string(schema.KindQA), Size: 4, Seed: &seed}); err != nil {
		t.Fatal(err)
	}
	open := store.QueueQuery{Annotator: "jo", Kind: string(schema.KindQA), Batch: "open"}
	got := positions(open, "q1", "q2", "q3", "q4")
	if strings.Count(got, "-") != 0 || len(strings.Fields(got)) != 4 {
		t.Fatalf("open batch: %s", got)
	}
	order, err := storetest.Read(t, s).Queue(store.QueueQuery{Annotator: "sam", Kind: string(schema.KindQA), Batch: "open"})
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range order { // sam has done nothing: the queue lists the batch in order
		if p := pos(open, e.ExtID); p != fmt.Sprint(i+1) {
			t.Errorf("open batch: %s at %s, Queue has it at %d", e.ExtID, p, i+1)
		}
	}
	s = lookupStore(t, []string{"q1", "q2", "q3", "q4"}, nil) // a batch takes items no other batch has
	if _, err := s.CreateBatch(store.BatchSpec{Name: "mine", Kind: string(schema.KindQA), Size: 2, Assign: []string{"jo"}, Seed: &seed}); err != nil {
		t.Fatal(err)
	}
	mine := store.QueueQuery{Annotator: "jo", Kind: string(schema.KindQA), Batch: "mine"}
	es, err := storetest.Read(t, s).Queue(mine)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range es {
		if p := pos(mine, e.ExtID); p != fmt.Sprint(i+1) {
			t.Errorf("assigned batch: %s at %s, want %d", e.ExtID, p, i+1)
		}
		if p := pos(qa, e.ExtID); p != fmt.Sprint(i+1) { // jo's QA queue is now the assigned items
			t.Errorf("assigned QA queue: %s at %s, want %d", e.ExtID, p, i+1)
		}
	}
	if len(es) != 2 {
		t.Fatalf("assigned batch has %d items, want 2", len(es))
	}
}

func TestLastWorked(t *testing.T) {
	s := lookupStore(t, []string{"q1", "q2"}, map[string]int{"q2": 1})
	if r, bs, err := storetest.Read(t, s).LastWorked("jo"); err != nil || r.ItemID != 0 || bs != nil {
		t.Fatalf("no decision yet: %v %v %v", r, bs, err)
	}
	seed := int64(1)
	if _, err := s.CreateBatch(store.BatchSpec{Name: "b", Kind: string(schema.KindClaim), Seed: &seed}); err != nil {
		t.Fatal(err)
	}
	for _, l := range [][3]string{{"q1", schema.QuestionValidity, "valid"}, {"q2-c1", schema.ClaimValidity, "correct"}} {
		r, _ := storetest.Read(t, s).Resolve(l[0])
		if _, err := s.RecordLabel(store.Label{Annotator: "jo", ItemID: r.ItemID, Field: l[1], Value: l[2]}); err != nil {
			t.Fatal(err)
		}
	}
	r, _ := storetest.Read(t, s).Resolve("q1")
	if _, err := s.RecordLabel(store.Label{Annotator: "sam", ItemID: r.ItemID, Field: schema.QuestionValidity, Value: "valid"}); err != nil {
		t.Fatal(err)
	}
	got, bs, err := storetest.Read(t, s).LastWorked("jo")
	if err != nil || got.ExtID != "q2-c1" || got.Kind != string(schema.KindClaim) || strings.Join(bs, ",") != "b" {
		t.Fatalf("LastWorked(jo) = %v %v %v, want q2-c1 in batch b", got, bs, err)
	}
}
