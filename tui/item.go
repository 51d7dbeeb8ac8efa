package tui

import (
	"errors"
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// origin says how an item came on screen.
type origin int

const (
	fromQueue origin = iota
	fromGoto
	fromUndo
	fromSearch
)

// itemScreen is the annotation screen of one item, whatever its kind (the
// kind's own file registers how it is drawn: kinds.go). The annotation
// itself is a flow (step.go): a decision key becomes an action; a decision
// joins the queue of decisions waiting to be written (decisions.go) and the
// flow on screen is the committed one with the waiting decisions after it,
// shown as not saved yet; the item is left once they are written. Keys
// that must wait (typeahead.go) wait in the root's queue, never here.
type itemScreen struct {
	e      *env
	d      *itemData
	origin origin
	view   Kind

	base       flow // the flow of what the database holds
	flow       flow // base, then the decisions waiting on the item (decisions.go): what the screen asks
	at         step // flow.Next()
	openedDone bool // nothing was left to ask when the item opened
	saving     bool // a write other than a decision (a note, a flag, an undo) is in flight
	slow       bool // … for longer than slowSave

	pane    ui.PaneState
	w, h    int
	version int        // bumped when the item's data is reloaded
	check   *checklist // a multi-valued field's checklist (checklist.go)
}

func newItemScreen(e *env, d *itemData, o origin) *itemScreen {
	s := &itemScreen{e: e, origin: o, w: e.w, h: e.h}
	s.setData(d)
	return s
}

func (s *itemScreen) SetSize(w, h int) { s.w, s.h = w, h }

// setData shows an item's data as loaded (first, or again after an undo or
// a go-to): the flow starts over from its labels.
func (s *itemScreen) setData(d *itemData) {
	s.d = d
	s.view = viewOf(d.kind())
	s.version++
	s.base = newFlow(d, s.e.lang)
	s.rebuild()
	s.openedDone = s.flow.Finished()
	if d.notAsked != "" {
		// The card says why; the status line only what to do (it fits 80
		// columns whatever the reason).
		s.e.status = s.e.lang.Sprintf("Shown read-only: nothing is asked here. enter goes on.")
	}
}

// complete reports whether nothing is left to ask on this item.
func (s *itemScreen) complete() bool { return s.at.kind == stepDone }

// busy reports whether a write other than a decision is in flight, or the
// item is finished and may not be left before the decisions waiting are
// written: keys wait (typeahead.go). While decisions wait, waitsFor says
// which keys wait.
func (s *itemScreen) busy() bool { return s.saving || s.complete() && s.waitsOnLeaving() }

// noteField is the field a note written now is about: the field asked, the
// kind's own step (its guidelines section), or "" (the item as a whole)
// once nothing is asked.
func (s *itemScreen) noteField() string {
	switch s.at.kind {
	case askField:
		return s.at.field
	case askOwn:
		return s.flow.own.section
	}
	return ""
}

// guideField is the guidelines section of what is on screen.
func (s *itemScreen) guideField() string {
	switch s.at.kind {
	case askField:
		return s.at.field
	case askOwn:
		return s.flow.own.section
	}
	if fs := schema.Fields(s.d.kind()); len(fs) > 0 {
		return fs[0].Name
	}
	return ""
}

func (s *itemScreen) Update(msg tea.Msg) (ui.Child, tea.Cmd) {
	e := s.e
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return s.key(msg)
	case decisionsMsg:
		return s.decisions(msg)
	case saveSlowMsg:
		if s.saving && msg.seq == e.saves {
			s.slow = true
		}
		return s, nil
	case undoneMsg:
		s.saving, s.slow = false, false
		return handleUndo(e, s, msg)
	case gotoLoadedMsg:
		if msg.err != nil {
			e.err = msg.failure(e.lang) + e.notApplied(false)
			return s, nil
		}
		e.err = ""
		o := fromGoto
		if msg.search {
			o = fromSearch
		}
		if msg.data.ref.ItemID == s.d.ref.ItemID {
			s.setData(msg.data)
			msg.say(e)
			return s, nil
		}
		e.work.forget()
		next, cmd := e.show(s, msg.data, o)
		msg.say(e)
		return next, cmd
	case claimAddedMsg:
		if msg.qa != s.d.qa.ItemID {
			return s, nil
		}
		s.saving, s.slow = false, false
		if msg.claim.ItemID != 0 {
			s.d.mine = append(s.d.mine, msg.claim)
			s.base = s.base.Apply(event{kind: evClaimAdded, value: msg.marker})
			s.rebuild()
			e.work.forget()
		}
		if msg.err != nil {
			e.err = e.lang.Sprintf("Not saved: %s", msg.err.Error())
		} else {
			e.err = ""
			e.status = e.lang.Sprintf("Claim added. a: add another · enter: done with this answer")
		}
		return s, nil
	case noteSavedMsg:
		if msg.item == s.d.ref.ItemID {
			s.saving = false
			if msg.err != nil {
				e.err = e.lang.Sprintf("Note not saved: %s", msg.err.Error())
			} else {
				if msg.text == "" {
					delete(s.d.notes, msg.field)
				} else {
					s.d.notes[msg.field] = msg.text
				}
				e.err = ""
				e.status = e.lang.Sprintf("Note saved.")
				if msg.text == "" {
					e.status = e.lang.Sprintf("Note cleared.")
				}
			}
		}
		return s, nil
	case flagSavedMsg:
		if msg.item == s.d.ref.ItemID {
			s.saving = false
			if msg.err != nil {
				e.err = e.lang.Sprintf("Flag not saved: %s", msg.err.Error())
			} else {
				s.d.flagged = msg.flagged
				e.err = ""
				e.status = e.lang.Sprintf("Flagged for discussion.")
				if !msg.flagged {
					e.status = e.lang.Sprintf("Flag removed.")
				}
			}
		}
		return s, nil
	}
	return s, nil
}

