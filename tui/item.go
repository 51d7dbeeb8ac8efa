package tui

import (
	"errors"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/guidelines"
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
)

// itemScreen is the annotation screen of one item: the QA screen (qa.go) or
// the claim screen with its missed-claims step (claim.go). Both share the
// decision flow here: a decision key starts a save Cmd; the next field
// appears only when the labelSavedMsg comes back; a failed save leaves the
// screen on the same field with the error shown.
type itemScreen struct {
	e      *env
	d      *itemData
	origin origin

	field     string // the field asked ("" on the missed-claims step or when complete)
	missed    bool   // on the missed-claims step
	addedHere bool   // a claim was added on this screen: stay on the step
	saving    bool   // a write (or an undo) is in flight: decisions wait
	queued    []tea.KeyPressMsg

	pane    ui.Pane
	focus   bool // the context pane has the focus
	paneKey string
	words   map[string]bool // the claim's words, for highlighting
	w, h    int
	version int // bumped when the item's data is reloaded
}

func newItemScreen(e *env, d *itemData, o origin) *itemScreen {
	s := &itemScreen{e: e, d: d, origin: o, w: e.w, h: e.h}
	if d.kind() == schema.KindClaim {
		s.words = ui.ClaimWords(d.claim)
	}
	s.recompute()
	return s
}

func (s *itemScreen) SetSize(w, h int) { s.w, s.h = w, h }

// recompute derives the field to ask from the current labels (schema.NextField):
// after an undo this re-asks the retracted field and the fields depending on it.
func (s *itemScreen) recompute() {
	d := s.d
	s.field = schema.NextField(d.kind(), d.labels)
	s.missed = d.kind() == schema.KindClaim && s.field == "" && d.isLast &&
		(d.parent[schema.MissedClaimsChecked] == "" || s.addedHere)
}

// setData replaces the item's data (reloaded after an undo or a go-to).
func (s *itemScreen) setData(d *itemData) {
	s.d = d
	s.version++
	s.recompute()
}

// complete reports whether nothing is left to ask on this item.
func (s *itemScreen) complete() bool { return s.field == "" && !s.missed }

// guideField is the guidelines section of what is on screen.
func (s *itemScreen) guideField() string {
	if s.missed {
		return "missed_claims"
	}
	if s.field != "" {
		return s.field
	}
	if s.d.kind() == schema.KindClaim {
		return schema.ClaimValidity
	}
	return schema.QuestionValidity
}

// preselected is the option enter accepts: the generated category.
func (s *itemScreen) preselected() string {
	if s.field != schema.Category {
		return ""
	}
	v, ok := schema.Normalize(schema.Category, s.d.qa.Category)
	if !ok {
		return ""
	}
	return v
}

func (s *itemScreen) Update(msg tea.Msg) (ui.Child, tea.Cmd) {
	e := s.e
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return s.key(msg)
	case labelSavedMsg:
		return s.saved(msg)
	case saveFailedMsg:
		if !s.mine(msg.item) {
			return s, nil
		}
		s.saving = false
		s.queued = nil
		e.act.giveBack(msg.ms)
		e.err = "Not saved: " + msg.field + ": " + msg.err.Error() + " — press the key again to retry."
		return s, nil
	case undoneMsg:
		s.saving = false
		s.queued = nil
		return handleUndo(e, s, msg)
	case gotoLoadedMsg:
		if msg.err != nil {
			e.err = "Go to " + ui.SanitizeLine(msg.query) + ": " + msg.err.Error()
			return s, nil
		}
		e.err = ""
		if msg.data.ref.ItemID == s.d.ref.ItemID {
			s.setData(msg.data)
			return s, nil
		}
		e.work.forget()
		return e.show(s, msg.data, fromGoto)
	case claimAddedMsg:
		if msg.qa != s.d.qa.ItemID {
			return s, nil
		}
		s.saving = false
		if msg.claim.ItemID != 0 {
			s.d.mine = append(s.d.mine, msg.claim)
			s.addedHere = true
			e.work.forget()
		}
		if msg.marker != "" {
			s.d.parent[schema.MissedClaimsChecked] = msg.marker
		}
		if msg.err != nil {
			e.err = "Not saved: " + msg.err.Error()
		} else {
			e.err = ""
			e.status = "Claim added. a: add another · enter: done with this answer"
		}
		s.recompute()
		return s, nil
	case noteSavedMsg:
		if msg.item == s.d.ref.ItemID {
			if msg.err != nil {
				e.err = "Note not saved: " + msg.err.Error()
			} else {
				s.d.note = msg.text
				e.err = ""
				e.status = "Note saved."
				if msg.text == "" {
					e.status = "Note cleared."
				}
			}
		}
		return s, nil
	case flagSavedMsg:
		if msg.item == s.d.ref.ItemID {
			if msg.err != nil {
				e.err = "Flag not saved: " + msg.err.Error()
			} else {
				s.d.flagged = msg.flagged
				e.err = ""
				e.status = "Flagged for discussion."
				if !msg.flagged {
					e.status = "Flag removed."
				}
			}
		}
		return s, nil
	}
	return s, nil
}

