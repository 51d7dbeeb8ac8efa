// Package tui is the one program of annotate's screens (docs/keys.md): the
// annotation screens (a home screen with the annotator's queues and
// batches, a QA screen, a claim screen with the missed-claims step, the
// guidelines one key away, notes, flags, skip, go-to and undo) and, as
// start screens (Options.Start, start.go), the lead's review and the review
// of gold answers of package tui/adjudicate.
//
// One root Model holds the current screen, a ui.Child. Screens, overlays and
// inputs are Children: Update returns the ui.Child to show next (itself, another
// screen, or the screen under a closing overlay), so moving between screens is
// just returning another ui.Child. State every screen needs (the store, the
// annotator, the session, styles, keys, the size, the queue being worked
// through) lives in one env shared by pointer. The widgets, the key map and
// the styles are those of every screen of annotate (tui/internal/ui); each
// kind of item registers its screen from its own file (kinds.go, kind_qa.go,
// kind_claim.go); the annotation of an item is a pure state machine (step.go).
//
// Update never does I/O: every store call is a tea.Cmd (cmds.go) whose typed
// message comes back to Update. A decision is shown as made only once its
// write has come back, i.e. once the store has committed it; decisions
// typed before then wait in order, shown as not saved yet (decisions.go),
// and keys that must wait wait in order at the root (typeahead.go).
package tui

