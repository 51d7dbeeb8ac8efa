// Package tui is the annotation TUI of annotate (DESIGN.md "People", "TUI
// keys"): a home screen with the annotator's queues and batches, a QA screen,
// a claim screen with the missed-claims step, the guidelines one key away,
// notes, flags, skip, go-to and undo.
//
// One root Model holds the current screen, a Child. Screens, overlays and
// inputs are Children: Update returns the Child to show next (itself, another
// screen, or the screen under a closing overlay), so moving between screens is
// just returning another Child. State every screen needs (the store, the
// annotator, the session, styles, keys, the size, the queue being worked
// through) lives in one env shared by pointer.
//
// Update never does I/O: every store call is a tea.Cmd (cmds.go) whose typed
// message comes back to Update. A decision is shown as made only once its
// labelSavedMsg has come back, i.e. once the store has committed it.
package tui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/annotate-dev/annotate/store"
)

// Options configures the TUI.
type Options struct {
	Store        *store.Store
	Annotator    string
	Batch        string        // "": none
	Kind         string        // "qa" | "claim" | "" (home screen)
	Client       string        // "local", "ssh", "demo" (recorded on the session)
	SessionLimit time.Duration // break reminder after this much active time (default 2h)
	Now          func() time.Time
	SessionID    int64 // a session the caller started (and ends); 0: the TUI starts one
}

// Child is a screen, an overlay or an input. Update returns the Child to
// show from now on.
type Child interface {
	Update(msg tea.Msg) (Child, tea.Cmd)
	View() string
	SetSize(w, h int)
}

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

	styles      Styles
	dark, plain bool
	keys        KeyMap
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
	styleGen    int               // bumped when the styles change (cached renderings are redone)
}

func (e *env) nextSeq() int { e.seq++; return e.seq }

func (e *env) setStyles() {
	e.styleGen++
	e.styles = NewStyles(e.dark, e.plain)
	e.help.Styles = e.styles.Help
}

// Model is the root model of the TUI.
type Model struct {
	e     *env
	cur   Child
	start tea.Cmd // what Init starts besides the session
	// Ended is set once the program asked to quit.
	quitting bool
}

// New returns the root model.
func New(opt Options) *Model {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.SessionLimit == 0 {
		opt.SessionLimit = 2 * time.Hour
	}
	if opt.Client == "" {
		opt.Client = "local"
	}
	e := &env{
		store: opt.Store, annotator: opt.Annotator, client: opt.Client, limit: opt.SessionLimit, now: opt.Now,
		dark: true, plain: os.Getenv("NO_COLOR") != "",
		keys: DefaultKeyMap(), help: help.New(), guides: map[string]string{},
	}
	e.act.now = opt.Now
	e.session = opt.SessionID
	e.nextBreak = opt.SessionLimit
	e.setStyles()
	m := &Model{e: e}
	switch {
	case opt.Kind != "":
		m.cur, m.start = e.startWork(opt.Kind, opt.Batch)
	case opt.Batch != "":
		m.cur = newLoading(e, store.ItemRef{}, "Opening batch "+sanitizeLine(opt.Batch)+"…")
		m.start = batchKindCmd(e.store, opt.Batch)
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

// Update handles a message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	e := m.e
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		e.w, e.h = msg.Width, msg.Height
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
			e.err = "Could not start a session: " + msg.err.Error()
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
	case queueFetchedMsg, queueCountMsg:
		if e.work != nil {
			cmds = append(cmds, e.work.handle(e, msg))
		}
	case itemLoadedMsg:
		if e.work != nil {
			e.work.loaded(msg)
		}
	case tea.KeyPressMsg:
		e.act.touch()
		// A new key clears the status line; an error stays until the next
		// successful action.
		e.status = ""
	case tea.QuitMsg:
		m.quitting = true
	}
	var cmd tea.Cmd
	m.cur, cmd = m.cur.Update(msg)
	cmds = append(cmds, cmd)
	if _, ok := msg.(tea.KeyPressMsg); ok && e.work != nil && breakDue(&e.act, e.nextBreak) {
		if _, already := m.cur.(*breakScreen); !already {
			m.cur = newBreak(e, m.cur)
			m.cur.SetSize(e.w, e.h)
		}
	}
	return m, tea.Batch(cmds...)
}

// View renders the current screen, never wider or taller than the terminal.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.WindowTitle = "annotate — " + sanitizeLine(m.e.annotator)
	return v
}

func (m *Model) render() string {
	e := m.e
	if e.w <= 0 || e.h <= 0 {
		return ""
	}
	if e.w < minWidth || e.h < minHeight {
		return clampView(tooSmall(e), e.w, e.h)
	}
	return clampView(m.cur.View(), e.w, e.h)
}

func tooSmall(e *env) string {
	msg := fmt.Sprintf("The terminal is %d×%d. Please enlarge it to at least %d×%d. Nothing is lost.", e.w, e.h, minWidth, minHeight)
	return strings.Join(wrap(msg, e.w), "\n")
}

// clampView cuts a rendering to w×h cells: a last safety net, the screens
// lay themselves out to fit.
func clampView(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		if len(l) > w && ansi.StringWidth(l) > w { // a line is never wider than its bytes
			lines[i] = ansi.Truncate(l, w, "")
		}
	}
	return strings.Join(lines, "\n")
}

func lookupEnv(env []string, k string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, k+"="); ok {
			return v
		}
	}
	return ""
}

// Run runs the TUI until the annotator quits (or ctx ends) and then ends the
// session.
func Run(ctx context.Context, opt Options, progOpts ...tea.ProgramOption) error {
	if opt.Store == nil {
		return errors.New("tui: no store")
	}
	if opt.Annotator == "" {
		return errors.New("tui: no annotator name (use --as NAME)")
	}
	if opt.Kind != "" && opt.Kind != "qa" && opt.Kind != "claim" {
		return fmt.Errorf("tui: kind %q: must be qa or claim", opt.Kind)
	}
	m := New(opt)
	// The session starts before the program, so that it is ended however
	// soon the annotator quits.
	sess, err := opt.Store.StartSession(opt.Annotator, m.e.client)
	if err != nil {
		return err
	}
	m.e.session = sess.ID
	p := tea.NewProgram(m, append([]tea.ProgramOption{tea.WithContext(ctx)}, progOpts...)...)
	_, err = p.Run()
	if id := m.e.session; id != 0 {
		if endErr := opt.Store.EndSession(id); endErr != nil && err == nil {
			err = endErr
		}
	}
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		err = nil // the context ended the program: a normal end (e.g. SSH disconnect)
	}
	return err
}
