package tui

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/annotate-dev/annotate/store"
)

// burst is n decision keys over fresh QA items (q1, q2, …) and the label
// log they must leave, in order: even items valid (y, enter accepts the
// generated category, a persona, a correctness), odd items invalid (n, a
// reason). The values follow the schema's field tables.
func burst(n int) (keys []string, want []string) {
	persona := []string{"citizen", "civil_officer", "legal_expert"}
	correct := []string{"correct", "partially_correct", "incorrect"}
	reason := []string{"domain", "linguistic", "both"}
	for i := 1; len(keys) < n; i++ {
		q := fmt.Sprintf("q%d", i)
		if i%2 == 0 && n-len(keys) >= 4 {
			p, c := i%3, (i/2)%3
			keys = append(keys, "y", "enter", itoa(p+1), itoa(c+1))
			want = append(want, q+" question_validity=valid", q+" category=factual_recall",
				q+" persona="+persona[p], q+" answer_correctness="+correct[c])
			continue
		}
		if n-len(keys) < 2 {
			keys = append(keys, "n") // the last key alone: the validity of one more item
			want = append(want, q+" question_validity=invalid")
			continue
		}
		r := i % 3
		keys = append(keys, "n", itoa(r+1))
		want = append(want, q+" question_validity=invalid", q+" invalid_reason="+reason[r])
	}
	return keys, want
}

// labelLog is jo's label log over q1..qN in commit order, "qK field=value".
func labelLog(t testing.TB, s *store.Store, items int) []string {
	t.Helper()
	var evs []store.Event
	for i := 1; i <= items; i++ {
		ref, err := s.Resolve(fmt.Sprintf("q%d", i))
		if err != nil {
			t.Fatal(err)
		}
		h, err := s.History(ref.ItemID)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, h...)
	}
	sort.Slice(evs, func(i, j int) bool { return evs[i].ID < evs[j].ID })
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.ItemExtID + " " + e.Field + "=" + e.Value
	}
	return out
}

func sameLog(t testing.TB, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d labels recorded, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("label %d is %q, want %q (the keys were applied out of order)", i+1, got[i], want[i])
		}
	}
}

// writeLock holds the database's write lock from another connection, as
// another process (an import, a second annotator) does; release ends it.
func writeLock(t testing.TB, s *store.Store) (release func()) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+s.Path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			conn.ExecContext(context.Background(), "ROLLBACK")
			conn.Close()
			db.Close()
		})
	}
	t.Cleanup(release)
	return release
}

// 500 keys typed while the first decision waits on a write lock held by
// another connection: the screen says it waits and shows the decisions as
// not saved; the keys of each item on screen are bound to its fields as
// they come (the items preloaded are left while their decisions wait), and
// once no item is at hand every other key waits in order; nothing is
// written while the lock is held, and once it goes all 500 are applied, in
// order, to the fields they were typed for (issue 10, item 1).
func TestFiveHundredKeysWhileTheDatabaseIsLocked(t *testing.T) {
	s := openStore(t)
	keys, want := burst(500)
	items := 170
	seedQA(t, s, make([]int, items)...)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.at("q1", "question_validity")
	release := writeLock(t, s)

	// Every key arrives before any command has run: the first save waits
	// on the lock, and no other write starts before it is done.
	var cmds []tea.Cmd
	for _, k := range keys {
		_, cmd := h.m.Update(keyMsg(k))
		cmds = append(cmds, cmd)
	}
	waiting, ahead := h.m.e.dec.waiting(), len(h.m.e.ahead.keys)
	if waiting < 2 || waiting+ahead != 500 {
		t.Fatalf("%d decisions and %d keys wait, want 500 in all", waiting, ahead)
	}
	h.send(saveSlowMsg{seq: h.m.e.saves}) // 300 ms later
	line := fmt.Sprintf("⧗ %d decisions not saved yet (kept in order): another program is writing · %d keys typed ahead", waiting, ahead)
	if v := h.view(); !strings.Contains(v, line) {
		t.Fatalf("the screen does not say it waits for the database (%q):\n%s", line, v)
	}
	// The first save waits on the lock; nothing is written before it goes.
	done := make(chan struct{})
	go func() { h.run(cmds[0]); close(done) }()
	time.Sleep(50 * time.Millisecond)
	if got := labelLog(t, s, items); len(got) != 0 {
		t.Fatalf("written through the lock: %v", got)
	}
	release()
	<-done // …and every decision after it, as each write comes back
	for _, c := range cmds[1:] {
		h.run(c)
	}
	sameLog(t, labelLog(t, s, items), want)
	if len(h.m.e.ahead.keys) != 0 || len(h.m.e.dec.ops) != 0 {
		t.Fatalf("%d keys and %d decisions still wait", len(h.m.e.ahead.keys), len(h.m.e.dec.ops))
	}
	h.at(fmt.Sprintf("q%d", 168), "question_validity") // the item after the last one labelled
}

