package tui

import (
	"image/color"
	"regexp"
	"strconv"
	"strings"

	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

func TestValidQuestion(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.at("q1", schema.QuestionValidity)
	if v := h.view(); !strings.Contains(v, "Question 1") || !strings.Contains(v, "gdpr-p-extra") || !strings.Contains(v, "1/2") {
		t.Fatalf("QA screen misses the question or the numbered context units:\n%s", v)
	}
	h.clock.add(3 * time.Second)
	h.keys("y")
	h.at("q1", schema.Category)
	if !strings.Contains(h.view(), "◆ [1] factual_recall") && !strings.Contains(h.view(), "◆ [2] factual_recall (enter)") {
		t.Fatalf("the generated category is not preselected:\n%s", h.view())
	}
	h.keys("enter") // accept the generated category
	h.at("q1", schema.Persona)
	if !strings.Contains(h.view(), "✓ question_validity valid · category factual_recall") {
		t.Fatalf("no trail of decisions:\n%s", h.view())
	}
	h.keys("2")
	h.at("q1", schema.AnswerCorrectness)
	h.keys("1")
	h.at("q2", schema.QuestionValidity)
	h.wantLabels("q1", map[string]string{"question_validity": "valid", "category": "factual_recall",
		"persona": "civil_officer", "answer_correctness": "correct"})

	// Every label carries the session, the version of its field's
	// guidelines in force (1: the embedded text) and its active time.
	var n, withSession, withVersion int
	var firstMs int64
	err := storetest.DB(t, s).QueryRow(`SELECT COUNT(*), COUNT(session_id), SUM(guidelines_version=?),
		(SELECT active_ms FROM label_events ORDER BY id LIMIT 1) FROM label_events`, "1").
		Scan(&n, &withSession, &withVersion, &firstMs)
	if err != nil {
		t.Fatal(err)
	}
	if n != 4 || withSession != 4 || withVersion != 4 || firstMs != 3000 {
		t.Fatalf("events=%d with session=%d with version=%d first active ms=%d", n, withSession, withVersion, firstMs)
	}
	if id := h.m.SessionID(); id == 0 {
		t.Fatal("no session")
	}
}

func TestInvalidQuestion(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.keys("n")
	h.at("q1", schema.InvalidReason)
	h.keys("3")
	h.at("q2", schema.QuestionValidity)
	h.wantLabels("q1", map[string]string{"question_validity": "invalid", "invalid_reason": "both"})
}

func TestClaimsCorrectAndIncorrectNoneMissed(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 2, 1)
	judgeCorrect(t, s, "jo", "q1", "q2")
	h := newHarness(t, s, Options{Kind: "claim"})
	h.at("q1-c1", schema.ClaimValidity)
	v := h.view()
	if !strings.Contains(v, "The Regulation │ protects │ natural persons (1)") || !strings.Contains(v, "Answer 1") {
		t.Fatalf("claim screen misses the triple or its answer:\n%s", v)
	}
	h.keys("y")
	h.at("q1-c1", schema.Entailment)
	h.keys("1")
	h.at("q1-c2", schema.ClaimValidity)
	h.keys("n") // incorrect: entailment is not asked; last claim: missed-claims step
	h.at("q1-c2", "own")
	if !strings.Contains(h.view(), "Claims extracted from this answer (2)") {
		t.Fatalf("missed-claims step does not list the claims:\n%s", h.view())
	}
	h.keys("enter")
	h.at("q2-c1", schema.ClaimValidity)
	h.wantLabels("q1-c1", map[string]string{"claim_validity": "correct", "entailment": "entailment"})
	h.wantLabels("q1-c2", map[string]string{"claim_validity": "incorrect"})
	h.wantLabels("q1", judgedCorrect("missed_claims_checked", "checked"))
}