// mine reports whether a save answer concerns this screen's item (or its
// answer, for the missed-claims marker).
func (s *itemScreen) mine(item int64) bool {
	return item == s.d.ref.ItemID || (s.d.kind() == schema.KindClaim && item == s.d.qa.ItemID)
}

func (s *itemScreen) key(msg tea.KeyPressMsg) (ui.Child, tea.Cmd) {
	e, k := s.e, s.e.keys
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
		return s, setFlagCmd(e.store, e.annotator, s.d.ref.ItemID, s.field, !s.d.flagged, e.session)
	case keyIs(msg, k.Focus):
		s.focus = !s.focus
		return s, nil
	case keyIs(msg, k.Close):
		s.focus = false
		return s, nil
	case keyIs(msg, k.PageUp):
		s.pane.Page(-1)
		return s, nil
	case keyIs(msg, k.PageDown):
		s.pane.Page(1)
		return s, nil
	case s.focus && keyIs(msg, k.Up):
		s.pane.Scroll(-1)
		return s, nil
	case s.focus && keyIs(msg, k.Down):
		s.pane.Scroll(1)
		return s, nil
	case s.focus && keyIs(msg, k.Top):
		s.pane.Top()
		return s, nil
	case s.focus && keyIs(msg, k.Bottom):
		s.pane.Bottom()
		return s, nil
	case keyIs(msg, k.Undo):
		if s.saving {
			return s, nil
		}
		s.saving = true
		return s, undoCmd(e.store, e.annotator)
	case keyIs(msg, k.Skip):
		if s.saving {
			return s, nil
		}
		e.act.drop()
		if e.work != nil && !s.complete() {
			e.work.skipped++
		}
		e.status = "Skipped " + ui.SanitizeLine(s.d.ref.ExtID) + " (it stays in the queue)."
		return e.advance()
	case keyIs(msg, k.Yes, k.No, k.Pick, k.Accept, k.Add):
		return s.decide(msg)
	}
	return s, nil
}

// decide turns a decision key into a save.
func (s *itemScreen) decide(msg tea.KeyPressMsg) (ui.Child, tea.Cmd) {
	e, k := s.e, s.e.keys
	if s.saving {
		if len(s.queued) < 8 {
			s.queued = append(s.queued, msg)
		}
		return s, nil
	}
	if s.complete() {
		if keyIs(msg, k.Accept) {
			return e.advance()
		}
		return s, nil
	}
	if s.missed {
		return s.decideMissed(msg)
	}
	f, _ := schema.Lookup(s.field)
	value := ""
	switch {
	case keyIs(msg, k.Yes) && f.TwoWay:
		value = f.Values[0]
	case keyIs(msg, k.No) && f.TwoWay:
		value = f.Values[1]
	case keyIs(msg, k.Pick):
		n, _ := strconv.Atoi(msg.String())
		if n >= 1 && n <= len(f.Values) {
			value = f.Values[n-1]
		}
	case keyIs(msg, k.Accept):
		value = s.preselected()
	}
	if value == "" {
		return s, nil
	}
	return s, s.save(s.d.ref.ItemID, s.field, value)
}

// save starts writing one decision.
func (s *itemScreen) save(item int64, field, value string) tea.Cmd {
	e := s.e
	s.saving = true
	return saveLabelCmd(e.store, store.Label{
		Annotator: e.annotator, ItemID: item, Field: field, Value: value,
		ActiveMs: e.act.take(), SessionID: e.session, GuidelinesVersion: guidelines.Version,
	})
}

