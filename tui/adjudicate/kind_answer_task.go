package adjudicate

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"

	"github.com/annotate-dev/annotate/adjudication"
	"github.com/annotate-dev/annotate/internal/clock"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// The review of gold answers (annotate review --kind answer_task): the lead
// walks the submitted answers, pending ones first in task order, and
// accepts each (y: it becomes the gold answer of its query, as it is now)
// or rejects it (n, then a digit for the reason: both are recorded
// together). u takes the last review back; ←/→ browse every answer, reviewed
// or not; tab scrolls the seed document. The lead's time is recorded in a
// session of its own, as the annotators' is, for the cost report.

// AnswerOptions configures the review of gold answers.
type AnswerOptions struct {
	Store *store.Store
	Lead  string
	Batch string // "" : every answer task
	Now   func() time.Time
	// AllowOwn (--allow-own): the lead may review an answer task in which
	// they gave a label (their own answer), recorded as such.
	AllowOwn bool
}

// AnswersModel is the gold-answer review, a screen of the one root model
// (package tui): the root gives it the styles and keys and shows the
// "please enlarge" screen when the terminal is too small.
type AnswersModel struct {
	o       AnswerOptions
	host    ui.Host
	st      ui.Styles
	keys    ui.KeyMap
	help    help.Model
	w, h    int
	session int64

	units   []store.AnswerUnit
	at      int
	loaded  bool
	detail  *answerDetail
	pane    ui.PaneState
	version int

	rejecting bool // n was pressed: the reason is asked
	saving    bool
	status    string
	err       string

	act ui.Activity // the active time of the next review
}

// answerDetail is what the screen shows of one unit beyond it.
type answerDetail struct {
	item   int64
	seed   *store.Document
	name   string
	checks []store.CitationCheck
}

// NewAnswers returns the gold-answer review under host, the root model.
func NewAnswers(o AnswerOptions, host ui.Host) *AnswersModel {
	if o.Now == nil {
		o.Now = clock.Now
	}
	m := &AnswersModel{o: o, host: host, keys: host.Keys().ForReview(), help: help.New(), act: ui.Activity{Now: o.Now}}
	m.act.Start()
	m.restyle()
	return m
}

// restyle takes the root's styles.
func (m *AnswersModel) restyle() {
	m.st = m.host.Styles()
	m.help.Styles = m.st.Help
	m.version++
}

// Init starts the session and loads the answers.
func (m *AnswersModel) Init() tea.Cmd {
	return tea.Batch(m.load(""), m.startSession())
}

// Title is the terminal window's title while the review is open.
func (m *AnswersModel) Title() string { return "annotate review — " + ui.SanitizeLine(m.o.Lead) }

// SetSize is the terminal's size.
func (m *AnswersModel) SetSize(w, h int) {
	m.w, m.h = w, h
	m.help.SetWidth(w)
}

type answersLoadedMsg struct {
	units []store.AnswerUnit
	focus string // the unit to show: "item/annotator", "" : the first pending
	err   error
}

type answerDetailMsg struct {
	d   *answerDetail
	err error
}

type answerReviewedMsg struct {
	key string
	ms  int64 // the active time it carried, given back when it failed
	err error
}

type answerUndoneMsg struct {
	evs []store.Event
	err error
}

type reviewSessionMsg struct {
	id  int64
	err error
}

func unitKeyOf(u store.AnswerUnit) string { return fmt.Sprint(u.ItemID, "/", u.Annotator) }

func (m *AnswersModel) startSession() tea.Cmd {
	s, lead := m.o.Store, m.o.Lead
	return func() tea.Msg {
		sess, err := s.StartSession(lead, "review")
		return reviewSessionMsg{id: sess.ID, err: err}
	}
}

// EndSession ends the review's session (Run calls it on exit).
func (m *AnswersModel) EndSession() error {
	if m.session == 0 {
		return nil
	}
	return m.o.Store.EndSession(m.session)
}

func (m *AnswersModel) load(focus string) tea.Cmd {
	s, batch, lead := m.o.Store, m.o.Batch, m.o.Lead
	return func() tea.Msg {
		units, err := s.AnswerUnitsOf(batch, lead)
		return answersLoadedMsg{units: units, focus: focus, err: err}
	}
}

func (m *AnswersModel) loadDetail(u store.AnswerUnit) tea.Cmd {
	s := m.o.Store
	return func() tea.Msg {
		d := &answerDetail{item: u.ItemID}
		scr, err := s.LoadAnswerScreen(u.Annotator, u.ItemID)
		if err != nil {
			return answerDetailMsg{err: err}
		}
		d.seed, d.name = scr.Seed, scr.SeedName
		d.checks, err = s.CheckCitations(u.Citations)
		return answerDetailMsg{d: d, err: err}
	}
}