func TestMissedClaimAdded(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 1, 1)
	judgeCorrect(t, s, "jo", "q1", "q2")
	h := newHarness(t, s, Options{Kind: "claim"})
	h.keys("y", "2")
	h.at("q1-c1", "own")
	h.keys("a")
	if _, ok := h.m.cur.(*inputScreen); !ok {
		t.Fatalf("a does not open the add-claim input: %T", h.m.cur)
	}
	h.typeText("The controller")
	h.keys("enter")
	h.typeText("must inform")
	h.keys("enter")
	h.typeText("the data subject")
	h.keys("enter")
	h.at("q1-c1", "own") // stays on the step: another claim may be added
	if !strings.Contains(h.view(), "Claims you added (1)") || !strings.Contains(h.view(), "The controller │ must inform │ the data subject") {
		t.Fatalf("the added claim is not shown:\n%s", h.view())
	}
	h.wantLabels("q1", judgedCorrect("missed_claims_checked", "added"))
	claims, err := storetest.Read(t, s).ClaimsOf(h.labelsItem("q1"))
	if err != nil {
		t.Fatal(err)
	}
	if len(claims) != 2 || claims[1].Origin != store.OriginAnnotator || claims[1].AddedBy != "jo" ||
		claims[1].Triplet != [3]string{"The controller", "must inform", "the data subject"} {
		t.Fatalf("claims of q1: %+v", claims)
	}
	// Undo takes back the marker, then the added claim (its claim_added label).
	h.keys("u")
	h.at("q1-c1", "own")
	h.wantLabels("q1", judgedCorrect())
	if !strings.Contains(h.view(), "Claims you added (1)") {
		t.Fatalf("the added claim still stands:\n%s", h.view())
	}
	h.keys("u")
	h.at("q1-c1", "own")
	if strings.Contains(h.view(), "Claims you added") {
		t.Fatalf("the retracted claim is still shown:\n%s", h.view())
	}
	h.wantLabels(claims[1].ID, map[string]string{})
	// Add it again and finish the answer.
	h.keys("a")
	h.typeText("The controller")
	h.keys("enter")
	h.typeText("must inform")
	h.keys("enter")
	h.typeText("the data subject")
	h.keys("enter")
	h.keys("enter")
	h.at("q2-c1", schema.ClaimValidity)
	h.wantLabels("q1", judgedCorrect("missed_claims_checked", "added")) // enter did not overwrite it
}

func TestGuidelinesOverlay(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.keys("y", "?")
	v := h.view()
	if !strings.Contains(v, "Guidelines · category · version 1") || !strings.Contains(v, "category —") {
		t.Fatalf("? does not show the category guidelines:\n%s", v)
	}
	g := h.m.cur.(*guideScreen)
	h.keys("pgdown")
	if g.vp.YOffset() == 0 {
		t.Fatal("pgdown does not scroll the guidelines")
	}
	for _, k := range []string{"?", "esc", "q"} {
		if _, ok := h.m.cur.(*guideScreen); !ok {
			h.keys("?")
		}
		h.keys(k)
		h.at("q1", schema.Category)
	}
	h.keys("enter") // decisions go on
	h.at("q1", schema.Persona)
}

func TestContextPaneFocus(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.send(tea.WindowSizeMsg{Width: 60, Height: 16})
	h.keys("down")
	if h.item().pane.Pane.Offset() != 0 {
		t.Fatal("arrows scroll the pane without the focus")
	}
	h.keys("tab")
	if !strings.Contains(h.view(), "▶ Context") {
		t.Fatalf("no focus shown:\n%s", h.view())
	}
	h.keys("down", "down")
	if h.item().pane.Pane.Offset() != 2 {
		t.Fatalf("pane offset %d after two downs", h.item().pane.Pane.Offset())
	}
	h.keys("pgup", "tab")
	if h.item().pane.Pane.Offset() != 0 || h.item().pane.Focus {
		t.Fatal("pgup/tab")
	}
	h.keys("y")
	h.at("q1", schema.Category)
}

func (h *harness) labelsItem(ext string) int64 {
	ref, err := storetest.Read(h.t, h.s).Resolve(ext)
	if err != nil {
		h.t.Fatal(err)
	}
	return ref.ItemID
}

func TestResumeGoesToMissedClaimsStep(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 2)
	judgeCorrect(t, s, "jo", "q1")
	for _, l := range [][3]string{{"q1-c1", "claim_validity", "incorrect"}, {"q1-c2", "claim_validity", "correct"}, {"q1-c2", "entailment", "neutral"}} {
		ref, _ := storetest.Read(t, s).Resolve(l[0])
		if _, err := s.RecordLabel(store.Label{Annotator: "jo", ItemID: ref.ItemID, Field: l[1], Value: l[2]}); err != nil {
			t.Fatal(err)
		}
	}
	h := newHarness(t, s, Options{Kind: "claim"})
	h.at("q1-c2", "own")
}