import (
	"io"
	"os"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/store"

	wallclock "github.com/annotate-dev/annotate/internal/clock"
	"github.com/annotate-dev/annotate/tui/adjudicate"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// Options configures the TUI.
type Options struct {
	Store        *store.Store
	Annotator    string
	Batch        string        // "": none
	Kind         string        // a kind of Kinds() to open its queue; "": the home screen
	Client       string        // "local", "ssh", "demo" (recorded on the session)
	SessionLimit time.Duration // break reminder after this much active time (default 2h)
	Now          func() time.Time
	// Terminal is what Run draws on (default: the program's output); its
	// window title is saved before and restored after (SaveTitle,
	// RestoreTitle). nil: the title is not touched.
	Terminal  io.Writer
	SessionID int64 // a session the caller started (and ends); 0: the TUI starts one
	// ClaimsLater keeps an answer's claims in the claim queue rather than
	// bringing them next when the answer is judged correct.
	ClaimsLater bool
	// Notices is where Run says, before the screen opens, that it waits for
	// another process's write (default: standard error).
	Notices io.Writer
	// NewAnnotator: the annotator did not exist before this screen (its
	// session creates it); home says so, so that a typo shows.
	NewAnnotator bool
	// Start is the screen to start on instead of home or a queue (Review,
	// AnswerReview); Annotator is then the lead. Such a screen owns its
	// session, if it has one.
	Start Screen
	// Suggest names a system whose predictions are preselected (enter
	// accepts them); each label made so records it (store.Label.SuggestedBy).
	// "": blind, the default.
	Suggest string
	// Lang is the language the screens speak, "en" or "fr" (internal/lang
	// chooses it: the flag, the annotator's preference, the config file,
	// the locale); "" is English.
	Lang string
}

// SaveTitle and RestoreTitle push the terminal's window title on its title
// stack and pop it back (xterm window operations 22 and 23, which tmux,
// VTE, kitty, iTerm2 and xterm honour). The screens set the title to
// "annotate — NAME" and Bubble Tea blanks it on exit: restoring gives the
// annotator back the title they had.
const (
	SaveTitle    = "\x1b[22;0t"
	RestoreTitle = "\x1b[23;0t"
)

// Minimum size below which the TUI asks to be enlarged.
const (
	minWidth  = 40
	minHeight = 12
)

// env is the state shared by every screen.
type env struct {
	store     *store.Store
	annotator string
	client    string
	limit     time.Duration
	now       func() time.Time
	// elapsed is the clock of throttles: real time passes on it (New).
	elapsed func() time.Time

	styles      ui.Styles
	lang        *lang.Printer // the language of every screen (Options.Lang)
	dark, plain bool
	keys        ui.KeyMap
	help        help.Model
	w, h        int
	session     int64
	act         activity
	nextBreak   time.Duration // session active time at which the break reminder shows
	seq         int
	work        *work // the queue being worked through; nil on home
	status, err string
	noTicks     bool              // tests: no timers
	guides      map[string]string // rendered guidelines by field/width/style
	rendering   map[string]bool   // guidelines being rendered, by the same key
	styleGen    int               // bumped when the styles change (cached renderings are redone)
	ahead       typeahead         // keys waiting for the screen (typeahead.go)
	going       bool              // a go-to is on its way: keys wait for the item
	// The queue last worked in during this session: home's enter continues it.
	lastKind, lastBatch string
	saves               int  // saves started, to match a saveSlowMsg to its save
	claimsLater         bool // Options.ClaimsLater
	// hiddenKeys counts the keys ignored while the terminal was too small
	// to show the item (Model.hiddenKey).
	hiddenKeys int
	suggest    string // Options.Suggest
	// interrupted: ctrl+c was pressed while decisions waited (the next one
	// leaves without them).
	interrupted bool
	dec         decisionQueue // decisions typed and not written yet (decisions.go)
	// unrecorded are the actions since the last decision that the store
	// does not record (the items skipped, the optional fields passed),
	// latest last: u takes the last one back before it undoes a decision.
	unrecorded []unrecorded
}

// unrecorded is an action the store does not record: an item skipped
// (field ""), or an optional field of the item passed.
type unrecorded struct {
	d     *itemData
	field string
}

// tooSmall reports whether the terminal is known and too small to show a
// screen: the "please enlarge" message is shown instead.
func (e *env) tooSmall() bool {
	return e.w > 0 && e.h > 0 && (e.w < minWidth || e.h < minHeight)
}

// sized reports whether the terminal's size is known.
func (e *env) sized() bool { return e.w > 0 && e.h > 0 }

func (e *env) nextSeq() int { e.seq++; return e.seq }

func (e *env) setStyles() {
	e.styleGen++
	e.styles = ui.NewStyles(e.dark, e.plain)
	e.styles.Lang = e.lang
	e.help.Styles = e.styles.Help
}

// Model is the root model of the TUI, the one of every screen: annotation,
// review and answer review alike.
type Model struct {
	e     *env
	cur   ui.Child
	start tea.Cmd // what Init starts besides the session
	// startScreen is Options.Start (nil: annotation); its child is kept to
	// end its session.
	startScreen Screen
	started     ui.Child
	// Ended is set once the program asked to quit.
	quitting bool
	hosted   *hostedReview     // the review opened from the dashboard, on screen
	late     *adjudicate.Model // a review closed before its session was recorded
}

// New returns the root model.
func New(opt Options) *Model {
	// Throttles (a draft written at most once a second) need time that
	// passes: the real clock's, even when ANNOTATE_NOW fixes the one the
	// program records and shows; a test's clock drives both.
	elapsed := opt.Now
	if opt.Now == nil {
		opt.Now, elapsed = wallclock.Now, time.Now
	}
	if opt.SessionLimit == 0 {
		opt.SessionLimit = 2 * time.Hour
	}
	if opt.Client == "" {
		opt.Client = "local"
	}
	l := lang.New(opt.Lang)
	e := &env{
		store: opt.Store, annotator: opt.Annotator, client: opt.Client, limit: opt.SessionLimit, now: opt.Now, elapsed: elapsed,
		dark: true, plain: os.Getenv("NO_COLOR") != "", lang: l,
		keys: ui.KeyMapIn(l), help: help.New(), guides: map[string]string{}, rendering: map[string]bool{},
		claimsLater: opt.ClaimsLater, suggest: opt.Suggest,
	}
	e.act.now = opt.Now
	e.session = opt.SessionID
	e.nextBreak = opt.SessionLimit
	if opt.NewAnnotator {
		e.status = l.Sprintf("new annotator %s", ui.SanitizeLine(opt.Annotator))
	}
	e.setStyles()
	m := &Model{e: e, startScreen: opt.Start}
	switch {
	case opt.Start != nil:
		m.cur, m.start = opt.Start.open(e)
		m.started = m.cur
	case opt.Kind != "":
		m.cur, m.start = e.startWork(opt.Kind, opt.Batch)
	case opt.Batch != "":
		m.cur = newLoading(e, store.ItemRef{}, l.Sprintf("Opening batch %s…", ui.SanitizeLine(opt.Batch)))
		m.start = batchKindCmd(e.store, l, opt.Batch)
	default:
		h := newHome(e)
		m.cur, m.start = h, h.refresh()
	}
	return m
}

// Init starts the session, asks the terminal for its background colour and
// loads the first screen's data.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, m.start}
	if m.startScreen != nil { // it starts its own session; no break reminder
		return tea.Batch(cmds...)
	}
	if m.e.session == 0 {
		cmds = append(cmds, startSessionCmd(m.e.store, m.e.annotator, m.e.client))
	}
	if !m.e.noTicks {
		cmds = append(cmds, tick())
	}
	return tea.Batch(cmds...)
}