func (s *itemScreen) key(msg tea.KeyPressMsg) (ui.Child, tea.Cmd) {
	e, k := s.e, s.e.keys
	if h, ok := s.view.(keyHandler); ok {
		if next, cmd, ok := h.keys(s, msg); ok {
			return next, cmd
		}
	}
	if c := s.checklistOf(); c != nil {
		if next, cmd, ok := s.checklistKey(c, msg); ok {
			return next, cmd
		}
	}
	if s.pane.ScrollKey(k, msg) {
		return s, nil
	}
	if next, cmd, ok := s.searchKey(msg); ok {
		return next, cmd
	}
	switch {
	case keyIs(msg, k.Quit):
		return e.goHome()
	case keyIs(msg, k.Help):
		return newGuide(e, s, s.guideField())
	case keyIs(msg, k.Note):
		return newNoteInput(e, s), nil
	case keyIs(msg, k.Goto):
		return newGotoInput(e, s), nil
	case keyIs(msg, k.Flag):
		return s, tea.Batch(s.ownWrite(), setFlagCmd(e.store, e.annotator, s.d.ref.ItemID, s.at.field, !s.d.flagged, e.session))
	case keyIs(msg, k.Undo):
		// What the store does not record is the newest (a decision
		// forgets it), then the decisions still waiting, then the store's.
		if len(e.unrecorded) > 0 {
			return e.undoUnrecorded(s)
		}
		if len(e.dec.ops) > 0 {
			return s.undoWaiting()
		}
		return s, tea.Batch(s.ownWrite(), undoCmd(e.store, e.lang, e.annotator, e.suggest))
	case keyIs(msg, k.Skip):
		e.act.drop()
		if e.work != nil && !s.complete() {
			e.work.noteSkipped(s.d.ref.ItemID)
		}
		e.unrecorded = append(e.unrecorded, unrecorded{d: s.d}) // u takes the skip back
		e.status = e.lang.Sprintf("Skipped %s (it stays in the queue).", ui.SanitizeLine(s.d.ref.ExtID))
		return e.advance()
	}
	if in, ok := decisionInput(k, msg); ok {
		return s.decide(in)
	}
	switch {
	case keyIs(msg, k.Up, k.Down, k.Top, k.Bottom):
		e.status = e.lang.Sprintf("%s scrolls the context pane once it has the focus: tab first.", msg.String())
	case msg.Text != "":
		e.status = e.lang.Sprintf("%s is not a key of this screen: the keys are below, ? has the guidelines.", msg.String())
	}
	return s, nil
}

