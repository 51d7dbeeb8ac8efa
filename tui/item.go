package tui

import (
	"errors"
	"strconv"
	"strings"

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
	view   kindView

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
	s.openedDone = s.at.kind == stepDone
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
	if s.view.keys != nil {
		if next, cmd, ok := s.view.keys(s, msg); ok {
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
		if len(e.dec.ops) > 0 {
			return s.undoWaiting()
		}
		if len(e.skips) > 0 {
			return e.undoSkip(s)
		}
		return s, tea.Batch(s.ownWrite(), undoCmd(e.store, e.lang, e.annotator, e.suggest))
	case keyIs(msg, k.Skip):
		e.act.drop()
		if e.work != nil && !s.complete() {
			e.work.noteSkipped(s.d.ref.ItemID)
		}
		e.skips = append(e.skips, s.d) // u takes the skip back
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
	}
	e.status = a.why
	return s, nil
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
				e.work.done--
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
		if f.TwoWay {
			out = append(out, ui.With(k.Yes, "y", l.Value(f.Name, f.Values[0])), ui.With(k.No, "n", l.Value(f.Name, f.Values[1])))
		} else {
			out = append(out, ui.With(k.Pick, "1-"+strconv.Itoa(len(f.Values)), l.Sprintf("pick")))
			if s.flow.preselected() != "" {
				out = append(out, ui.With(k.Accept, "enter", l.Sprintf("accept")))
			}
		}
	}
	if s.view.bindings != nil {
		out = s.view.bindings(s, out)
	}
	return out
}

func keyIs(msg tea.KeyPressMsg, b ...key.Binding) bool { return key.Matches(msg, b...) }

// View lays the screen out (ui.Frame): header, the item (question and
// answer, or the claim), the context pane taking the remaining height, the
// field card and the trail of decisions, the status line and the help bar.
// On a short terminal the trail, then the card, shrink first.
func (s *itemScreen) View() string {
	e, st := s.e, s.e.styles
	w, h := s.w, s.h
	bottom := []string{e.statusLine(w, s.saving, s.slow)}
	bottom = append(bottom, e.helpBar(s.bindings(), w)...)
	cardLines := s.card(w, false)
	trailLines := s.trail(w, 2)
	room := func() int { return h - 1 - len(cardLines) - len(trailLines) - len(bottom) }
	if room() < 6 {
		trailLines = s.trail(w, 1)
	}
	if room() < 5 {
		cardLines = s.card(w, true)
	}
	if room() < 4 {
		trailLines = nil
	}
	d, at, view := s.d, s.at, s.view
	f := ui.Frame{
		Header:    s.header(w),
		Top:       view.top(st, d, at, w),
		PaneTitle: view.paneTitle(e.lang, d, at),
		Pane:      func(w int) []string { return view.pane(st, d, at, w) },
		// The pane changes with the item's data, the step (and field: a
		// generated claim's evidence), the claims added and the kind's own
		// state; not with each decision.
		PaneKey: itoa(s.version) + "/" + at.kindKey() + "/" + at.field + "/" + itoa(s.flow.added) + "/" + itoa(e.styleGen) + s.kindPaneKey(),
		Card:    append(cardLines, trailLines...),
		Bottom:  bottom,
	}
	return s.pane.Render(st, f, w, h)
}

func (s *itemScreen) card(w int, compact bool) []string {
	st := s.e.styles
	switch s.at.kind {
	case askOwn:
		if s.flow.own != nil {
			return s.flow.own.card(st, s.flow, w)
		}
	case stepDone:
		if s.flow.notAsked != "" {
			return notAskedCard(st, s.flow.notAsked, w)
		}
		return completeCard(st, w)
	}
	if s.view.card != nil {
		if c := s.view.card(st, s, w, compact); c != nil {
			return c
		}
	}
	if c := s.checklistOf(); c != nil {
		return checklistCard(st, c, w, compact)
	}
	return card(st, s.at.field, s.flow.preselected(), w, compact)
}

// kindPaneKey is the kind's own part of the pane's cache key.
func (s *itemScreen) kindPaneKey() string {
	if s.view.paneKey == nil {
		return ""
	}
	return "/" + s.view.paneKey(s.d)
}