// SessionID is the id of the session the TUI recorded (0 before it started).
func (m *Model) SessionID() int64 { return m.e.session }

// EndSession ends the session of the start screen (Options.Start), if it
// owns one; Run calls it when the program ends.
func (m *Model) EndSession() error {
	err := m.endHosted()
	if s, ok := m.started.(sessionEnder); ok {
		if endErr := s.EndSession(); endErr != nil {
			err = endErr
		}
	}
	return err
}

// Update handles a message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	e := m.e
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		was := e.tooSmall()
		e.w, e.h = msg.Width, msg.Height
		if was && !e.tooSmall() && e.hiddenKeys > 0 {
			n := e.hiddenKeys
			e.hiddenKeys = 0
			e.status = e.lang.Sprintf("%d keys typed while the terminal was too small were ignored: the screen was hidden.", n)
			cmds = append(cmds, notice(e.status)) // for a screen with a status line of its own
		}
		e.help.SetWidth(msg.Width)
		m.cur.SetSize(msg.Width, msg.Height)
		// Overlays re-render for the new width too.
	case tea.BackgroundColorMsg:
		e.dark = msg.IsDark()
		e.setStyles()
	case tea.EnvMsg:
		if v := tea.EnvMsg(msg); len(v) > 0 {
			e.plain = lookupEnv(v, "NO_COLOR") != ""
			e.setStyles()
		}
	case sessionStartedMsg:
		if msg.err != nil {
			e.err = e.lang.Sprintf("Could not start a session: %s", msg.err.Error())
		}
		e.session = msg.id
		return m, nil
	case tickMsg:
		if !e.noTicks {
			cmds = append(cmds, tick())
		}
	case batchKindMsg:
		if msg.err != nil {
			h := newHome(e)
			h.SetSize(e.w, e.h)
			e.err = msg.err.Error()
			m.cur = h
			return m, h.refresh()
		}
		var cmd tea.Cmd
		m.cur, cmd = e.startWork(msg.kind, msg.batch)
		m.cur.SetSize(e.w, e.h)
		return m, cmd
	case queueFetchedMsg, queueCountMsg, positionMsg:
		if e.work != nil {
			cmds = append(cmds, e.work.handle(e, msg))
		}
	case guideRenderedMsg: // kept whichever screen is up, so that it is rendered once
		e.guides[msg.key] = msg.text
		delete(e.rendering, msg.key)
	case dashboardReviewMsg:
		return m, m.openReview(msg)
	case reviewReadyMsg:
		return m, m.reviewReady(msg)
	case reviewClosedMsg:
		return m, m.closeReview()
	case reviewEndedMsg:
		if msg.err != nil {
			e.status = e.lang.Sprintf("Could not record the end of the review's session: %s", msg.err.Error())
		}
		return m, nil
	case dashboardMsg, dashboardTickMsg:
		if h := m.hosted; h != nil { // the dashboard's reads go on under review
			if _, read := msg.(dashboardMsg); read {
				h.dash.Update(msg) // its next tick waits for the dashboard's return
			}
			return m, nil
		}
	case dashboardDetailMsg:
		if d, ok := m.cur.(*dashboardScreen); ok {
			m.cur = newDashDetail(e, d, msg)
		}
		return m, nil
	case opDoneMsg:
		dm, cmd := e.opDone(msg)
		cmds = append(cmds, cmd)
		var next tea.Cmd
		m.cur, next = m.cur.Update(dm) // the item on show moves on, or is rebuilt
		if len(e.ahead.keys) == 0 {
			m.breakIfDue() // due while the decisions waited
		}
		return m, tea.Batch(append(cmds, next, m.drain())...)
	case opRetryMsg:
		return m, e.retryOp(msg)
	case holderMsg:
		if msg.seq == e.dec.seq {
			e.dec.holder = msg.holder
		}
		return m, nil
	case saveSlowMsg:
		cmds = append(cmds, e.slowOp(msg))
	case gotoLoadedMsg:
		e.going = false
	case itemLoadedMsg:
		if e.work != nil {
			e.work.loaded(msg)
		}
	case tea.KeyPressMsg:
		e.act.touch()
		if cmd, hidden := m.hiddenKey(msg); hidden {
			return m, cmd
		}
		if cmd, waits := m.typedAhead(msg); waits {
			return m, cmd
		}
		return m, m.key(msg)
	case tea.MouseWheelMsg:
		return m, m.wheel(msg)
	case tea.MouseClickMsg:
		return m.click(msg)
	case tea.QuitMsg:
		m.quitting = true
	}
	if m.late != nil {
		cmds = append(cmds, m.lateSession(msg))
	}
	var cmd tea.Cmd
	m.cur, cmd = m.cur.Update(msg)
	cmds = append(cmds, cmd, m.drain())
	return m, tea.Batch(cmds...)
}

