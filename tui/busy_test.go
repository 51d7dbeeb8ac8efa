package tui

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/annotate-dev/annotate/store"
)

// lockHold is how long the busy tests hold the write lock: 3 s, or
// ANNOTATE_TEST_LOCK_SECONDS (30 replays the case of a long import).
func lockHold(t testing.TB) time.Duration {
	if v := os.Getenv("ANNOTATE_TEST_LOCK_SECONDS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("ANNOTATE_TEST_LOCK_SECONDS=%q", v)
		}
		return time.Duration(n) * time.Second
	}
	return 3 * time.Second
}

// busyStore is a store whose writes give up on a lock after 20 ms, so that
// a lock held for seconds is met by many tries.
func busyStore(t testing.TB) *store.Store {
	t.Helper()
	s, err := store.OpenBusy(filepath.Join(t.TempDir(), "annotate.db"), 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// tracked wraps the root model of the real program: it counts the writes
// that met the lock and publishes what is on screen after every message.
type tracked struct {
	*Model
	mu       sync.Mutex
	where    string // item/field on screen ("" : no item screen)
	waiting  int    // decisions waiting
	busyHits int    // writes that met the lock
}

func (o *tracked) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := o.Model.Update(msg)
	o.mu.Lock()
	defer o.mu.Unlock()
	if d, ok := msg.(opDoneMsg); ok && store.IsBusy(d.err) {
		o.busyHits++
	}
	o.where, o.waiting = "", 0
	if s, ok := o.Model.cur.(*itemScreen); ok {
		o.where = s.d.ref.ExtID + "/" + s.at.String()
		o.waiting = o.Model.e.dec.waiting()
	}
	return o, cmd
}

func (o *tracked) state() (string, int, int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.where, o.waiting, o.busyHits
}

// 40 keys typed at a person's pace, then 40 in one burst, while another
// connection holds the write lock for lockHold: nothing is written while it
// is held (every write meets it, again and again), the screen says what it
// waits for and shows the waiting decisions as not saved, each key typed on
// an item's field is bound to that field then, and once the lock goes every
// decision is stored, in order, on the field and with the value its key
// was meant for: the label log is the one the keys leave on a free database.
func TestDecisionsKeptInOrderWhileTheWriteLockIsHeld(t *testing.T) {
	s := busyStore(t)
	keys, want := burst(80)
	items := 40
	seedQA(t, s, make([]int, items)...)
	o := &tracked{Model: New(Options{Store: s, Annotator: "jo", Kind: "qa", Client: "test"})}
	tm := teatest.NewTestModel(t, o, teatest.WithInitialTermSize(80, 24))
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				where, n, _ := o.state()
				t.Fatalf("waiting for %s; on %q with %d decisions waiting", what, where, n)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitFor("q1", func() bool { w, _, _ := o.state(); return w == "q1/question_validity" })

	hold := lockHold(t)
	release := writeLock(t, s)
	heldSince := time.Now()
	// The screen's field when each key was sent, for the keys typed on a
	// field (not while the item waits to be left).
	onScreen := make([]string, len(keys))
	pace := hold / 2 / 40
	for i, k := range keys[:40] {
		time.Sleep(pace)
		where, _, _ := o.state()
		onScreen[i] = where
		tm.Send(keyMsg(k))
	}
	for _, k := range keys[40:] {
		tm.Send(keyMsg(k))
	}
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return strings.Contains(string(b), "not saved yet (kept in order): another program is writing")
	}, teatest.WithDuration(hold))
	if got := labelLog(t, s, items); len(got) != 0 {
		t.Fatalf("written through the lock: %v", got)
	}
	time.Sleep(time.Until(heldSince.Add(hold)))
	_, waiting, hits := o.state()
	if hits < 5 {
		t.Fatalf("the writes met the lock %d times in %v: it was not held across many tries", hits, hold)
	}
	t.Logf("lock held %v; writes met it %d times; %d decisions waiting", time.Since(heldSince).Round(time.Millisecond), hits, waiting)
	release()

	waitFor("every decision", func() bool { return len(labelLog(t, s, items)) >= len(want) })
	got := labelLog(t, s, items)
	sameLog(t, got, want)
	// The keys typed on a field were bound to it: the label the i-th key
	// left is on the item and field on screen when it was typed.
	bound := 0
	for i, where := range onScreen[:40] {
		item, field, ok := strings.Cut(where, "/")
		if !ok || field == "done" || field == "own" {
			continue
		}
		bound++
		if !strings.HasPrefix(want[i], item+" "+field+"=") {
			t.Errorf("key %d (%q) was typed on %s and stored as %s", i+1, keys[i], where, want[i])
		}
	}
	if bound < 20 {
		t.Errorf("only %d of the 40 keys were typed on a field", bound)
	}
	tm.Send(keyMsg("q"))
	tm.Send(keyMsg("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

// Killed while decisions wait: they were never shown as saved, the screen
// said so, and when the program ends Run names them; nothing is written.
func TestLeavingWhileDecisionsWaitSaysWhichWereNotSaved(t *testing.T) {
	s := busyStore(t)
	seedQA(t, s, 0, 0)
	var notices lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in, keys := io.Pipe()
	out := &lockedBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Store: s, Annotator: "jo", Kind: "qa", Notices: &notices},
			tea.WithInput(in), tea.WithOutput(out), tea.WithoutSignalHandler(), tea.WithWindowSize(80, 24))
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "question_validity") {
		if time.Now().After(deadline) {
			t.Fatalf("no screen: %q", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	release := writeLock(t, s)
	fmt.Fprint(keys, "y")
	time.Sleep(50 * time.Millisecond)
	fmt.Fprint(keys, "\r") // enter: the generated category
	for !strings.Contains(out.String(), "not saved yet") {
		if time.Now().After(deadline) {
			t.Fatalf("the screen never said the decisions were not saved: %q", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Fprint(keys, "\x03") // ctrl+c: the screen says they would be lost
	time.Sleep(50 * time.Millisecond)
	fmt.Fprint(keys, "\x03") // …and the second leaves
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ctrl+c twice did not leave")
	}
	release()
	if want := "annotate: 2 decisions not saved (the database was busy): q1 question_validity=valid, q1 category=factual_recall"; !strings.Contains(notices.String(), want) {
		t.Errorf("notices %q, want %q", notices.String(), want)
	}
	if got := labelLog(t, s, 2); len(got) != 0 {
		t.Errorf("written: %v", got)
	}
}

// held runs the harness with every command kept back: keys are delivered,
// what they start is collected, and flush runs it all, in order.
type held struct {
	h    *harness
	cmds []tea.Cmd
}

func (x *held) keys(ks ...string) {
	for _, k := range ks {
		_, cmd := x.h.m.Update(keyMsg(k))
		x.cmds = append(x.cmds, cmd)
	}
}

func (x *held) flush() {
	cmds := x.cmds
	x.cmds = nil
	for _, c := range cmds {
		x.h.run(c)
	}
}

// u while decisions wait takes back the last one: on the item on screen,
// the field is asked again and nothing of it is written.
func TestUndoTakesBackAWaitingDecision(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	x := &held{h: h}
	x.keys("y", "enter") // validity under way, the category waiting
	h.at("q1", "persona")
	x.keys("u")
	h.at("q1", "category")
	if v := h.view(); !strings.Contains(v, "Undone before it was saved: category = factual_recall.") {
		t.Fatalf("no word of the undo:\n%s", v)
	}
	x.keys("1") // another category
	x.flush()
	if got := h.history("q1"); got != "question_validity=valid category=general_legal_research" {
		t.Fatalf("history %q", got)
	}
	h.at("q1", "persona")
}

// u on the decision whose write is under way: once written it is
// retracted, before the decisions typed after the undo.
func TestUndoOfTheDecisionBeingWritten(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	x := &held{h: h}
	x.keys("y", "u")
	h.at("q1", "question_validity")
	x.keys("n", "1")
	x.flush()
	if got := h.history("q1"); got != "question_validity=valid question_validity=<retract> question_validity=invalid invalid_reason=domain" {
		t.Fatalf("history %q", got)
	}
	h.wantLabels("q1", map[string]string{"question_validity": "invalid", "invalid_reason": "domain"})
}

// An item is left while its decisions wait, and u brings it back: the
// decision taken back is asked again there, and the item on screen before
// comes back after it.
func TestUndoBringsBackAnItemLeftWhileItWaited(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	x := &held{h: h}
	x.keys("n", "2") // q1 invalid, linguistic: finished, left while both wait
	h.at("q2", "question_validity")
	x.keys("u")
	h.at("q1", "invalid_reason")
	x.keys("3") // both: q1 is left again, for q2 (loading)
	x.flush()
	h.at("q2", "question_validity")
	h.keys("n", "1")
	h.wantLabels("q1", map[string]string{"question_validity": "invalid", "invalid_reason": "both"})
	h.wantLabels("q2", map[string]string{"question_validity": "invalid", "invalid_reason": "domain"})
	if got := h.history("q1"); got != "question_validity=invalid invalid_reason=both" {
		t.Fatalf("history %q", got)
	}
}

// An answer judged correct brings its claims next: the claims are asked
// according to the judgment, so the screen stays on the answer until its
// decisions are written, and the keys typed meanwhile wait for the claims.
func TestAnswerStaysUntilItsJudgmentIsWritten(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 2)
	h := newHarness(t, s, Options{Kind: "qa"})
	x := &held{h: h}
	x.keys("y", "enter", "1", "1") // valid, category, citizen, correct
	if sc := h.item(); sc == nil || sc.d.ref.ExtID != "q1" || !sc.complete() {
		t.Fatalf("left the answer while its judgment waited: %T", h.m.cur)
	}
	x.keys("y", "1") // the first claim: correct, entailment
	if n := len(h.m.e.ahead.keys); n != 2 {
		t.Fatalf("%d keys wait for the claims, want 2", n)
	}
	x.flush()
	h.wantLabels("q1-c1", map[string]string{"claim_validity": "correct", "entailment": "entailment"})
	h.at("q1-c2", "claim_validity")
}
