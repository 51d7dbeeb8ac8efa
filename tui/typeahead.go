package tui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// Type-ahead: a fast typist, a paste, key repeat or a slow link sends keys
// faster than decisions are committed, and another process may hold the
// database's write lock for seconds. While the screen waits (a save in
// flight, an item loading) every key waits too, in order, in one queue at
// the root (Model.Update), and is applied once the screen can take it, as if
// typed then. No key is dropped silently: past typeaheadLimit keys the
// queue refuses more with a bell and says how many were not taken; when a
// save fails, the keys typed after it are not applied (they were meant for
// the fields after it) and the error line says how many.

const (
	// typeaheadLimit is how many keys may wait: minutes of typing at the
	// pace of a decision a second, far more than anyone types blind.
	typeaheadLimit = 1000
	// slowSave is how long a save may wait before the screen says the
	// database keeps it waiting.
	slowSave = 300 * time.Millisecond
)

// typeahead is the queue of keys waiting for the screen.
type typeahead struct {
	keys    []tea.KeyPressMsg
	refused int // keys turned away since the annotator last typed to an idle screen
}

// push queues a key; false when the queue is full (the key is refused).
func (q *typeahead) push(k tea.KeyPressMsg) bool {
	if len(q.keys) >= typeaheadLimit {
		q.refused++
		return false
	}
	q.keys = append(q.keys, k)
	return true
}

func (q *typeahead) pop() tea.KeyPressMsg {
	k := q.keys[0]
	q.keys[0] = tea.KeyPressMsg{}
	q.keys = q.keys[1:]
	if len(q.keys) == 0 {
		q.keys = nil // let the backing array go
	}
	return k
}

// drop empties the queue and returns how many keys it held.
func (q *typeahead) drop() int {
	n := len(q.keys)
	q.keys = nil
	return n
}

// waiter is a screen that cannot take keys for now.
type waiter interface{ busy() bool }

// keyWaiter is a screen that takes some keys and not others for now.
type keyWaiter interface {
	waitsFor(tea.KeyPressMsg) bool
}

func isBusy(c ui.Child) bool {
	w, ok := c.(waiter)
	return ok && w.busy()
}

// bell rings the terminal's bell.
func bell() tea.Cmd { return tea.Raw("\a") }

// saveSlowMsg: save number seq has waited slowSave.
type saveSlowMsg struct{ seq int }

// slowTimer starts the timer of the save just started (e.saves).
func (e *env) slowTimer() tea.Cmd {
	if e.noTicks {
		return nil
	}
	seq := e.saves
	return tea.Tick(slowSave, func(time.Time) tea.Msg { return saveSlowMsg{seq: seq} })
}

// notApplied drops the waiting keys after a failure and says so, to follow
// the error ("" when none waited); ahead: the keys were typed ahead of a
// load, else after the action that failed.
func (e *env) notApplied(ahead bool) string {
	n := e.ahead.drop()
	switch {
	case n == 0:
		return ""
	case ahead:
		return e.lang.Sprintf("; %d keys typed ahead were not applied.", n)
	}
	return e.lang.Sprintf("; %d keys typed after it were not applied.", n)
}

// waitingLine is what the status line says while the screen waits (saving
// and slow: a write of the screen's own, a note or a flag), and while
// decisions wait for the database (decisions.go).
func (e *env) waitingLine(saving, slow bool) string {
	q := &e.dec
	n := q.waiting()
	var parts []string
	switch {
	case saving && slow:
		parts = append(parts, e.lang.Sprintf("saving… database busy"))
	case n > 0 && q.slow:
		holder := q.holder
		if holder == "" {
			holder = e.lang.Sprintf("another program")
		}
		parts = append(parts, "⧗ "+e.lang.Sprintf("%d decisions not saved yet (kept in order): %s is writing", n, holder))
	case n > 0 || saving:
		parts = append(parts, e.lang.Sprintf("saving…"))
	}
	if k := len(e.ahead.keys); k > 0 {
		what := e.lang.Sprintf("%d keys typed ahead", k)
		if len(parts) == 0 {
			what = e.lang.Sprintf("%d keys typed ahead, kept in order", k)
		}
		parts = append(parts, what)
	}
	return strings.Join(parts, " · ")
}

// refusedLine says how many keys the full queue turned away.
func (e *env) refusedLine() string {
	if e.ahead.refused == 0 {
		return ""
	}
	return e.lang.Sprintf("%d keys not taken: more than %d were waiting for the database. Type them again once it answers.", e.ahead.refused, typeaheadLimit)
}