func TestUndoInsideItem(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.keys("y", "enter")
	h.at("q1", schema.Persona)
	h.keys("u")
	h.at("q1", schema.Category)
	h.keys("backspace") // undo the validity decision: the fields depending on it go
	h.at("q1", schema.QuestionValidity)
	h.keys("n")
	h.at("q1", schema.InvalidReason) // category is not asked of an invalid question
	h.keys("1")
	h.wantLabels("q1", map[string]string{"question_validity": "invalid", "invalid_reason": "domain"})
	want := "question_validity=valid category=factual_recall category=<retract> question_validity=<retract> question_validity=invalid invalid_reason=domain"
	if got := h.history("q1"); got != want {
		t.Fatalf("history:\n got %s\nwant %s", got, want)
	}
	h.at("q2", schema.QuestionValidity)
}

func TestUndoAcrossItems(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.keys("n", "2")
	h.at("q2", schema.QuestionValidity)
	h.keys("y")
	h.at("q2", schema.Category)
	h.keys("u")
	h.at("q2", schema.QuestionValidity)
	h.keys("u") // back into the previous item
	h.at("q1", schema.InvalidReason)
	if !strings.Contains(h.view(), "back by undo") {
		t.Fatalf("header does not say the item came back by undo:\n%s", h.view())
	}
	h.wantLabels("q1", map[string]string{"question_validity": "invalid"})
	h.keys("1")
	h.at("q2", schema.QuestionValidity) // and on to where we were
	h.wantLabels("q1", map[string]string{"question_validity": "invalid", "invalid_reason": "domain"})
	h.keys("n", "1")
	h.at("q3", schema.QuestionValidity)
}

func TestUndoMissedClaimsStep(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 1, 1)
	judgeCorrect(t, s, "jo", "q1", "q2")
	h := newHarness(t, s, Options{Kind: "claim"})
	h.keys("n", "enter")
	h.at("q2-c1", schema.ClaimValidity)
	h.keys("u") // the marker: back to the step of q1's last claim
	h.at("q1-c1", "own")
	h.wantLabels("q1", judgedCorrect())
	h.keys("u") // the claim's validity
	h.at("q1-c1", schema.ClaimValidity)
	h.keys("y", "3", "enter")
	h.at("q2-c1", schema.ClaimValidity)
	h.wantLabels("q1-c1", map[string]string{"claim_validity": "correct", "entailment": "contradiction"})
}

func TestSkip(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.keys("s")
	h.at("q2", schema.QuestionValidity)
	h.wantLabels("q1", map[string]string{})
	es, err := storetest.Read(t, s).Queue(store.QueueQuery{Annotator: "jo", Kind: "qa"})
	if err != nil || len(es) != 2 || es[0].ExtID != "q1" {
		t.Fatalf("q1 should stay in the queue: %v %v", es, err)
	}
	h.keys("n", "1")
	if _, ok := h.m.cur.(*doneScreen); !ok || !strings.Contains(h.view(), "1 item skipped") {
		t.Fatalf("want the done screen offering the skipped item, got %T:\n%s", h.m.cur, h.view())
	}
	h.keys("enter") // go through the skipped items again
	h.at("q1", schema.QuestionValidity)
}

func TestFlag(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.keys("f")
	if _, flagged, _ := storetest.Read(t, s).ItemNote("jo", h.labelsItem("q1")); !flagged {
		t.Fatal("not flagged in the database")
	}
	if !strings.Contains(h.view(), "⚑") {
		t.Fatalf("no flag marker in the header:\n%s", h.view())
	}
	h.keys("f")
	if _, flagged, _ := storetest.Read(t, s).ItemNote("jo", h.labelsItem("q1")); flagged {
		t.Fatal("still flagged")
	}
	if strings.Contains(h.view(), "⚑") {
		t.Fatalf("flag marker stays:\n%s", h.view())
	}
	h.at("q1", schema.QuestionValidity)
}