// typedAhead queues a key while the screen waits or keys wait before it
// (typeahead.go); it reports whether it took the key. ctrl+c never waits:
// it is the way out of a database that does not answer; the keys waiting
// are then not applied, and the status line says so.
func (m *Model) typedAhead(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	e := m.e
	if !keyIs(msg, e.keys.Interrupt) {
		e.interrupted = false
	}
	if !m.waits(msg) && len(e.ahead.keys) == 0 {
		e.ahead.refused = 0 // typing to an idle screen again
		return nil, false
	}
	if keyIs(msg, e.keys.Interrupt) && m.decisionsWait() {
		// Leaving now loses the decisions waiting: the second ctrl+c in a
		// row does it, and Run names them.
		if e.interrupted {
			return tea.Quit, true
		}
		e.interrupted = true
		n := e.dec.waiting()
		e.status = e.lang.Sprintf("%d decisions not saved yet, waiting for the database: ctrl+c again leaves without them.", n)
		return nil, true
	}
	if keyIs(msg, e.keys.Interrupt) {
		n := e.ahead.drop()
		e.going = false
		cmd := m.apply(msg)
		if n > 0 {
			e.status = e.lang.Sprintf("Left: %d keys typed ahead were not applied.", n)
		}
		return cmd, true
	}
	if !e.ahead.push(msg) {
		return bell(), true
	}
	return nil, true
}

