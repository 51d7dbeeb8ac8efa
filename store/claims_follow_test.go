package store

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Claims follow their answer: a claim is asked of an annotator once that
// annotator judged its answer correct; a pair imported as given has its
// claims asked of everyone at once; a batch cut without the QA step asks
// its assignees at once. The queue, its total and its done count agree,
// and every expected value is worked out by hand from the labels below.
func TestClaimsFollowTheirAnswer(t *testing.T) {
	s := openTemp(t)
	seed(t, s, 2, 2) // q1-c1 q1-c2 q2-c1 q2-c2, answers under review
	err := s.Import(func(tx *Tx) error {
		qa := QAPair{ID: "g1", Source: "GDPR", Language: "en", Question: "Q?", Answer: "A system response.", AsGiven: true,
			Contexts: []Context{{ID: "g1-ref", Text: "reference"}}}
		if _, _, err := tx.PutQA(qa, "hg1", "f", false); err != nil {
			return err
		}
		_, _, err := tx.PutClaim(Claim{ID: "g1-c1", QAID: "g1", Position: 1, Triplet: [3]string{"s", "p", "o"}}, "hg1-c1", "f", false)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	jo := QueueQuery{Annotator: "jo", Kind: "claim"}
	sam := QueueQuery{Annotator: "sam", Kind: "claim"}
	check := func(what string, q QueueQuery, ids string, total, done int) {
		t.Helper()
		if got := queueIDs(t, s, q); got != ids {
			t.Errorf("%s: queue %q, want %q", what, got, ids)
		}
		if n, err := s.pooled().QueueTotal(q); err != nil || n != total {
			t.Errorf("%s: total %d (%v), want %d", what, n, err, total)
		}
		if n, err := s.pooled().QueueDone(q); err != nil || n != done {
			t.Errorf("%s: done %d (%v), want %d", what, n, err, done)
		}
	}
	notAsked := func(who, ext, want string) {
		t.Helper()
		ref, err := s.pooled().Resolve(ext)
		if err != nil {
			t.Fatal(err)
		}
		v, err := s.pooled().ItemView(who, ref.ItemID)
		if err != nil {
			t.Fatal(err)
		}
		if v.NotAsked != want {
			t.Errorf("%s on %s: not asked %q, want %q", who, ext, v.NotAsked, want)
		}
	}
	// Nobody judged anything: only the claim of the pair imported as given.
	check("fresh jo", jo, "g1-c1", 1, 0)
	check("fresh sam", sam, "g1-c1", 1, 0)
	notAsked("jo", "q1-c1", "answer_correctness unlabelled")
	notAsked("jo", "g1-c1", "")

	// jo judges q1 correct and q2 incorrect: q1's two claims join jo's queue.
	label(t, s, "jo", "q1", "question_validity", "valid")
	label(t, s, "jo", "q1", "answer_correctness", "correct")
	label(t, s, "jo", "q2", "question_validity", "valid")
	label(t, s, "jo", "q2", "answer_correctness", "incorrect")
	check("jo judged", jo, "q1-c1 q1-c2 g1-c1", 3, 0)
	check("sam meanwhile", sam, "g1-c1", 1, 0)
	notAsked("jo", "q1-c1", "")
	notAsked("jo", "q2-c1", "answer_correctness=incorrect")
	notAsked("sam", "q1-c1", "answer_correctness unlabelled")

	// jo finishes q1-c1 (not the last claim: done at once).
	label(t, s, "jo", "q1-c1", "claim_validity", "correct")
	label(t, s, "jo", "q1-c1", "entailment", "neutral")
	check("jo after one claim", jo, "q1-c2 g1-c1", 3, 1)

	// sam judges the given pair's answer incorrect: its claim is withheld.
	label(t, s, "sam", "g1", "question_validity", "valid")
	label(t, s, "sam", "g1", "answer_correctness", "incorrect")
	check("sam judged g1", sam, "", 0, 0)
	notAsked("sam", "g1-c1", "answer_correctness=incorrect")

	// A claim batch cut without the QA step, assigned to sam: its claims are
	// asked of sam at once (but g1-c1, which sam's own labels gate).
	b, err := s.CreateBatch(BatchSpec{Name: "wq", Kind: "claim", Assign: []string{"sam"}, WithoutQA: true})
	if err != nil {
		t.Fatal(err)
	}
	if !b.AtOnce || b.Size != 5 {
		t.Fatalf("batch %+v: want 5 claims asked at once", b)
	}
	wq := QueueQuery{Annotator: "sam", Kind: "claim", Batch: "wq"}
	check("sam's batch", wq, "q1-c1 q1-c2 q2-c1 q2-c2", 4, 0)
	check("sam's claims (the assigned ones)", sam, "q1-c1 q1-c2 q2-c1 q2-c2", 4, 0)
	notAsked("sam", "q2-c1", "")
	// jo is not in the batch: jo's queue is what jo's own labels ask.
	check("jo beside the batch", jo, "q1-c2 g1-c1", 3, 1)
	label(t, s, "sam", "q2-c1", "claim_validity", "incorrect")
	check("sam's batch after one", wq, "q1-c1 q1-c2 q2-c2", 4, 1)

	// The batch list and progress count the same.
	ps, err := s.pooled().Progress("sam", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, p := range ps {
		if p.Kind == "claim" {
			rows = append(rows, fmt.Sprintf("%s:%d/%d", p.Batch, p.Done, p.Total))
		}
	}
	if got := strings.Join(rows, " "); got != "wq:1/4 :1/4" {
		t.Errorf("sam's claim progress %q, want wq:1/4 and the kind row 1/4", got)
	}
	if _, err := s.CreateBatch(BatchSpec{Name: "x", Kind: "claim", WithoutQA: true, OnlyCorrectAnswers: true, Adjudicated: true}); err == nil ||
		!strings.Contains(err.Error(), "--without-qa") {
		t.Errorf("--without-qa with --only-correct-answers: %v", err)
	}
	if _, err := s.CreateBatch(BatchSpec{Name: "y", Kind: "qa", WithoutQA: true}); err == nil || !strings.Contains(err.Error(), "claims") {
		t.Errorf("--without-qa on QA pairs: %v", err)
	}
	// A recount from the labels gives the same kept counts.
	if err := s.Recount(); err != nil {
		t.Fatal(err)
	}
	check("sam's batch after a recount", wq, "q1-c1 q1-c2 q2-c2", 4, 1)
	check("jo after a recount", jo, "q1-c2 g1-c1", 3, 1)
}