func TestNote(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.keys("m")
	h.typeText("Art. 6 is cited wrongly")
	h.keys("esc") // cancel: nothing saved
	if text, _, _ := storetest.Read(t, s).ItemNote("jo", h.labelsItem("q1")); text != "" {
		t.Fatalf("cancelled note saved: %q", text)
	}
	h.keys("m")
	h.typeText("Art. 6 is cited wrongly")
	h.keys("enter")
	if text, _, _ := storetest.Read(t, s).ItemNote("jo", h.labelsItem("q1")); text != "Art. 6 is cited wrongly" {
		t.Fatalf("note = %q", text)
	}
	if !strings.Contains(h.view(), "✎ note") {
		t.Fatalf("no note marker:\n%s", h.view())
	}
	h.at("q1", schema.QuestionValidity)
	h.keys("y") // decisions go on as before
	h.at("q1", schema.Category)
}

func TestGoto(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 1, 0, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.keys("g")
	h.typeText("nope")
	h.keys("enter")
	if !strings.Contains(h.view(), "Go to nope") {
		t.Fatalf("unknown id not reported:\n%s", h.view())
	}
	h.keys("g")
	h.typeText("q3")
	h.keys("enter")
	h.at("q3", schema.QuestionValidity)
	h.keys("n", "2")
	h.at("q1", schema.QuestionValidity) // back to the item left
	h.keys("g")
	h.typeText("q1-c1") // a claim, from the QA queue: jo has not judged its answer
	h.keys("enter")
	h.at("q1-c1", "complete")
	if v := h.view(); !strings.Contains(v, "Not asked: jo has not judged the answer yet") {
		t.Fatalf("go-to to a claim not asked does not say why:\n%s", v)
	}
	h.keys("y") // read-only: refused, nothing recorded
	if v := h.view(); !strings.Contains(v, "y: nothing is asked here (read-only, see why above). enter goes on.") ||
		!strings.Contains(v, "Not asked: jo has not judged the answer yet") {
		t.Fatalf("a decision key on a claim not asked is not refused with the reason:\n%s", v)
	}
	h.wantLabels("q1-c1", map[string]string{})
	h.wantLabels("q3", map[string]string{"question_validity": "invalid", "invalid_reason": "linguistic"})
}

func TestFailedSaveStaysOnField(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	if _, err := storetest.DB(t, s).Exec(`CREATE TRIGGER fail BEFORE INSERT ON label_events BEGIN SELECT RAISE(ABORT, 'disk full'); END`); err != nil {
		t.Fatal(err)
	}
	h.keys("y")
	h.at("q1", schema.QuestionValidity)
	if v := h.view(); !strings.Contains(v, "Not saved") || !strings.Contains(v, "disk full") {
		t.Fatalf("no error line:\n%s", v)
	}
	if _, err := storetest.DB(t, s).Exec(`DROP TRIGGER fail`); err != nil {
		t.Fatal(err)
	}
	h.keys("y")
	h.at("q1", schema.Category)
	if strings.Contains(h.view(), "Not saved") {
		t.Fatalf("error stays after a successful retry:\n%s", h.view())
	}
	h.wantLabels("q1", map[string]string{"question_validity": "valid"})
}

// While a save is in flight the next field is shown, the decision marked as
// not saved yet; decision keys typed meanwhile are bound to the fields on
// screen as they are typed, and written in order, one at a time.
func TestKeysDuringSaveAreBoundAndWrittenInOrder(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	_, save := h.m.Update(keyMsg("y"))
	h.at("q1", schema.Category)
	if v := h.view(); !strings.Contains(v, "⧗ not saved yet: question_validity valid") || strings.Contains(v, "✓") {
		t.Fatalf("the decision in flight is not shown as not saved yet:\n%s", v)
	}
	_, c2 := h.m.Update(keyMsg("enter"))
	_, c3 := h.m.Update(keyMsg("3"))
	if c2 != nil || c3 != nil {
		t.Fatal("a second write started while the first is in flight")
	}
	h.at("q1", schema.AnswerCorrectness)
	h.wantLabels("q1", map[string]string{})
	h.run(save)
	h.at("q1", schema.AnswerCorrectness)
	h.wantLabels("q1", map[string]string{"question_validity": "valid", "category": "factual_recall", "persona": "legal_expert"})
	if v := h.view(); !strings.Contains(v, "✓ question_validity valid · category factual_recall · persona legal_expert") || strings.Contains(v, "not saved") {
		t.Fatalf("the written decisions are not shown as saved:\n%s", v)
	}
}