// decisionInput names a decision key for the flow.
func decisionInput(k ui.KeyMap, msg tea.KeyPressMsg) (input, bool) {
	key := msg.String()
	switch {
	case keyIs(msg, k.Yes):
		return input{kind: inYes, key: key}, true
	case keyIs(msg, k.No):
		return input{kind: inNo, key: key}, true
	case keyIs(msg, k.Pick):
		n, _ := strconv.Atoi(key)
		return input{kind: inPick, n: n, key: key}, true
	case keyIs(msg, k.Accept):
		return input{kind: inAccept, key: key}, true
	case keyIs(msg, k.Add):
		return input{kind: inAdd, key: key}, true
	}
	return input{}, false
}

// decide carries out what the flow makes of a decision key.
func (s *itemScreen) decide(in input) (ui.Child, tea.Cmd) {
	e := s.e
	a := s.flow.Decide(in)
	switch a.kind {
	case actSave:
		item := s.d.ref.ItemID
		if a.onAnswer {
			item = s.d.qa.ItemID
		}
		return s.enqueue(s.decisionOp(item, a.field, a.value, a.onAnswer))
	case actAddOpen:
		return newAddClaimInput(e, s), nil
	case actClose:
		// Nothing to write: the step closes on the flow as committed.
		s.base = s.base.Apply(event{kind: evStepClosed})
		s.rebuild()
		return s.next()
	case actNextItem:
		return s.finish()
	case actPass:
		return s.pass(a.field)
	}
	e.status = a.why
	return s, nil
}

// pass passes the optional field on screen: nothing is written, the flow
// goes on (or the item is left, finished); u takes the pass back.
func (s *itemScreen) pass(field string) (ui.Child, tea.Cmd) {
	e := s.e
	s.base = s.base.Apply(event{kind: evPassed, field: field})
	s.d.passed = s.base.passed
	e.unrecorded = append(e.unrecorded, unrecorded{d: s.d, field: field})
	e.status = e.lang.Sprintf("%s passed: nothing recorded (u takes it back).", e.lang.Field(field))
	s.rebuild()
	return s.next()
}

// ownWrite marks a write of the screen's own (a note, a flag, an undo, an
// added claim) as in flight, and starts the timer that says so if the
// database keeps it waiting.
func (s *itemScreen) ownWrite() tea.Cmd {
	s.saving, s.slow = true, false
	s.e.saves++
	return s.e.slowTimer()
}

// addClaim is called by the add-claim input with the three parts.
func (s *itemScreen) addClaim(t [3]string) tea.Cmd {
	e := s.e
	return tea.Batch(s.ownWrite(), addClaimCmd(e.store, e.annotator, s.d.qa.ItemID, t, e.session))
}

// next finishes the item when nothing is left to ask, unless it must wait
// for its decisions to be written (decisions then finishes it).
func (s *itemScreen) next() (ui.Child, tea.Cmd) {
	if s.at.kind == stepDone && !s.waitsOnLeaving() {
		return s.finish()
	}
	return s, nil
}

// finish is the one way an item is left as done: it is counted (unless it
// was done when it opened) and the next item of the queue is shown.
func (s *itemScreen) finish() (ui.Child, tea.Cmd) {
	s.e.claimsNext(s.d, s.flow.labels)
	return s.e.finishItem(s.d.ref.ItemID, s.openedDone)
}

// finishItem counts an item as done (unless it was done when it opened)
// and shows the next item of the queue; every screen leaves an item through it.
func (e *env) finishItem(id int64, openedDone bool) (ui.Child, tea.Cmd) {
	if e.work == nil {
		return e.goHome()
	}
	if !openedDone && !e.work.finished[id] {
		e.work.finished[id] = true
		if !e.work.following[id] {
			e.work.done++
		}
	}
	next, cmd := e.advance()
	return next, tea.Batch(cmd, e.work.recount(e))
}