func (m *AnswersModel) cur() *store.AnswerUnit {
	if m.at < 0 || m.at >= len(m.units) {
		return nil
	}
	return &m.units[m.at]
}

// pendingCount counts the answers waiting for a review.
func (m *AnswersModel) pendingCount() int {
	n := 0
	for _, u := range m.units {
		if u.Review == store.ReviewPending {
			n++
		}
	}
	return n
}

// Update handles a message.
func (m *AnswersModel) Update(msg tea.Msg) (ui.Child, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.BackgroundColorMsg, tea.EnvMsg: // the root has new styles
		m.restyle()
	case ui.NoticeMsg:
		m.status = string(msg)
	case reviewSessionMsg:
		if msg.err != nil {
			m.err = m.st.Lang.Sprintf("Could not start a session (the review's time is not recorded): %s", msg.err.Error())
		}
		m.session = msg.id
	case answersLoadedMsg:
		m.saving = false
		if msg.err != nil {
			m.err = msg.err.Error()
			return m, nil
		}
		m.units, m.loaded = msg.units, true
		m.at = -1
		for i, u := range m.units {
			if msg.focus != "" && unitKeyOf(u) == msg.focus {
				m.at = i
			}
		}
		if m.at < 0 {
			m.at = m.nextPending(0)
		}
		return m, m.show()
	case answerDetailMsg:
		if msg.err != nil {
			m.err = msg.err.Error()
			return m, nil
		}
		if u := m.cur(); u != nil && msg.d.item == u.ItemID {
			m.detail = msg.d
			m.version++
		}
	case answerReviewedMsg:
		if msg.err != nil {
			m.saving = false
			m.act.GiveBack(msg.ms)
			m.err = m.st.Lang.Sprintf("Not saved: %s", msg.err.Error())
			return m, nil
		}
		m.err = ""
		next := ""
		if i := m.nextPending(m.at + 1); i >= 0 && i != m.at {
			next = unitKeyOf(m.units[i])
		}
		return m, m.load(next)
	case answerUndoneMsg:
		if msg.err != nil {
			m.saving = false
			if errors.Is(msg.err, store.ErrNothingToUndo) {
				m.status = m.st.Lang.Sprintf("Nothing to undo.")
			} else {
				m.err = m.st.Lang.Sprintf("Undo failed: %s", msg.err.Error())
			}
			return m, nil
		}
		focus := ""
		if len(msg.evs) > 0 {
			for _, u := range m.units {
				if u.ItemID == msg.evs[0].ItemID {
					focus = unitKeyOf(u)
					break
				}
			}
			m.status = m.st.Lang.Sprintf("Undone: the review of %s.", ui.SanitizeLine(msg.evs[0].ItemExtID))
		}
		return m, m.load(focus)
	case tea.KeyPressMsg:
		m.act.Touch()
		return m, m.key(msg)
	}
	return m, nil
}

// nextPending is the first pending unit from i on (wrapping), else i
// clamped, -1 when there are none.
func (m *AnswersModel) nextPending(from int) int {
	n := len(m.units)
	if n == 0 {
		return -1
	}
	for k := 0; k < n; k++ {
		i := (from + k) % n
		if m.units[i].Review == store.ReviewPending {
			return i
		}
	}
	return min(max(from, 0), n-1)
}

// show loads the detail of the unit on screen.
func (m *AnswersModel) show() tea.Cmd {
	m.rejecting = false
	m.detail = nil
	m.pane.Reset()
	m.version++
	if u := m.cur(); u != nil {
		return m.loadDetail(*u)
	}
	return nil
}