func TestActiveTimeCapsIdle(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.clock.add(2 * time.Second)
	h.keys("tab") // a key that is not a decision
	h.clock.add(40 * time.Minute)
	h.keys("y") // the idle gap counts for 5 minutes at most
	var ms int64
	if err := storetest.DB(t, s).QueryRow("SELECT active_ms FROM label_events").Scan(&ms); err != nil {
		t.Fatal(err)
	}
	if want := (2*time.Second + idleCap).Milliseconds(); ms != want {
		t.Fatalf("active ms %d, want %d", ms, want)
	}
}

func TestBreakReminder(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0, 0)
	h := newHarness(t, s, Options{Kind: "qa", SessionLimit: 9 * time.Minute})
	h.clock.add(4 * time.Minute)
	h.keys("y")
	if _, ok := h.m.cur.(*breakScreen); ok {
		t.Fatal("break too early")
	}
	h.clock.add(5 * time.Minute)
	h.keys("enter")
	if _, ok := h.m.cur.(*breakScreen); !ok || !strings.Contains(h.view(), "Time for a break") {
		t.Fatalf("no break reminder after the limit: %T\n%s", h.m.cur, h.view())
	}
	h.keys("enter") // dismiss
	h.at("q1", schema.Persona)
	h.keys("1")
	h.at("q1", schema.AnswerCorrectness)
}

func TestHomeScreen(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 1, 1)
	judgeCorrect(t, s, "jo", "q1")
	h := newHarness(t, s, Options{})
	v := h.view()
	for _, want := range []string{"annotate · jo", "QA pairs", "Claims", "today 0:00", "this session 0:00"} {
		if !strings.Contains(v, want) {
			t.Fatalf("home misses %q:\n%s", want, v)
		}
	}
	h.keys("down", "enter") // the claims queue
	h.at("q1-c1", schema.ClaimValidity)
	h.keys("q")
	if _, ok := h.m.cur.(*homeScreen); !ok {
		t.Fatalf("q does not go home: %T", h.m.cur)
	}
	h.keys("enter") // continues the queue last worked in: claims (issue 10, item 10)
	h.at("q1-c1", schema.ClaimValidity)
	h.keys("ctrl+c", "q")
	if !h.quit {
		t.Fatal("q on home does not quit")
	}
}

func TestBatchOption(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0, 0)
	if _, err := s.CreateBatch(store.BatchSpec{Name: "pilot", Kind: "qa", Size: 2, Pilot: true, Assign: []string{"jo"}, Seed: new(int64)}); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, s, Options{Batch: "pilot"})
	if it := h.item(); it == nil {
		t.Fatalf("no item:\n%s", h.view())
	}
	if v := h.view(); !strings.Contains(v, "batch pilot") || !strings.Contains(v, "item 1 of 2") {
		t.Fatalf("header does not say where we are:\n%s", v)
	}
}

// Blind: another annotator's labels and system predictions never show.
func TestBlind(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 1)
	for _, l := range [][3]string{{"q1", "question_validity", "invalid"}, {"q1-c1", "claim_validity", "incorrect"}} {
		ref, _ := storetest.Read(t, s).Resolve(l[0])
		if _, err := s.RecordLabel(store.Label{Annotator: "sam", ItemID: ref.ItemID, Field: l[1], Value: l[2]}); err != nil {
			t.Fatal(err)
		}
	}
	ref, _ := storetest.Read(t, s).Resolve("q1")
	s.SetNote("sam", ref.ItemID, "", "SAM-NOTE", 0)
	for _, kind := range []string{"qa", "claim"} {
		h := newHarness(t, s, Options{Kind: kind})
		for _, ks := range [][]string{nil, {"y"}, {"n"}} {
			h.keys(ks...)
			v := h.view()
			for _, bad := range []string{"PREDICTED-SECRET", "refchecker", "SAM-NOTE", "sam", "✓ question_validity invalid", "✓ claim_validity incorrect"} {
				if strings.Contains(v, bad) {
					t.Fatalf("%s screen shows %q:\n%s", kind, bad, v)
				}
			}
		}
	}
}