// saved: the decision is committed; show the next field, or the next item.
func (s *itemScreen) saved(msg labelSavedMsg) (ui.Child, tea.Cmd) {
	e := s.e
	if !s.mine(msg.item) {
		return s, nil
	}
	s.saving = false
	e.err = ""
	if msg.item == s.d.ref.ItemID {
		s.d.labels[msg.field] = msg.value
	} else {
		s.d.parent[msg.field] = msg.value
		s.addedHere = false
	}
	s.recompute()
	if s.complete() {
		if e.work != nil {
			e.work.finished[s.d.ref.ItemID] = true
			e.work.done++
			next, cmd := e.advance()
			// Keys typed while the last save was in flight are for the next item.
			return carry(next, tea.Batch(cmd, e.work.recount(e)), s.queued)
		}
		return e.goHome()
	}
	if len(s.queued) > 0 {
		k := s.queued[0]
		s.queued = s.queued[1:]
		return s.decide(k)
	}
	return s, nil
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
		if errors.Is(msg.err, store.ErrNothingToUndo) {
			e.status = "Nothing to undo."
		} else {
			e.err = "Undo failed: " + msg.err.Error()
		}
		return stay(), nil
	}
	e.err = ""
	e.status = "Undone: " + msg.ev.Field + " = " + ui.SanitizeLine(msg.ev.Value) + " on " + ui.SanitizeLine(msg.ev.ItemExtID) + "."
	var cmd tea.Cmd
	if e.work != nil {
		e.work.forget()
		id := msg.data.ref.ItemID
		if e.work.finished[id] {
			delete(e.work.finished, id)
			e.work.done--
		}
		cmd = e.work.recount(e)
	}
	if cur != nil && msg.data.ref.ItemID == cur.d.ref.ItemID {
		cur.addedHere = false
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
	k := s.e.keys
	out := []key.Binding{k.Undo, k.Skip, k.Flag, k.Note, k.Help}
	if s.focus {
		out = append(out, ui.With(k.Focus, "tab", "leave context"), ui.With(k.Up, "↑↓", "scroll"))
	} else {
		out = append(out, k.Focus)
	}
	out = append(out, k.Quit, k.Goto)
	switch {
	case s.complete():
		out = append(out, ui.With(k.Accept, "enter", "next item"))
	case s.missed:
		out = append(out, k.Add)
		if s.d.parent[schema.MissedClaimsChecked] != "" || len(s.d.mine) > 0 {
			out = append(out, ui.With(k.Accept, "enter", "done"))
		} else {
			out = append(out, ui.With(k.Accept, "enter", "none missed"))
		}
	default:
		f, _ := schema.Lookup(s.field)
		if f.TwoWay {
			out = append(out, ui.With(k.Yes, "y", f.Values[0]), ui.With(k.No, "n", f.Values[1]))
		} else {
			out = append(out, ui.With(k.Pick, "1-"+strconv.Itoa(len(f.Values)), "pick"))
			if p := s.preselected(); p != "" {
				out = append(out, ui.With(k.Accept, "enter", "accept"))
			}
		}
	}
	return out
}

func keyIs(msg tea.KeyPressMsg, b ...key.Binding) bool { return key.Matches(msg, b...) }

// View lays the screen out: header, the fixed part (question and answer, or
// the claim), the context pane taking the remaining height, the field card,
// the trail of decisions, the status line and the help bar.
func (s *itemScreen) View() string {
	e, st := s.e, s.e.styles
	w, h := s.w, s.h
	header := s.header(w)
	status := e.statusLine(w, s.saving)
	helpBar := e.helpBar(s.bindings(), w)
	cardLines := s.card(w, false)
	trailLines := s.trail(w, 2)
	fixed := func() int { return 1 + len(cardLines) + len(trailLines) + 2 }
	if h-fixed() < 6 {
		trailLines = s.trail(w, 1)
	}
	if h-fixed() < 5 {
		cardLines = s.card(w, true)
	}
	if h-fixed() < 4 {
		trailLines = nil
	}
	body := max(0, h-fixed())

	top := s.top(w)
	full := false
	topMax := max(1, body*2/5)
	if body < 3 {
		topMax = 0
	}
	if len(top) > topMax {
		full = true
		top = top[:topMax]
		if topMax > 0 {
			top[topMax-1] = st.Dim.Render(ui.Truncate("… continued in the pane below (tab to scroll)", w))
		}
	}
	paneH := body - len(top)
	var pane []string
	if paneH >= 2 {
		// The pane changes with the width, the item's data, the step and the
		// claims added; not with each decision.
		key := itoa(w) + "/" + itoa(s.version) + "/" + boolStr(full) + "/" + boolStr(s.missed) + "/" + itoa(len(s.d.mine)) + "/" + itoa(s.e.styleGen)
		if key != s.paneKey {
			s.paneKey = key
			s.pane.SetLines(s.paneContent(w, full))
		}
		s.pane.SetHeight(paneH - 1)
		pane = append(pane, ui.PaneTitle(st, s.paneTitle(), s.focus, s.pane.Percent(), s.pane.Scrollable(), w))
		pane = append(pane, s.pane.View()...)
	} else {
		for i := 0; i < paneH; i++ {
			pane = append(pane, "")
		}
	}

	lines := make([]string, 0, h)
	lines = append(lines, header)
	lines = append(lines, top...)
	lines = append(lines, pane...)
	lines = append(lines, cardLines...)
	lines = append(lines, trailLines...)
	lines = append(lines, status, helpBar)
	return strings.Join(lines, "\n")
}

