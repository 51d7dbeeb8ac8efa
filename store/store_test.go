package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func openTemp(t testing.TB) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// seed imports n QA pairs with claimsPer claims each.
func seed(t testing.TB, s *Store, n, claimsPer int) {
	t.Helper()
	err := s.Import(func(tx *Tx) error {
		for i := 1; i <= n; i++ {
			qa := QAPair{ID: fmt.Sprintf("q%d", i), Source: "GDPR", Language: "en", Question: "Q?", Answer: "A.",
				Category: "factual_recall", Contexts: []Context{{ID: fmt.Sprintf("p%d", i%3), Text: fmt.Sprintf("para %d", i%3)}}}
			if _, _, err := tx.PutQA(qa, "h"+qa.ID, "f", false); err != nil {
				return err
			}
			for c := 1; c <= claimsPer; c++ {
				cl := Claim{ID: fmt.Sprintf("q%d-c%d", i, c), QAID: qa.ID, Position: c, Triplet: [3]string{"s", "p", "o"},
					Predictions: map[string]string{"refchecker": "entailment"}}
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
}

func label(t *testing.T, s *Store, who, ext, field, value string) {
	t.Helper()
	ref, err := s.pooled().Resolve(ext)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordLabel(Label{Annotator: who, ItemID: ref.ItemID, Field: field, Value: value, ActiveMs: 1000}); err != nil {
		t.Fatal(err)
	}
}

func queueIDs(t *testing.T, s *Store, q QueueQuery) string {
	t.Helper()
	es, err := s.pooled().Queue(q)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range es {
		ids = append(ids, e.ExtID)
	}
	return strings.Join(ids, " ")
}

func TestNewerSchemaRefused(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.db")
	s, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	s.db.Exec(fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion()+1))
	s.Close()
	_, err = Open(p)
	if err == nil || !strings.Contains(err.Error(), "newer annotate") {
		t.Fatalf("want refusal of a newer file, got %v", err)
	}
}

func TestQueueFollowsAskedWhenRule(t *testing.T) {
	s := openTemp(t)
	seed(t, s, 3, 0)
	q := QueueQuery{Annotator: "jo", Kind: "qa"}
	if got := queueIDs(t, s, q); got != "q1 q2 q3" {
		t.Fatalf("queue %q", got)
	}
	// An invalid question is done after its reason alone.
	label(t, s, "jo", "q1", "question_validity", "invalid")
	if got := queueIDs(t, s, q); got != "q1 q2 q3" {
		t.Fatalf("q1 not done yet: %q", got)
	}
	label(t, s, "jo", "q1", "invalid_reason", "domain")
	if got := queueIDs(t, s, q); got != "q2 q3" {
		t.Fatalf("after invalid+reason: %q", got)
	}
	// A valid one needs category, persona, correctness.
	for _, fv := range [][2]string{{"question_validity", "valid"}, {"category", "factual_recall"}, {"persona", "citizen"}} {
		label(t, s, "jo", "q2", fv[0], fv[1])
	}
	if got := queueIDs(t, s, q); got != "q2 q3" {
		t.Fatalf("q2 still lacks correctness: %q", got)
	}
	label(t, s, "jo", "q2", "answer_correctness", "correct")
	if got := queueIDs(t, s, q); got != "q3" {
		t.Fatalf("got %q", got)
	}
	// Another annotator's queue is untouched.
	if got := queueIDs(t, s, QueueQuery{Annotator: "sam", Kind: "qa"}); got != "q1 q2 q3" {
		t.Fatalf("sam: %q", got)
	}
	// Undo of the last decision puts q2 back.
	ev, _, err := s.Undo("jo")
	if err != nil || ev.Field != "answer_correctness" || ev.ItemExtID != "q2" {
		t.Fatalf("undo: %+v %v", ev, err)
	}
	if got := queueIDs(t, s, q); got != "q2 q3" {
		t.Fatalf("after undo: %q", got)
	}
	cur, _ := s.pooled().CurrentLabels("jo", ev.ItemID)
	if _, ok := cur["answer_correctness"]; ok || cur["persona"] != "citizen" {
		t.Fatalf("current after undo: %v", cur)
	}
}

func TestUndoRestoresEarlierValueAndKeepsHistory(t *testing.T) {
	s := openTemp(t)
	seed(t, s, 1, 1)
	label(t, s, "jo", "q1-c1", "claim_validity", "correct")
	label(t, s, "jo", "q1-c1", "claim_validity", "incorrect")
	ev, _, err := s.Undo("jo")
	if err != nil {
		t.Fatal(err)
	}
	cur, _ := s.pooled().CurrentLabels("jo", ev.ItemID)
	if cur["claim_validity"] != "correct" {
		t.Fatalf("want the earlier value back, got %v", cur)
	}
	h, _ := s.pooled().History(ev.ItemID)
	if len(h) != 3 || h[2].Retracts != h[1].ID {
		t.Fatalf("history %+v", h)
	}
	s.Undo("jo")
	if _, _, err := s.Undo("jo"); !errors.Is(err, ErrNothingToUndo) {
		t.Fatalf("want nothing to undo, got %v", err)
	}
}

func TestLastClaimWaitsForMissedClaimsCheck(t *testing.T) {
	s := openTemp(t)
	seed(t, s, 1, 2)
	q := QueueQuery{Annotator: "jo", Kind: "claim"}
	// The claims are asked once jo judged their answer correct.
	if got := queueIDs(t, s, q); got != "" {
		t.Fatalf("claims of an answer jo has not judged: %q", got)
	}
	label(t, s, "jo", "q1", "question_validity", "valid")
	label(t, s, "jo", "q1", "answer_correctness", "correct")
	if got := queueIDs(t, s, q); got != "q1-c1 q1-c2" {
		t.Fatalf("claims of an answer judged correct: %q", got)
	}
	label(t, s, "jo", "q1-c1", "claim_validity", "incorrect")
	label(t, s, "jo", "q1-c2", "claim_validity", "correct")
	label(t, s, "jo", "q1-c2", "entailment", "neutral")
	if got := queueIDs(t, s, q); got != "q1-c2" {
		t.Fatalf("last claim must stay until the missed-claims step: %q", got)
	}
	qa, _ := s.pooled().Resolve("q1")
	c, err := s.AddMissedClaim("jo", qa.ItemID, [3]string{"x", "y", "z"}, 0)
	if err != nil || c.Origin != OriginAnnotator {
		t.Fatal(c, err)
	}
	label(t, s, "jo", "q1", "missed_claims_checked", "added")
	if got := queueIDs(t, s, q); got != "" {
		t.Fatalf("queue after check: %q", got)
	}
	if last, _ := s.pooled().IsLastClaim(mustResolve(t, s, "q1-c2")); !last {
		t.Fatal("an added claim must not become the answer's last extracted claim")
	}
}

func mustResolve(t *testing.T, s *Store, ext string) int64 {
	r, err := s.pooled().Resolve(ext)
	if err != nil {
		t.Fatal(err)
	}
	return r.ItemID
}

func TestReimportIsNoOpAndChangeNeedsUpdate(t *testing.T) {
	s := openTemp(t)
	seed(t, s, 2, 1)
	var res []PutResult
	err := s.Import(func(tx *Tx) error {
		_, r, err := tx.PutQA(QAPair{ID: "q1", Source: "GDPR", Question: "Q?", Answer: "A."}, "hq1", "f", false)
		res = append(res, r)
		return err
	})
	if err != nil || res[0] != Unchanged {
		t.Fatal(res, err)
	}
	err = s.Import(func(tx *Tx) error {
		_, _, err := tx.PutQA(QAPair{ID: "q1", Source: "GDPR", Question: "Other?", Answer: "A."}, "other", "f", false)
		return err
	})
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("want ErrChanged, got %v", err)
	}
	err = s.Import(func(tx *Tx) error {
		_, _, err := tx.PutClaim(Claim{ID: "x-c1", QAID: "nope"}, "h", "f", false)
		return err
	})
	if !errors.Is(err, ErrUnknownPair) {
		t.Fatalf("want ErrUnknownPair, got %v", err)
	}
}

func TestOverlapBalancesAssignments(t *testing.T) {
	s := openTemp(t)
	seed(t, s, 90, 0)
	b, err := s.CreateBatch(BatchSpec{Name: "b1", Kind: "qa", Assign: []string{"a", "b", "c"}, Overlap: 2})
	if err != nil || b.Size != 90 {
		t.Fatal(b, err)
	}
	per := map[string]int{}
	for _, who := range []string{"a", "b", "c"} {
		ids, err := s.pooled().BatchItems("b1", who)
		if err != nil {
			t.Fatal(err)
		}
		per[who] = len(ids)
		for _, id := range ids {
			per["item:"+id]++
		}
	}
	for k, n := range per {
		if strings.HasPrefix(k, "item:") && n != 2 {
			t.Fatalf("%s has %d annotators, want 2", k, n)
		}
	}
	if per["a"] != 60 || per["b"] != 60 || per["c"] != 60 {
		t.Fatalf("per annotator %v", per)
	}
	// Each queue holds only what is assigned.
	es, _ := s.pooled().Queue(QueueQuery{Annotator: "a", Kind: "qa", Limit: 1000})
	if len(es) != 60 {
		t.Fatalf("a's queue holds %d", len(es))
	}
}

func TestProgressCountsDoneTimeAndMedian(t *testing.T) {
	s := openTemp(t)
	seed(t, s, 4, 0)
	if _, err := s.CreateBatch(BatchSpec{Name: "pilot", Kind: "qa", Size: 2, Assign: []string{"jo"}}); err != nil {
		t.Fatal(err)
	}
	// q1 (in the pilot): invalid + reason = 2 events of 1 s; q3 (outside): 4 events of 1 s.
	label(t, s, "jo", "q1", "question_validity", "invalid")
	label(t, s, "jo", "q1", "invalid_reason", "both")
	for _, fv := range [][2]string{{"question_validity", "valid"}, {"category", "factual_recall"}, {"persona", "citizen"}, {"answer_correctness", "correct"}} {
		label(t, s, "jo", "q3", fv[0], fv[1])
	}
	rows, err := s.pooled().Progress("jo", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Progress{}
	for _, p := range rows {
		got[p.Batch+"/"+p.Kind] = p
	}
	pilot := got["pilot/qa"]
	if pilot.Total != 2 || pilot.Done != 1 || pilot.ActiveMs != 2000 || pilot.MedianMs != 2000 {
		t.Fatalf("pilot row %+v", pilot)
	}
	// 1 item in 2 s of active time is 1800 items per hour.
	if ph, ok := pilot.ItemsPerHour(); !ok || ph != 1800 {
		t.Fatalf("items/hour %v %v", ph, ok)
	}
	// jo has an assigned batch, so the kind queue is the assigned items only.
	all := got["/qa"]
	if all.Total != 2 || all.Done != 1 {
		t.Fatalf("qa queue row %+v", all)
	}
}

func TestOnlyCorrectAnswersUsesEachAssigneesOwnLabels(t *testing.T) {
	s := openTemp(t)
	err := s.Import(func(tx *Tx) error {
		for i, hop := range []string{"single", "multi", "single"} {
			qa := QAPair{ID: fmt.Sprintf("q%d", i+1), Source: "GDPR", Question: "Q?", Answer: "A.", Hop: hop,
				Contexts: []Context{{ID: fmt.Sprintf("p%d", i), Text: "t"}}}
			if _, _, err := tx.PutQA(qa, qa.ID, "f", false); err != nil {
				return err
			}
			for _, c := range []string{"a", "b"} {
				cl := Claim{ID: fmt.Sprintf("q%d-%s", i+1, c), QAID: qa.ID, Position: int(c[0]), Triplet: [3]string{"s", "p", "o"}}
				if _, _, err := tx.PutClaim(cl, cl.ID, "f", false); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	judge := func(who, qa, answer string) {
		label(t, s, who, qa, "question_validity", "valid")
		label(t, s, who, qa, "answer_correctness", answer)
	}
	judge("jo", "q1", "correct")
	judge("jo", "q2", "correct")
	judge("sam", "q1", "correct")
	judge("sam", "q2", "incorrect")
	judge("sam", "q3", "correct")
	b, err := s.CreateBatch(BatchSpec{Name: "c", Kind: "claim", OnlyCorrectAnswers: true, Assign: []string{"jo", "sam"}, Overlap: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Eligible: q1's claims jo and sam, q2's jo only (sam judged it
	// incorrect), q3's sam only (jo did not judge it). The least loaded
	// eligible assignee takes each claim in turn.
	if b.Size != 6 {
		t.Errorf("size %d", b.Size)
	}
	for who, want := range map[string]string{"jo": "q1-a q2-a q2-b", "sam": "q1-b q3-a q3-b"} {
		got, err := s.pooled().BatchItems("c", who)
		if err != nil || strings.Join(got, " ") != want {
			t.Errorf("%s: %v %v, want %s", who, got, err, want)
		}
	}
	// Every claim in each queue is asked of its assignee.
	for _, who := range []string{"jo", "sam"} {
		if n, _ := s.pooled().QueueTotal(QueueQuery{Annotator: who, Batch: "c"}); n != 3 {
			t.Errorf("%s's queue: %d asked, want 3", who, n)
		}
	}

	// Nothing is left for another batch, whoever's labels choose.
	if _, err := s.CreateBatch(BatchSpec{Name: "none", Kind: "claim", OnlyCorrectAnswers: true, Adjudicated: true}); err == nil {
		t.Error("every claim is in a batch already")
	}
	if _, err := s.CreateBatch(BatchSpec{Name: "nobody", Kind: "claim", OnlyCorrectAnswers: true}); err == nil || !strings.Contains(err.Error(), "--assign") {
		t.Errorf("only correct answers of nobody: %v", err)
	}
}

func TestBatchByHop(t *testing.T) {
	s := openTemp(t)
	seed(t, s, 4, 1)
	err := s.Import(func(tx *Tx) error {
		qa := QAPair{ID: "m1", Source: "GDPR", Question: "Q?", Answer: "A.", Hop: "multi", Contexts: []Context{{ID: "x", Text: "a"}, {ID: "y", Text: "b"}}}
		_, _, err := tx.PutQA(qa, "m1", "f", false)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.CreateBatch(BatchSpec{Name: "multi", Kind: "qa", Hop: "multi"})
	if err != nil || b.Size != 1 {
		t.Fatalf("multi-hop batch: %+v %v", b, err)
	}
	if got, _ := s.pooled().BatchItems("multi", ""); strings.Join(got, " ") != "m1" {
		t.Errorf("items %v", got)
	}
}