func TestInertControlSequences(t *testing.T) {
	s := openStore(t)
	evil := "Red \x1b[31mALERT\x1b[0m clear \x1b[2J bell \x07 return \r over \u009b31m c1 \u202eevil"
	err := s.Import(func(tx *store.Tx) error {
		qa := store.QAPair{ID: "e\x1b[2Jvil", Source: "GD\x1b[31mPR", Question: evil, Answer: evil, Rationale: evil, Category: "factual_recall",
			Contexts: []store.Context{{ID: "p\x07", Text: evil}}, AsGiven: true}
		if _, _, err := tx.PutQA(qa, "h", "f", false); err != nil {
			return err
		}
		_, _, err := tx.PutClaim(store.Claim{ID: "c\x1b[2J", QAID: qa.ID, Position: 1, Triplet: [3]string{evil, evil, evil}}, "h2", "f", false)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// Claims first: "n" on the pair would judge its question invalid, and
	// then its claim asks nothing.
	for _, kind := range []string{"claim", "qa"} {
		h := newHarness(t, s, Options{Kind: kind})
		for _, ks := range [][]string{nil, {"?"}, {"esc", "m"}, {"esc", "n"}} {
			h.keys(ks...)
			raw := h.m.render()
			for _, bad := range []string{"\x1b[31m", "\x1b[2J", "\x07", "\r", "\u009b", "\u202e"} {
				if strings.Contains(raw, bad) {
					t.Fatalf("%s screen (after %v) carries %q raw:\n%q", kind, ks, bad, raw)
				}
			}
			if len(ks) == 0 && !strings.Contains(ansiStrip(raw), "␛[31mALERT") {
				t.Fatalf("escape not shown as ␛:\n%s", ansiStrip(raw))
			}
			if strings.Contains(ansiStrip(raw), "\x1b") {
				t.Fatalf("raw ESC left once styling is stripped:\n%q", ansiStrip(raw))
			}
		}
	}
}

// NO_COLOR (from the program's environment): no colour at all, the
// selection and the field still visible through bold and reverse video.
func TestNoColor(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 1)
	for _, kind := range []string{"", "qa", "claim"} {
		h := newHarness(t, s, Options{Kind: kind})
		h.send(tea.EnvMsg{"TERM=xterm", "NO_COLOR=1"})
		h.keys("y")
		raw := h.m.View().Content
		for _, sgr := range regexp.MustCompile(`\x1b\[([0-9;]*)m`).FindAllStringSubmatch(raw, -1) {
			for _, p := range strings.Split(sgr[1], ";") {
				if n, _ := strconv.Atoi(p); (n >= 30 && n <= 49) || (n >= 90 && n <= 107) {
					t.Fatalf("%q: colour %q under NO_COLOR:\n%q", kind, sgr[0], raw)
				}
			}
		}
		if !strings.Contains(raw, "\x1b[") {
			t.Fatalf("%q: no styling at all (bold/reverse expected)", kind)
		}
	}
}

// A change of background restyles what is already on screen.
func TestBackgroundChangeRestyles(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 1)
	h := newHarness(t, s, Options{Kind: "claim"})
	dark := h.m.View().Content
	h.send(tea.BackgroundColorMsg{Color: color.White})
	light := h.m.View().Content
	if dark == light {
		t.Fatal("the screen kept its dark styles on a light background")
	}
	if light != func() string {
		h2 := newHarness(t, s, Options{Kind: "claim"})
		h2.send(tea.BackgroundColorMsg{Color: color.White})
		return h2.m.View().Content
	}() {
		t.Fatal("restyled screen differs from one drawn light from the start")
	}
}