func (m *AnswersModel) key(msg tea.KeyPressMsg) tea.Cmd {
	k, l := m.keys, m.st.Lang
	m.status = ""
	if keyIs(msg, k.Interrupt) || keyIs(msg, k.Quit) && !m.rejecting {
		return tea.Quit
	}
	if m.saving {
		m.status = l.Sprintf("Saving… a moment.")
		return nil
	}
	if m.pane.ScrollKey(k, msg) {
		return nil
	}
	u := m.cur()
	if u == nil {
		if m.loaded {
			m.status = l.Sprintf("No submitted answer to review yet.")
		}
		return nil
	}
	if m.rejecting {
		f, _ := schema.Lookup(schema.RejectReason)
		switch {
		case keyIs(msg, k.Close, k.Undo):
			m.rejecting = false
			m.status = l.Sprintf("Not rejected.")
		case keyIs(msg, k.Pick):
			i := int(msg.String()[0] - '1')
			if i < 0 || i >= len(f.Values) {
				m.status = l.Sprintf("%s: press 1-%d (esc: not rejected).", l.Field(schema.RejectReason), len(f.Values))
				return nil
			}
			return m.review(*u, false, f.Values[i])
		default:
			m.status = l.Sprintf("Why is it rejected? Press 1-%d (esc: not rejected).", len(f.Values))
		}
		return nil
	}
	own := u.Own && !m.o.AllowOwn && keyIs(msg, k.AcceptAnswer, k.RejectAnswer)
	switch {
	case own:
		m.status = (&adjudication.OwnError{Lead: m.o.Lead, Item: u.ExtID}).Error()
	case keyIs(msg, k.AcceptAnswer):
		return m.review(*u, true, "")
	case keyIs(msg, k.RejectAnswer):
		m.rejecting = true
	case keyIs(msg, k.Undo):
		m.saving = true
		s, lead := m.o.Store, m.o.Lead
		return func() tea.Msg {
			evs, err := s.UndoAdjudication(lead)
			return answerUndoneMsg{evs: evs, err: err}
		}
	case keyIs(msg, k.Next, k.Skip):
		if m.at+1 < len(m.units) {
			m.at++
			return m.show()
		}
		m.status = l.Sprintf("This is the last answer.")
	case keyIs(msg, k.Prev):
		if m.at > 0 {
			m.at--
			return m.show()
		}
		m.status = l.Sprintf("This is the first answer.")
	default:
		m.status = l.Sprintf("%s: y accepts, n rejects, ←/→ browse, u undoes, q quits.", msg.String())
	}
	return nil
}

// review records the lead's decision on the unit.
func (m *AnswersModel) review(u store.AnswerUnit, accept bool, reason string) tea.Cmd {
	m.saving, m.rejecting = true, false
	ms := m.act.Take()
	s, lead, session, allowOwn := m.o.Store, m.o.Lead, m.session, m.o.AllowOwn
	return func() tea.Msg {
		err := s.ReviewAnswer(lead, u.ItemID, u.Annotator, accept, reason, store.AnswerReviewOptions{ActiveMs: ms, Session: session, AllowOwn: allowOwn})
		return answerReviewedMsg{key: unitKeyOf(u), ms: ms, err: err}
	}
}

// View draws the screen (the root clamps it to the terminal and shows the
// "please enlarge" screen instead when it is too small).
func (m *AnswersModel) View() string {
	w, h, st := m.w, m.h, m.st
	if w <= 0 || h <= 0 {
		return ""
	}
	l := st.Lang
	bottom := []string{ui.StatusLine(st, m.err, m.status, map[bool]string{true: l.Sprintf("saving…")}[m.saving], w)}
	bottom = append(bottom, ui.HelpBar(&m.help, m.bindings(), w, 1)...)
	u := m.cur()
	header := ui.Header(st, []ui.Piece{{Text: l.Sprintf("Review gold answers")}, {Text: m.position()},
		{Text: l.Sprintf("%d pending", m.pendingCount()), Optional: true}}, m.o.Lead, w)
	if u == nil {
		msg := l.Sprintf("Loading…")
		if m.loaded {
			msg = l.Sprintf("No submitted answer to review yet: the experts write them with annotate --kind answer_task.")
		}
		lines := append([]string{header}, ui.Wrap(msg, w)...)
		return ui.ClampView(strings.Join(append(lines, bottom...), "\n"), w, h)
	}
	q := u.Task.Query
	top := ui.Labelled(st, l.Sprintf("Query"), ui.Data(q.Text), w, nil, nil)
	meta := []string{ui.SanitizeLine(u.ExtID), l.Sprintf("by %s", ui.SanitizeLine(u.Annotator))}
	for _, v := range []string{q.Persona, q.Jurisdiction} {
		if v != "" {
			meta = append(meta, ui.SanitizeLine(v))
		}
	}
	meta = append(meta, reviewState(l, *u))
	if u.Own && !m.o.AllowOwn {
		meta = append(meta, l.Sprintf("yours: another lead reviews it"))
	}
	top = append(top, st.Dim.Render(ui.Truncate(strings.Join(meta, " · "), w)))
	words := len(strings.Fields(u.Answer))
	rule := ui.Truncate("─ "+l.Sprintf("Answer")+" ("+l.Sprintf("%d words", words)+", "+l.Sprintf("%d characters", utf8.RuneCountInString(u.Answer))+") ", w)
	top = append(top, st.Rule.Render(rule+strings.Repeat("─", max(0, w-ui.TextWidth(rule)))))
	top = append(top, ui.Wrap(ui.Sanitize(u.Answer), w)...)
	top = append(top, m.citationLines(*u, w)...)
	f := ui.Frame{
		Header:    header,
		Top:       top,
		PaneTitle: l.Sprintf("Seed document"),
		Pane:      func(w int) []string { return m.seedLines(w) },
		PaneKey:   itoa(m.version),
		Card:      m.card(w),
		Bottom:    bottom,
	}
	return ui.ClampView(m.pane.Render(st, f, w, h), w, h)
}

