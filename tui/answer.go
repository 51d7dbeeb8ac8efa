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
	registerKind(kindView{
		kind: schema.KindAnswerTask, label: lang.Key("Answer"), queue: lang.Key("Answer tasks"), noun: lang.Key("answer"),
		top: func(st ui.Styles, d *itemData, _ step, w int) []string {
			return ui.Labelled(st, st.Lang.Sprintf("Query"), ui.Data(answerTaskOf(d).Query.Text), w, nil, nil)
		},
		pane:      func(ui.Styles, *itemData, step, int) []string { return nil },
		paneTitle: func(l *lang.Printer, _ *itemData, _ step) string { return l.Sprintf("Seed document") },
		screen: func(e *env, d *itemData, o origin) (ui.Child, tea.Cmd) {
			s := newAnswerScreen(e, d, o)
			return s, loadAnswerCmd(e.store, e.annotator, d.ref.ItemID)
		},
	})
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

// check looks the citations up among the documents.
func (s *answerScreen) check() tea.Cmd {
	s.checkSeq++
	return checkCitationsCmd(s.e.store, s.d.ref.ItemID, s.checkSeq, s.citationLines())
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

// View lays the screen out: header, query, then the editors beside the
// seed document (under it on a narrow terminal), status and help.
func (s *answerScreen) View() string {
	e, st, l := s.e, s.e.styles, s.e.lang
	w, h := s.w, s.h
	bottom := []string{e.statusLine(w, s.submitting, false)}
	bottom = append(bottom, e.helpBar(s.bindings(), w)...)
	q := s.task.Query
	top := ui.Labelled(st, l.Sprintf("Query"), ui.Data(q.Text), w, nil, nil)
	if room := max(2, h/5); len(top) > room {
		top = append(top[:room-1], st.Dim.Render(ui.Truncate(l.Sprintf("… (a long query: enlarge the terminal to read all of it)"), w)))
	}
	var meta []string
	for _, v := range []string{q.Persona, q.Jurisdiction, q.Issue} {
		if v != "" {
			meta = append(meta, ui.SanitizeLine(v))
		}
	}
	if q.SeedGroup != "" {
		meta = append(meta, l.Sprintf("variations %s", ui.SanitizeLine(q.SeedGroup)))
	}
	if len(meta) > 0 {
		top = append(top, st.Dim.Render(ui.Truncate(strings.Join(meta, " · "), w)))
	}
	body := max(6, h-1-len(top)-len(bottom))
	var lines []string
	if w >= 100 {
		lw := w * 3 / 5
		rw := w - lw - 1
		left := s.editors(lw, body)
		right := s.document(rw, body)
		sep := st.Rule.Render("│")
		for i := 0; i < body; i++ {
			l := ui.TruncateStyled(left[i], lw)
			lines = append(lines, l+strings.Repeat(" ", max(0, lw-ui.Width(l)))+sep+ui.TruncateStyled(right[i], rw))
		}
	} else {
		docH := max(3, body/3)
		lines = append(s.editors(w, body-docH), s.document(w, docH)...)
	}
	out := []string{s.header(w)}
	out = append(out, top...)
	out = append(out, lines...)
	out = append(out, bottom...)
	return strings.Join(out, "\n")
}

// editors draws the answer and citations editors in w×h.
func (s *answerScreen) editors(w, h int) []string {
	st := s.e.styles
	citeH := min(5, max(1, h/4))
	ansH := max(1, h-citeH-2)
	title := func(name, right string, focus bool) string {
		t := "─ " + name + " "
		if focus {
			t = "▶ " + name + " "
		}
		r := " " + right + " "
		pad := max(0, w-ui.TextWidth(t)-ui.TextWidth(r))
		line := ui.Truncate(t+strings.Repeat("─", pad)+r, w)
		if focus {
			return st.Focus.Render(line)
		}
		return st.Rule.Render(line)
	}
	s.answer.SetSize(w, ansH)
	s.cites.SetSize(w, citeH)
	right := s.counts()
	if d := s.draftLine(); d != "" {
		right = d + " · " + right
	}
	l := s.e.lang
	out := []string{title(l.Sprintf("Answer"), right, s.focus == focusAnswer)}
	out = append(out, fit(strings.Split(s.answer.View(), "\n"), ansH)...)
	known, unknown := 0, 0
	for _, c := range s.checks {
		if c.Document != "" {
			known++
		} else if c.Text != "" {
			unknown++
		}
	}
	out = append(out, title(l.Sprintf("Citations"), l.Sprintf("✓ %d known · ? %d unknown (kept as written)", known, unknown), s.focus == focusCitations))
	out = append(out, fit(strings.Split(s.cites.View(), "\n"), citeH)...)
	return fit(out, h)
}

// document draws the seed document pane in w×h.
func (s *answerScreen) document(w, h int) []string {
	st, l := s.e.styles, s.e.lang
	key := itoa(w) + "/" + itoa(s.e.styleGen) + "/" + boolKey(s.loaded)
	if key != s.docKey {
		s.docKey = key
		var lines []string
		switch {
		case !s.loaded:
			lines = []string{st.Dim.Render(l.Sprintf("Loading…"))}
		case s.seed == nil && s.seedName == "":
			lines = []string{st.Dim.Render(ui.Truncate(l.Sprintf("The query names no seed document."), w))}
		case s.seed == nil:
			lines = ui.Wrap(l.Sprintf("The seed document %s is not in the database.", ui.SanitizeLine(s.seedName)), w)
		default:
			d := s.seed
			head := ui.SanitizeLine(d.ID)
			for _, v := range []string{d.Title, d.Citation, d.Court} {
				if v != "" {
					head += " · " + ui.SanitizeLine(v)
				}
			}
			lines = append(lines, ui.Wrap(head, w)...)
			lines = append(lines, "")
			lines = append(lines, ui.Wrap(ui.Sanitize(d.Text), w)...)
		}
		s.doc.SetLines(lines)
	}
	s.doc.SetHeight(h - 1)
	out := []string{ui.PaneTitle(st, l.Sprintf("Seed document"), s.focus == focusDocument, s.doc.Percent(), s.doc.Scrollable(), w)}
	return append(out, s.doc.View()...)
}

func boolKey(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// fit pads or cuts lines to exactly h.
func fit(lines []string, h int) []string {
	if len(lines) > h {
		return lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return lines
}

func (s *answerScreen) header(w int) string {
	e, l := s.e, s.e.lang
	pieces := []ui.Piece{{Text: l.Sprintf("Answer") + " " + s.d.ref.ExtID}}
	if wk := e.work; wk != nil {
		if wk.batch != "" {
			pieces = append(pieces, ui.Piece{Text: l.Sprintf("batch %s", wk.batch), Optional: true})
		}
		if wk.counted && s.d.ref.Kind == wk.kind {
			if p, ok := wk.pos[s.d.ref.ItemID]; ok {
				pieces = append(pieces, ui.Piece{Text: l.Sprintf("item %d of %d", p, wk.total)})
			}
			pieces = append(pieces, ui.Piece{Text: ui.Bar(wk.done, wk.total, 10) + " " + ui.Percent(l, wk.done, wk.total), Optional: true})
		}
	}
	if s.openedDone {
		pieces = append(pieces, ui.Piece{Text: l.Sprintf("submitted before: ctrl+s submits again"), Optional: true})
	}
	return ui.Header(e.styles, pieces, l.Sprintf("session %s", clock(e.act.session())), w)
}

// --- messages and commands ---

type answerLoadedMsg struct {
	item int64
	scr  *store.AnswerScreen
	err  error
}

type draftTickMsg struct{ item int64 }

type draftSavedMsg struct {
	item int64
	at   time.Time
	ms   int64
	err  error
}

type citationsCheckedMsg struct {
	item   int64
	seq    int
	checks []store.CitationCheck
	err    error
}

type answerSubmittedMsg struct {
	item int64
	ms   int64
	err  error
}

func loadAnswerCmd(s *store.Store, annotator string, item int64) tea.Cmd {
	return func() tea.Msg {
		scr, err := s.LoadAnswerScreen(annotator, item)
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
		checks, err := s.CheckCitations(cites)
		return citationsCheckedMsg{item: item, seq: seq, checks: checks, err: err}
	}
}

func submitAnswerCmd(s *store.Store, l store.Label, answer string, cites []string) tea.Cmd {
	return func() tea.Msg {
		err := s.SubmitAnswer(l.Annotator, l.ItemID, answer, cites, l.ActiveMs, l.SessionID)
		return answerSubmittedMsg{item: l.ItemID, ms: l.ActiveMs, err: err}
	}
}