// Past typeaheadLimit waiting keys, a key is refused with a bell and the
// status line counts them; the keys taken are all applied, in order.
func TestTypeAheadPastTheLimitIsRefusedVisibly(t *testing.T) {
	s := openStore(t)
	keys, want := burst(typeaheadLimit + 200)
	items := 400
	seedQA(t, s, make([]int, items)...)
	h := newHarness(t, s, Options{Kind: "qa"})
	// The first key's save is in flight and none of the commands runs: the
	// decisions of the items at hand are bound, the rest fill the queue.
	var cmds []tea.Cmd
	sent := 0
	for len(h.m.e.ahead.keys) < typeaheadLimit {
		_, cmd := h.m.Update(keyMsg(keys[sent]))
		cmds = append(cmds, cmd)
		sent++
	}
	bells := 0
	for i := 0; i < 199; i++ {
		_, cmd := h.m.Update(keyMsg("y"))
		if raw, ok := cmd().(tea.RawMsg); ok && raw.Msg == "\a" {
			bells++
		}
	}
	if bells != 199 {
		t.Fatalf("%d bells for 199 refused keys", bells)
	}
	if v := h.view(); !strings.Contains(v, "199 keys not taken: more than 1000 were waiting") {
		t.Fatalf("refused keys are not counted on screen:\n%s", v)
	}
	for _, c := range cmds {
		h.run(c)
	}
	sameLog(t, labelLog(t, s, items), want[:sent])
	h.keys("n") // typing to an idle screen again clears the count
	if strings.Contains(h.view(), "not taken") {
		t.Fatalf("the count stays:\n%s", h.view())
	}
}

// A save that fails for another reason than a lock: the decisions typed
// after it were bound as if it had been written, so none is applied, and
// the error says how many.
func TestFailedSaveDropsTypeAheadVisibly(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	_, save := h.m.Update(keyMsg("y"))
	h.m.Update(keyMsg("enter"))
	h.m.Update(keyMsg("2"))
	h.send(opDoneMsg{seq: h.m.e.dec.seq, err: fmt.Errorf("disk full")})
	if v := h.view(); !strings.Contains(v, "Not saved: question_validity: disk full; 2 decisions typed after it were not applied") {
		t.Fatalf("dropped decisions not reported:\n%s", v)
	}
	_ = save // never run: the failure stands for it
	h.wantLabels("q1", map[string]string{})
	h.at("q1", "question_validity")
}

// The same through the real program, its commands running concurrently:
// 500 keys sent while another connection holds the write lock; the screen
// shows it waits; once the lock is released the label log holds all 500
// decisions in the order typed.
func TestTeatestFiveHundredKeysWhileLocked(t *testing.T) {
	if testing.Short() {
		t.Skip("the program keeps the lock waiting at least 300 ms")
	}
	s := openStore(t)
	keys, want := burst(500)
	items := 170
	seedQA(t, s, make([]int, items)...)
	o := &observed{Model: New(Options{Store: s, Annotator: "jo", Kind: "qa", Client: "test"})}
	tm := teatest.NewTestModel(t, o, teatest.WithInitialTermSize(100, 30))
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		// A deadline, not a speed target: 500 decisions take 10–20 s on a
		// loaded 2-core machine, so it is generous.
		deadline := time.Now().Add(90 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %s; on %q", what, o.at())
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitFor("q1", func() bool { return o.at() == "q1/question_validity" })
	release := writeLock(t, s)
	for _, k := range keys {
		tm.Send(keyMsg(k))
	}
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return strings.Contains(string(b), "not saved yet (kept in order): another program is writing")
	},
		teatest.WithDuration(8*time.Second))
	release()
	waitFor("the 500th decision", func() bool { return len(labelLog(t, s, items)) >= len(want) })
	waitFor("q168", func() bool { return o.at() == "q168/question_validity" })
	tm.Send(keyMsg("q"))
	tm.Send(keyMsg("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	sameLog(t, labelLog(t, s, items), want)
}