func boolStr(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

func (s *itemScreen) top(w int) []string {
	st := s.e.styles
	switch {
	case s.d.kind() == schema.KindQA:
		return ui.QATop(st, s.d.qa, w)
	case s.missed:
		return missedTop(st, s.d, w)
	}
	return claimTop(st, s.d, w)
}

func (s *itemScreen) paneContent(w int, full bool) []string {
	st := s.e.styles
	switch {
	case s.d.kind() == schema.KindQA:
		return qaPane(st, s.d.qa, w, full)
	case s.missed:
		return missedPane(st, s.d, w, full)
	}
	return claimPane(st, s.d, s.words, w, full)
}

func (s *itemScreen) paneTitle() string {
	switch {
	case s.d.kind() == schema.KindClaim && s.missed:
		return "Claims and context"
	case s.d.kind() == schema.KindClaim:
		return "Answer and context"
	case len(s.d.qa.Contexts) > 1:
		return "Context (" + itoa(len(s.d.qa.Contexts)) + " units)"
	}
	return "Context"
}

func (s *itemScreen) card(w int, compact bool) []string {
	st := s.e.styles
	switch {
	case s.missed:
		return missedCard(st, s.d.parent[schema.MissedClaimsChecked], len(s.d.mine), w)
	case s.complete():
		return completeCard(st, w)
	}
	return card(st, s.field, s.preselected(), w, compact)
}

func (s *itemScreen) trail(w, maxLines int) []string {
	var extra []string
	if s.d.kind() == schema.KindClaim {
		if m := s.d.parent[schema.MissedClaimsChecked]; m != "" && s.d.isLast {
			extra = append(extra, "missed_claims_checked "+m)
		}
	}
	return trail(s.e.styles, s.d.kind(), s.d.labels, extra, w, maxLines)
}

// header: where the annotator is (queue, batch, item k of n, progress), the
// item's id, its flag and note markers and the session clock.
func (s *itemScreen) header(w int) string {
	e, st := s.e, s.e.styles
	kind := "QA"
	if s.d.kind() == schema.KindClaim {
		kind = "Claim"
	}
	var pieces []ui.Piece
	pieces = append(pieces, ui.Piece{Text: kind + " " + ui.SanitizeLine(s.d.ref.ExtID)})
	switch s.origin {
	case fromUndo:
		pieces = append(pieces, ui.Piece{Text: "(back by undo)", Optional: true})
	case fromGoto:
		pieces = append(pieces, ui.Piece{Text: "(go to)", Optional: true})
	}
	if wk := e.work; wk != nil {
		if wk.batch != "" {
			pieces = append(pieces, ui.Piece{Text: "batch " + ui.SanitizeLine(wk.batch), Optional: true})
		}
		if wk.counted && string(s.d.kind()) == wk.kind {
			k := min(wk.done+1, max(wk.total, 1))
			if s.complete() {
				k = wk.done
			}
			pieces = append(pieces, ui.Piece{Text: "item " + itoa(k) + " of " + itoa(wk.total)})
			pieces = append(pieces, ui.Piece{Text: ui.Bar(wk.done, wk.total, 10) + " " + ui.Percent(wk.done, wk.total), Optional: true})
		}
	}
	var right []string
	if s.d.flagged {
		right = append(right, "⚑ flagged")
	}
	if s.d.note != "" {
		right = append(right, "✎ note")
	}
	right = append(right, "session "+clock(e.act.session()))
	r := " " + strings.Join(right, "  ") + " "
	if ui.Width(r) > w/2 {
		r = " session " + clock(e.act.session()) + " "
		if s.d.flagged {
			r = " ⚑" + r
		}
	}
	leftW := max(0, w-ui.Width(r))
	l := " " + ui.FitPieces(pieces, " · ", max(0, leftW-1))
	l = ui.TruncateStyled(l, leftW)
	pad := max(0, w-ui.Width(l)-ui.Width(r))
	line := l + strings.Repeat(" ", pad) + r
	line = ui.TruncateStyled(line, w)
	return st.Header.Render(line)
}