// handleUndo goes back to the item of the retracted decision and asks the
// field again (cur may be nil when undo came from the done screen).
func handleUndo(e *env, cur *itemScreen, msg undoneMsg) (ui.Child, tea.Cmd) {
	stay := func() ui.Child {
		if cur != nil {
			return cur
		}
		d := newDone(e)
		d.SetSize(e.w, e.h)
		return d
	}
	if msg.err != nil {
		// The keys typed after the undo were meant for what it would have
		// brought back.
		if errors.Is(msg.err, store.ErrNothingToUndo) {
			e.err, e.status = "", e.lang.Sprintf("Nothing to undo.")
			if dropped := e.notApplied(false); dropped != "" {
				e.status = e.lang.Sprintf("Nothing to undo") + dropped
			}
		} else {
			e.err = e.lang.Sprintf("Undo failed: %s", msg.err.Error()) + e.notApplied(false)
		}
		return stay(), nil
	}
	e.err = ""
	e.status = e.lang.Sprintf("Undone: %s = %s on %s.", e.lang.Field(msg.ev.Field), e.lang.Value(msg.ev.Field, ui.SanitizeLine(msg.ev.Value)), ui.SanitizeLine(msg.ev.ItemExtID))
	var cmd tea.Cmd
	if e.work != nil {
		e.work.forget()
		id := msg.data.ref.ItemID
		if e.work.finished[id] {
			delete(e.work.finished, id)
			if !e.work.following[id] {
				e.work.done = max(0, e.work.done-1) // the store's recount may have left it out already
			}
		}
		cmd = e.work.recount(e)
	}
	if cur != nil && msg.data.ref.ItemID == cur.d.ref.ItemID {
		cur.setData(msg.data)
		return cur, cmd
	}
	next, c2 := e.show(cur, msg.data, fromUndo)
	return next, tea.Batch(cmd, c2)
}

// bindings is the help bar of the screen in its current state. The keys
// that move around come first: the decision keys are on the field card too,
// so they are the ones a narrow help bar drops.
func (s *itemScreen) bindings() []key.Binding {
	k, l := s.e.keys, s.e.lang
	out := []key.Binding{k.Undo, k.Skip, k.Flag, k.Note, k.Help}
	if s.pane.Focus {
		out = append(out, ui.With(k.Focus, "tab", l.Sprintf("leave context")), ui.With(k.Up, "↑↓", l.Sprintf("scroll")))
	} else {
		out = append(out, k.Focus)
	}
	out = append(out, k.Quit, k.Goto, k.Search)
	if s.e.work != nil && s.e.work.term != "" {
		out = append(out, ui.With(k.SearchNext, "ctrl+n/p", l.Sprintf("next/prev match")))
	}
	out = append(out, k.Filter)
	switch s.at.kind {
	case stepDone:
		out = append(out, ui.With(k.Accept, "enter", l.Sprintf("next item")))
	case askOwn:
		out = append(out, k.Add)
		if s.flow.marker != "" || s.flow.added > 0 {
			out = append(out, ui.With(k.Accept, "enter", l.Sprintf("done")))
		} else {
			out = append(out, ui.With(k.Accept, "enter", l.Sprintf("none missed")))
		}
	default:
		f, _ := schema.Lookup(s.at.field)
		if f.Multi {
			out = append(out, checklistBindings(k, len(f.Values))...)
			break
		}
		pre := s.flow.preselected()
		if f.TwoWay {
			out = append(out, ui.With(k.Yes, "y", l.Value(f.Name, f.Values[0])), ui.With(k.No, "n", l.Value(f.Name, f.Values[1])))
		} else {
			out = append(out, ui.With(k.Pick, "1-"+strconv.Itoa(len(f.Values)), l.Sprintf("pick")))
			if pre != "" {
				out = append(out, ui.With(k.Accept, "enter", l.Sprintf("accept")))
			}
		}
		if pre == "" && f.Optional {
			out = append(out, ui.With(k.Accept, "enter", l.Sprintf("pass")))
		}
	}
	if h, ok := s.view.(keyHandler); ok {
		out = h.bindings(s, out)
	}
	return out
}

func keyIs(msg tea.KeyPressMsg, b ...key.Binding) bool { return key.Matches(msg, b...) }