func (m *AnswersModel) position() string {
	l := m.st.Lang
	if len(m.units) == 0 {
		return l.Sprintf("%d answers", 0)
	}
	return l.Sprintf("answer %d of %d", m.at+1, len(m.units))
}

func reviewState(l *lang.Printer, u store.AnswerUnit) string {
	switch u.Review {
	case store.ReviewAccepted:
		return l.Sprintf("accepted: the gold answer")
	case store.ReviewRejected:
		return l.Sprintf("rejected (%s)", l.Value(schema.RejectReason, u.Reason))
	case store.ReviewOther:
		return l.Sprintf("another answer is the gold one")
	}
	return l.Sprintf("pending")
}

// citationLines marks each citation known (✓) or unknown (?).
func (m *AnswersModel) citationLines(u store.AnswerUnit, w int) []string {
	st := m.st
	if len(u.Citations) == 0 {
		return []string{st.Dim.Render(ui.Truncate(st.Lang.Sprintf("Citations: none"), w))}
	}
	var parts []string
	for i, c := range u.Citations {
		mark := "· "
		if m.detail != nil && i < len(m.detail.checks) {
			mark = "? "
			if d := m.detail.checks[i].Document; d != "" {
				mark = "✓ "
				if d != c {
					c += " = " + d
				}
			}
		}
		parts = append(parts, mark+ui.SanitizeLine(c))
	}
	return ui.Wrap(st.Lang.Sprintf("Citations: %s", strings.Join(parts, "  ")), w)
}

func (m *AnswersModel) seedLines(w int) []string {
	d, l := m.detail, m.st.Lang
	switch {
	case d == nil:
		return []string{m.st.Dim.Render(l.Sprintf("Loading…"))}
	case d.seed == nil && d.name == "":
		return []string{m.st.Dim.Render(ui.Truncate(l.Sprintf("The query names no seed document."), w))}
	case d.seed == nil:
		return ui.Wrap(l.Sprintf("The seed document %s is not in the database.", ui.SanitizeLine(d.name)), w)
	}
	head := ui.SanitizeLine(d.seed.ID)
	for _, v := range []string{d.seed.Title, d.seed.Citation} {
		if v != "" {
			head += " · " + ui.SanitizeLine(v)
		}
	}
	return append(append(ui.Wrap(head, w), ""), ui.Wrap(ui.Sanitize(d.seed.Text), w)...)
}

func (m *AnswersModel) card(w int) []string {
	st, l := m.st, m.st.Lang
	bar := st.Card.Render("▌") + " "
	inner := max(1, w-2)
	head := func(field, question string) string {
		name := l.Field(field)
		return bar + st.Field.Render(name) + " " + st.Dim.Render(ui.Truncate(question, max(1, inner-ui.TextWidth(name)-1)))
	}
	if m.rejecting {
		f, _ := schema.Lookup(schema.RejectReason)
		var opts []string
		for i, v := range f.Values {
			opts = append(opts, st.Key.Render("["+itoa(i+1)+"]")+" "+st.Option.Render(l.Value(f.Name, v)))
		}
		return []string{head(schema.RejectReason, l.Sprintf("Why is it rejected? (esc: not rejected)")),
			bar + ui.TruncateStyled(strings.Join(opts, "   "), inner)}
	}
	return []string{head(schema.AnswerReview, l.Sprintf("Is this a gold answer to the query?")),
		bar + ui.TruncateStyled(st.Key.Render("[y/1]")+" "+st.Option.Render(l.Value(schema.AnswerReview, "accept"))+"   "+
			st.Key.Render("[n/2]")+" "+st.Option.Render(l.Value(schema.AnswerReview, "reject")), inner)}
}

func (m *AnswersModel) bindings() []key.Binding {
	k, l := m.keys, m.st.Lang
	if m.rejecting {
		return []key.Binding{ui.With(k.Pick, "1-4", l.Sprintf("reason")), ui.With(k.Close, "esc", l.Sprintf("not rejected"))}
	}
	return []key.Binding{ui.With(k.AcceptAnswer, "y", l.Sprintf("accept")), ui.With(k.RejectAnswer, "n", l.Sprintf("reject")), k.Undo,
		ui.With(k.Prev, "←/→", l.Sprintf("browse")), ui.With(k.Focus, "tab", l.Sprintf("document")), k.Quit}
}