func (s *itemScreen) trail(w, maxLines int) []string {
	var extra []string
	if m := s.flow.marker; m != "" && s.flow.own != nil {
		extra = append(extra, s.e.lang.Sprintf("%s %s", s.e.lang.Field(s.flow.own.marker), s.e.lang.Value(s.flow.own.marker, m)))
	}
	if o := s.flow.own; s.at.kind == askOwn && o.of != nil {
		// The step is about the parent: its decisions, and the marker.
		_, parent := o.of(s.d)
		waiting := s.e.dec.waitingFields(parent)
		if len(waiting) > 0 {
			waiting[""] = true
		}
		return trail(s.e.styles, schema.SpecOf(s.d.kind()).Parent, s.d.parent, waiting, extra, w, maxLines)
	}
	waiting := s.e.dec.waitingFields(s.d.ref.ItemID)
	if s.flow.own != nil && len(s.e.dec.waitingFields(s.d.qa.ItemID)) > 0 && len(extra) > 0 {
		waiting[""] = true // the marker on the answer waits
	}
	return trail(s.e.styles, s.d.kind(), s.flow.labels, waiting, extra, w, maxLines)
}

// header: where the annotator is (queue, batch, item k of n, progress), the
// item's id, its flag and note markers and the session clock.
func (s *itemScreen) header(w int) string {
	e, st, l := s.e, s.e.styles, s.e.lang
	var pieces []ui.Piece
	title := l.Text(s.view.label) + " " + ui.SanitizeLine(s.d.ref.ExtID)
	if o := s.flow.own; s.at.kind == askOwn && o.title != "" {
		// The step is about the parent: "Missed claims · gdpr-001".
		ext, _ := o.of(s.d)
		title = l.Text(o.title) + " · " + ui.SanitizeLine(ext)
	}
	pieces = append(pieces, ui.Piece{Text: title})
	switch s.origin {
	case fromUndo:
		pieces = append(pieces, ui.Piece{Text: l.Sprintf("(back by undo)"), Optional: true})
	case fromGoto:
		pieces = append(pieces, ui.Piece{Text: l.Sprintf("(go to)"), Optional: true})
	case fromSearch:
		pieces = append(pieces, ui.Piece{Text: l.Sprintf("(search)"), Optional: true})
	}
	if wk := e.work; wk != nil {
		if wk.batch != "" {
			pieces = append(pieces, ui.Piece{Text: l.Sprintf("batch %s", ui.SanitizeLine(wk.batch)), Optional: true})
		}
		if s.at.kind == askField && s.flow.suggestion(s.at.field) != "" {
			pieces = append(pieces, ui.Piece{Text: "◆ " + l.Sprintf("%s's suggestion", ui.SanitizeLine(s.d.suggestedBy))})
		}
		if wk.filter.Active() {
			pieces = append(pieces, ui.Piece{Text: l.Sprintf("filter: %s", ui.SanitizeLine(filterName(l, wk.filter)))})
		}
		if wk.counted && s.d.ref.Kind == wk.kind {
			if p, ok := wk.pos[s.d.ref.ItemID]; ok {
				pieces = append(pieces, ui.Piece{Text: l.Sprintf("item %d of %d", p, wk.total)})
			}
			pieces = append(pieces, ui.Piece{Text: ui.Bar(wk.done, wk.total, 10) + " " + ui.Percent(l, wk.done, wk.total), Optional: true})
		}
	}
	var right []string
	if s.d.flagged {
		right = append(right, "⚑ "+l.Sprintf("flagged"))
	}
	if n := len(s.d.notes); n > 0 {
		mark := "✎ " + l.Sprintf("note")
		if n > 1 {
			mark = "✎ " + l.Sprintf("%d notes", n)
		}
		right = append(right, mark)
	}
	session := l.Sprintf("session %s", clock(e.act.session()))
	right = append(right, session)
	r := " " + strings.Join(right, "  ") + " "
	if ui.Width(r) > w/2 {
		r = " " + session + " "
		if s.d.flagged {
			r = " ⚑" + r
		}
	}
	leftW := max(0, w-ui.Width(r))
	left := " " + ui.FitPieces(pieces, " · ", max(0, leftW-1))
	left = ui.TruncateStyled(left, leftW)
	pad := max(0, w-ui.Width(left)-ui.Width(r))
	line := left + strings.Repeat(" ", pad) + r
	line = ui.TruncateStyled(line, w)
	return st.Header.Render(line)
}
