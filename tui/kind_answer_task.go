package tui

import (
	"strings"
	"time"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"

	wallclock "github.com/annotate-dev/annotate/internal/clock"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// The answer screen (CanLegalRAGBench §3 step 6, docs/keys.md "answer
// editor"): the query with its persona and jurisdiction on top; a
// multi-line editor for the gold answer with the seed document beside it;
// a citations editor, one document id or citation per line, each marked
// known (✓) or unknown (?, allowed and kept as written); word and character
// counts. What the expert types is saved as a draft at most once a second
// while they type (so a kill loses at most the last second) and when they
// leave; a draft is never a label. ctrl+s submits: one label event for the
// answer and one for the citations, with the active time of the draft.

func init() {
	Register(answerTaskKind{})
}

type answerTaskKind struct{}

func (answerTaskKind) Kind() schema.Kind { return schema.KindAnswerTask }

func (answerTaskKind) Names() Names {
	return Names{Label: lang.Key("Answer"), Queue: lang.Key("Answer tasks"), Noun: lang.Key("answer")}
}

func (answerTaskKind) Top(dr Drawing, w int) []string {
	return dr.Labelled(dr.st.Lang.Sprintf("Query"), answerTaskOf(dr.d).Query.Text, w)
}

func (answerTaskKind) Pane(Drawing, int) []string  { return nil }
func (answerTaskKind) PaneTitle(dr Drawing) string { return dr.st.Lang.Sprintf("Seed document") }

// screen: the answer editor (answerScreen), not the field-by-field screen.
func (answerTaskKind) screen(e *env, d *itemData, o origin) (ui.Child, tea.Cmd) {
	s := newAnswerScreen(e, d, o)
	return s, loadAnswerCmd(e.store, e.annotator, d.ref.ItemID)
}

// answerTaskOf is the answer task on screen (empty when the item is not one).
func answerTaskOf(d *itemData) *store.AnswerTask {
	if d.view != nil {
		if t, ok := d.view.Item.Payload.(*store.AnswerTask); ok && t.Query != nil {
			return t
		}
	}
	return &store.AnswerTask{Query: &store.Query{}}
}

// draftEvery is how often, at most, a draft is written while the expert types.
const draftEvery = time.Second

// Focus of the answer screen, in tab order.
const (
	focusAnswer = iota
	focusCitations
	focusDocument
	focusCount
)

// leaving is where the screen goes once the draft is saved.
type leaving int

const (
	stay leaving = iota
	leaveHome
	leaveNext
)

type answerScreen struct {
	e          *env
	d          *itemData
	origin     origin
	task       *store.AnswerTask
	answer     *ui.Editor
	cites      *ui.Editor
	focus      int
	doc        ui.Pane
	docKey     string
	seed       *store.Document
	seedName   string
	loaded     bool // the draft and seed document are in
	checks     []store.CitationCheck
	checkSeq   int
	openedDone bool

	dirty       bool // typed since the last draft written
	saving      bool // a draft write is in flight
	lastSave    time.Time
	tickPending bool
	savedAt     time.Time
	draftErr    string
	submitting  bool
	submitNext  bool // ctrl+s waits for the draft write in flight
	leave       leaving
	w, h        int
}

func newAnswerScreen(e *env, d *itemData, o origin) *answerScreen {
	clip := e.client != "ssh"
	s := &answerScreen{e: e, d: d, origin: o, task: answerTaskOf(d),
		answer: ui.NewEditor(e.styles, clip, e.lang.Sprintf("Write the answer to the query here. Enter starts a new line.")),
		cites:  ui.NewEditor(e.styles, clip, e.lang.Sprintf("One document id or citation per line")),
		w:      e.w, h: e.h, lastSave: e.elapsed()}
	s.cites.Blur()
	s.cites.SetGutter(2, s.citationMark)
	s.answer.SetValue(d.labels[schema.GoldAnswer])
	s.cites.SetValue(strings.Join(schema.DecodeMulti(d.labels[schema.Citations]), "\n"))
	s.openedDone = schema.Complete(schema.KindAnswerTask, d.labels)
	return s
}

// busy: keys wait while the answer is being submitted or the screen is
// leaving (the draft is written first).
func (s *answerScreen) busy() bool { return s.submitting || s.leave != stay }

func (s *answerScreen) SetSize(w, h int) { s.w, s.h = w, h }

// citationLines are the citations as typed, blank lines left out.
func (s *answerScreen) citationLines() []string {
	var out []string
	for _, l := range strings.Split(s.cites.Value(), "\n") {
		if t := strings.TrimSpace(l); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// citationMark is the gutter of a citation line: ✓ a known document, ? one
// that is not (allowed, kept as written).
func (s *answerScreen) citationMark(line int) string {
	lines := strings.Split(s.cites.Value(), "\n")
	if line >= len(lines) || strings.TrimSpace(lines[line]) == "" {
		return "  "
	}
	text := strings.TrimSpace(lines[line])
	for _, c := range s.checks {
		if c.Text == text {
			if c.Document != "" {
				return "✓ "
			}
			return "? "
		}
	}
	return "· "
}

func (s *answerScreen) Update(msg tea.Msg) (ui.Child, tea.Cmd) {
	e := s.e
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return s.key(msg)
	case tea.PasteMsg:
		return s.edit(msg)
	case answerLoadedMsg:
		if msg.item != s.d.ref.ItemID {
			return s, nil
		}
		if msg.err != nil {
			e.err = e.lang.Sprintf("Could not load the draft: %s", msg.err.Error())
			return s, nil
		}
		s.loaded = true
		s.seed, s.seedName = msg.scr.Seed, msg.scr.SeedName
		if d := msg.scr.Draft; d != nil {
			s.answer.SetValue(d.GoldAnswer)
			s.cites.SetValue(d.Citations)
			s.savedAt = d.UpdatedAt
			e.status = e.lang.Sprintf("Your draft of %s is back.", e.lang.DayTime(d.UpdatedAt.Local()))
		}
		return s, s.check()
	case citationsCheckedMsg:
		if msg.item == s.d.ref.ItemID && msg.seq == s.checkSeq && msg.err == nil {
			s.checks = msg.checks
		}
		return s, nil
	case draftTickMsg:
		if msg.item != s.d.ref.ItemID {
			return s, nil
		}
		s.tickPending = false
		return s, s.maybeSave()
	case draftSavedMsg:
		if msg.item != s.d.ref.ItemID {
			return s, nil
		}
		s.saving = false
		if msg.err != nil {
			e.act.giveBack(msg.ms)
			s.draftErr = msg.err.Error()
			s.dirty = true
		} else {
			s.draftErr, s.savedAt = "", msg.at
		}
		if s.submitNext {
			s.submitNext = false
			return s, s.submit()
		}
		if s.leave != stay {
			if s.dirty && msg.err == nil {
				return s, s.saveNow()
			}
			return s.left()
		}
		return s, tea.Batch(s.maybeSave(), s.check())
	case answerSubmittedMsg:
		if msg.item != s.d.ref.ItemID {
			return s, nil
		}
		s.submitting = false
		if msg.err != nil {
			e.act.giveBack(msg.ms)
			e.err = e.lang.Sprintf("Not submitted: %s", msg.err.Error()) + e.notApplied(false) + " " + e.lang.Sprintf("ctrl+s tries again; the draft is kept.")
			return s, nil
		}
		e.err = ""
		e.status = e.lang.Sprintf("Answer to %s submitted.", ui.SanitizeLine(s.task.QueryID))
		return s.finish()
	}
	// Answers to the editors' own commands (a clipboard paste).
	return s.edit(msg)
}

func (s *answerScreen) key(msg tea.KeyPressMsg) (ui.Child, tea.Cmd) {
	e := s.e
	k := e.keys
	switch {
	case keyIs(msg, k.Submit):
		return s, s.submit()
	case keyIs(msg, k.NextFocus):
		s.setFocus((s.focus + 1) % focusCount)
		return s, nil
	case keyIs(msg, k.PrevFocus):
		s.setFocus((s.focus + focusCount - 1) % focusCount)
		return s, nil
	case keyIs(msg, k.Leave):
		return s.leaveFor(leaveHome)
	case keyIs(msg, k.Later):
		return s.leaveFor(leaveNext)
	case keyIs(msg, k.Guide):
		field := schema.GoldAnswer
		if s.focus == focusCitations {
			field = schema.Citations
		}
		return newGuide(e, s, field)
	}
	if s.focus == focusDocument {
		k := e.keys
		switch {
		case keyIs(msg, k.Up):
			s.doc.Scroll(-1)
		case keyIs(msg, k.Down):
			s.doc.Scroll(1)
		case keyIs(msg, k.PageUp):
			s.doc.Page(-1)
		case keyIs(msg, k.PageDown):
			s.doc.Page(1)
		case keyIs(msg, k.Top):
			s.doc.Top()
		case keyIs(msg, k.Bottom):
			s.doc.Bottom()
		default:
			e.status = e.lang.Sprintf("The seed document is read only: tab goes back to the answer.")
		}
		return s, nil
	}
	return s.edit(msg)
}

// edit hands a key or a paste to the editor with the focus.
func (s *answerScreen) edit(msg tea.Msg) (ui.Child, tea.Cmd) {
	ed := s.answer
	switch s.focus {
	case focusCitations:
		ed = s.cites
	case focusDocument:
		if _, ok := msg.(tea.PasteMsg); ok {
			s.e.status = s.e.lang.Sprintf("Paste into the answer or the citations: tab moves there.")
		}
		return s, nil
	}
	cmd, changed := ed.Update(msg)
	if !changed {
		return s, cmd
	}
	s.dirty = true
	return s, tea.Batch(cmd, s.maybeSave())
}

func (s *answerScreen) setFocus(f int) {
	s.focus = f
	s.answer.Blur()
	s.cites.Blur()
	switch f {
	case focusAnswer:
		s.answer.Focus()
	case focusCitations:
		s.cites.Focus()
	}
}

// maybeSave writes the draft now if the last write is a second old, else
// asks for a tick when it will be; nothing while a write is in flight (its
// answer calls this again). The second is on the clock of throttles
// (env.elapsed), on which time passes even under ANNOTATE_NOW.
func (s *answerScreen) maybeSave() tea.Cmd {
	if !s.dirty || s.saving || s.submitting {
		return nil
	}
	wait := draftEvery - s.e.elapsed().Sub(s.lastSave)
	if wait <= 0 {
		return s.saveNow()
	}
	if s.tickPending || s.e.noTicks {
		return nil
	}
	s.tickPending = true
	item := s.d.ref.ItemID
	return tea.Tick(wait, func(time.Time) tea.Msg { return draftTickMsg{item: item} })
}

// saveNow starts writing the draft, with the active time gathered so far.
func (s *answerScreen) saveNow() tea.Cmd {
	s.saving, s.dirty = true, false
	s.lastSave = s.e.elapsed()
	return saveDraftCmd(s.e.store, s.e.annotator, s.d.ref.ItemID, s.answer.Value(), s.cites.Value(), s.e.act.take())
}

// check looks the citations up among the documents. With none typed there
// is nothing to look up: no round trip to the database (and no frame more)
// for every new item.
func (s *answerScreen) check() tea.Cmd {
	s.checkSeq++
	cites := s.citationLines()
	if len(cites) == 0 {
		s.checks = nil
		return nil
	}
	return checkCitationsCmd(s.e.store, s.d.ref.ItemID, s.checkSeq, cites)
}

// submit records the answer and its citations (after the draft write in
// flight, if any).
func (s *answerScreen) submit() tea.Cmd {
	e := s.e
	if strings.TrimSpace(s.answer.Value()) == "" {
		e.status = e.lang.Sprintf("The answer is empty: write it first (ctrl+s submits it).")
		return nil
	}
	if s.saving {
		s.submitNext = true
		return nil
	}
	s.submitting = true
	return submitAnswerCmd(e.store, store.Label{Annotator: e.annotator, ItemID: s.d.ref.ItemID, ActiveMs: e.act.take(),
		SessionID: e.session}, s.answer.Value(), s.citationLines())
}

// leaveFor goes home or to the next item once the draft is written.
func (s *answerScreen) leaveFor(to leaving) (ui.Child, tea.Cmd) {
	s.leave = to
	switch {
	case s.saving:
		return s, nil
	case s.dirty:
		return s, s.saveNow()
	}
	return s.left()
}

func (s *answerScreen) left() (ui.Child, tea.Cmd) {
	e := s.e
	to := s.leave
	s.leave = stay
	if s.draftErr != "" {
		e.err = e.lang.Sprintf("The draft could not be saved (%s): the screen stays. ctrl+s submits, or try again.", s.draftErr)
		return s, nil
	}
	if to == leaveHome {
		return e.goHome()
	}
	e.act.drop()
	if e.work != nil && !s.openedDone {
		e.work.noteSkipped(s.d.ref.ItemID)
	}
	e.status = e.lang.Sprintf("Skipped %s (it stays in the queue, with its draft).", ui.SanitizeLine(s.d.ref.ExtID))
	return e.advance()
}

// finish moves on after a submission, counting the item as done.
func (s *answerScreen) finish() (ui.Child, tea.Cmd) {
	return s.e.finishItem(s.d.ref.ItemID, s.openedDone)
}

// counts are the answer's words and characters.
func (s *answerScreen) counts() string {
	v := s.answer.Value()
	l := s.e.lang
	return l.Sprintf("%d words", len(strings.Fields(v))) + " · " + l.Sprintf("%d characters", utf8.RuneCountInString(v))
}

// draftLine says where the draft is.
func (s *answerScreen) draftLine() string {
	l := s.e.lang
	switch {
	case s.draftErr != "":
		return l.Sprintf("draft NOT saved: %s", s.draftErr)
	case s.saving:
		return l.Sprintf("saving the draft…")
	case s.dirty:
		return l.Sprintf("draft: typing…")
	case !s.savedAt.IsZero():
		return l.Sprintf("draft saved %s", s.savedAt.Local().Format("15:04:05"))
	}
	return ""
}

func (s *answerScreen) bindings() []key.Binding {
	k := s.e.keys
	out := []key.Binding{k.Submit, k.NextFocus, k.UndoTyping, k.Leave, k.Later, k.Guide}
	if s.answer.CanPaste() {
		out = append(out, k.Paste)
	}
	if s.focus == focusDocument {
		out = append(out, ui.With(s.e.keys.Up, "↑↓ pgup pgdn", s.e.lang.Sprintf("scroll")))
	}
	return out
}

func loadAnswerCmd(s *store.Store, annotator string, item int64) tea.Cmd {
	return func() tea.Msg {
		var scr *store.AnswerScreen
		err := s.Read(func(rx *store.ReadTx) (err error) {
			scr, err = rx.LoadAnswerScreen(annotator, item)
			return err
		})
		return answerLoadedMsg{item: item, scr: scr, err: err}
	}
}

func saveDraftCmd(s *store.Store, annotator string, item int64, answer, cites string, ms int64) tea.Cmd {
	return func() tea.Msg {
		err := s.SaveDraft(annotator, item, answer, cites, ms)
		return draftSavedMsg{item: item, at: wallclock.Now(), ms: ms, err: err}
	}
}

func checkCitationsCmd(s *store.Store, item int64, seq int, cites []string) tea.Cmd {
	return func() tea.Msg {
		checks, err := store.ReadWith(s, (*store.ReadTx).CheckCitations, cites)
		return citationsCheckedMsg{item: item, seq: seq, checks: checks, err: err}
	}
}

func submitAnswerCmd(s *store.Store, l store.Label, answer string, cites []string) tea.Cmd {
	return func() tea.Msg {
		err := s.SubmitAnswer(l.Annotator, l.ItemID, answer, cites, l.ActiveMs, l.SessionID)
		return answerSubmittedMsg{item: l.ItemID, ms: l.ActiveMs, err: err}
	}
}