// A fast typist types the next item's keys before the last save of this one
// has come back: none of them is lost, and each lands on the field it was
// meant for.
func TestTypeAheadAcrossItems(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.at("q1", schema.QuestionValidity)
	// Deliver every key before running any store command, as if all were
	// typed within one commit's time; then let the commands run.
	var cmds []tea.Cmd
	for _, k := range []string{"y", "1", "2", "3", "n", "2"} {
		_, cmd := h.m.Update(keyMsg(k))
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		h.run(c)
	}
	h.wantLabels("q1", map[string]string{"question_validity": "valid", "category": "general_legal_research",
		"persona": "civil_officer", "answer_correctness": "incorrect"})
	h.wantLabels("q2", map[string]string{"question_validity": "invalid", "invalid_reason": "linguistic"})
}

// Judging an answer correct brings its claims next, then its missed-claims
// step, then the next QA pair, key by key; an answer judged otherwise goes
// straight on. --claims-later keeps the claims in the claim queue.
func TestClaimsComeNextAfterACorrectAnswer(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 2, 1, 0) // q1: q1-c1 q1-c2; q2: q2-c1; q3: none
	h := newHarness(t, s, Options{Kind: "qa"})
	h.at("q1", schema.QuestionValidity)
	h.keys("y", "enter", "1") // valid, the generated category, citizen
	h.at("q1", schema.AnswerCorrectness)
	h.keys("1") // correct: q1's claims come next, the answer and its context on screen
	h.at("q1-c1", schema.ClaimValidity)
	h.wantOnScreen("Claim 1 of 2 of q1", "Answer and context", "Answer 1: it protects natural persons")
	h.keys("y", "1") // correct, entailment
	h.at("q1-c2", schema.ClaimValidity)
	h.keys("n") // incorrect: entailment is not asked; the last claim: the missed-claims step
	h.at("q1-c2", "own")
	h.keys("enter") // none missed: the next QA pair
	h.at("q2", schema.QuestionValidity)
	h.wantOnScreen("item 2 of 3") // the QA queue's own count: q1 done, the claims not counted in it
	h.wantLabels("q1-c1", map[string]string{"claim_validity": "correct", "entailment": "entailment"})
	h.wantLabels("q1-c2", map[string]string{"claim_validity": "incorrect"})
	h.wantLabels("q1", judgedCorrect("missed_claims_checked", "checked"))
	h.keys("y", "enter", "1", "3") // q2's answer incorrect: its claim is not asked
	h.at("q3", schema.QuestionValidity)
	h.keys("y", "enter", "1", "1") // correct, but q3 has no claims: done
	if _, ok := h.m.cur.(*doneScreen); !ok {
		t.Fatalf("after the last pair: %T\n%s", h.m.cur, h.view())
	}
	h.wantLabels("q2-c1", map[string]string{})

	// --claims-later: the same keys leave q1's claims in the claim queue.
	s = openStore(t)
	seedQA(t, s, 2, 1, 0)
	h = newHarness(t, s, Options{Kind: "qa", ClaimsLater: true})
	h.keys("y", "enter", "1", "1")
	h.at("q2", schema.QuestionValidity)
	q := store.QueueQuery{Annotator: "jo", Kind: "claim"}
	es, err := storetest.Read(t, s).Queue(q)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 2 || es[0].ExtID != "q1-c1" || es[1].ExtID != "q1-c2" {
		t.Fatalf("claim queue after q1 judged correct: %+v", es)
	}
	h.keys("q", "down", "enter") // home, the claim queue
	h.at("q1-c1", schema.ClaimValidity)
	h.wantOnScreen("item 1 of 2")
}

// The claims of an answer are asked only once the answer is judged
// correct: before, the claim queue is empty and home says so.
func TestClaimQueueWaitsForTheAnswer(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 2)
	h := newHarness(t, s, Options{Kind: "claim"})
	if _, ok := h.m.cur.(*doneScreen); !ok {
		t.Fatalf("claims of an answer not judged are offered: %T\n%s", h.m.cur, h.view())
	}
	h.wantOnScreen("0 items of 0 done.", "Claims are asked once you judge their answer correct.")
	h = newHarness(t, s, Options{})
	h.wantOnScreen("Claims")
	if !regexp.MustCompile(`Claims\s+\S*\s+0\s+0\s`).MatchString(h.view()) {
		t.Fatalf("home counts claims not asked:\n%s", h.view())
	}
}