// hiddenKey ignores a key while the terminal is too small to show the
// screen: no key acts on an item the annotator cannot see. q and ctrl+c
// still leave (nothing is lost); every other key is counted, and the
// "please enlarge" message, then the status line once the screen is back,
// say how many were ignored. It reports whether it took the key.
func (m *Model) hiddenKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	e := m.e
	if !e.tooSmall() {
		return nil, false
	}
	if keyIs(msg, e.keys.Quit) {
		n := e.ahead.drop()
		e.going = false
		cmd := m.apply(msg)
		if n > 0 {
			e.status = e.lang.Sprintf("Left: %d keys typed ahead were not applied.", n)
		}
		return cmd, true
	}
	e.hiddenKeys++
	return nil, true
}

// busy reports whether the screen cannot take a key now: it waits for a
// save or a load, a go-to is on its way, or the terminal's size is not
// known yet or too small to show the screen (keys typed at launch wait for
// the first frame; keys that waited are applied once the screen shows).
func (m *Model) busy() bool {
	return m.e.going || !m.e.sized() || m.e.tooSmall() || isBusy(m.cur)
}

// waits reports whether a key must wait: the screen is busy, or it takes
// only some keys for now (an item screen whose decisions wait: decisions.go).
func (m *Model) waits(k tea.KeyPressMsg) bool {
	if kw, ok := m.cur.(keyWaiter); ok && !(m.e.going || !m.e.sized() || m.e.tooSmall()) {
		return kw.waitsFor(k)
	}
	return m.busy()
}

// key hands a key press to the screen, then the keys that waited for it.
func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	cmd := m.apply(msg)
	return tea.Batch(cmd, m.drain())
}

// apply hands one key press to the screen; a new key clears the status
// line (an error stays until the next successful action). The break
// reminder shows after a key once no key waits.
func (m *Model) apply(msg tea.KeyPressMsg) tea.Cmd {
	e := m.e
	e.status = ""
	var cmd tea.Cmd
	m.cur, cmd = m.cur.Update(msg)
	m.breakIfDue()
	return cmd
}

// breakIfDue shows the break reminder once it is due and nothing waits
// (keys, or decisions for the database: the reminder says all is saved).
func (m *Model) breakIfDue() {
	e := m.e
	if e.work != nil && len(e.ahead.keys) == 0 && !m.decisionsWait() && breakDue(&e.act, e.nextBreak) {
		if _, already := m.cur.(*breakScreen); !already {
			m.cur = newBreak(e, m.cur)
			m.cur.SetSize(e.w, e.h)
		}
	}
}

// drain applies the keys that waited, in order, while the screen takes them.
func (m *Model) drain() tea.Cmd {
	var cmds []tea.Cmd
	for len(m.e.ahead.keys) > 0 && !m.waits(m.e.ahead.keys[0]) {
		cmds = append(cmds, m.apply(m.e.ahead.pop()))
	}
	return tea.Batch(cmds...)
}

// View renders the current screen, never wider or taller than the terminal.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion // the wheel and clicks (mouse.go)
	v.WindowTitle = "annotate — " + ui.SanitizeLine(m.e.annotator)
	if t, ok := m.cur.(titled); ok {
		v.WindowTitle = t.Title()
	}
	return v
}

func (m *Model) render() string {
	e := m.e
	if e.w <= 0 || e.h <= 0 {
		return ""
	}
	if e.tooSmall() {
		return ui.ClampView(tooSmall(e), e.w, e.h)
	}
	return ui.ClampView(m.cur.View(), e.w, e.h)
}

// tooSmall is the screen shown instead of one that does not fit; it says
// how many keys were ignored meanwhile (first: the lines that do not fit
// are cut).
func tooSmall(e *env) string {
	msg := e.lang.Sprintf("The terminal is %d×%d. Please enlarge it to at least %d×%d. Nothing is lost.", e.w, e.h, minWidth, minHeight)
	if n := e.hiddenKeys; n > 0 {
		msg = e.lang.Sprintf("%d keys ignored: the screen is hidden.", n) + " " + msg
	}
	return strings.Join(ui.Wrap(msg, e.w), "\n")
}

func lookupEnv(env []string, k string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, k+"="); ok {
			return v
		}
	}
	return ""
}
