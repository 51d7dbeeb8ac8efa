// Package adjudicate is the lead's review TUI (`annotate review`: the lead
// adjudicates disagreements; docs/keys.md): two views over one root
// model.
//
//   - Adjudication walks the (item, field)s where the chosen annotators
//     disagree, field by field in schema order, showing each annotator's
//     label and note, the item and its context; a digit stores the final
//     label as the lead's adjudication (store.RecordLabel with Adjudicate),
//     u takes the last one back, A accepts every agreement at once.
//   - The system view lists the off-diagonal cells of the expert-versus-
//     system confusion matrix (e.g. expert contradiction, RefChecker
//     entailment) and walks the claims of a cell one by one, read-only
//     except for the lead's flag and note.
//
// Model is not a program of its own: it is a screen (a ui.Child) of the one
// root model of package tui, which starts on it for `annotate review` and
// gives it the styles (background, NO_COLOR), the key map and the chrome
// (the size, the "please enlarge" screen) every screen shares. Inside it,
// the views are ui.Child values too, and Update never does I/O: every store
// call is a tea.Cmd in cmds.go whose typed message Model routes to the
// view that asked.
package adjudicate

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/store"

	"github.com/annotate-dev/annotate/internal/clock"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// Options configures the review TUI.
type Options struct {
	Store *store.Store
	Lead  string                  // who adjudicates (--as)
	Query store.AdjudicationQuery // the annotators compared, field, batch
	// System view: the system and the expert label sets it can compare
	// against (e cycles through them), the first one shown first.
	System  string
	Experts []store.LabelSet
	// StartSystem opens the system view first.
	StartSystem bool
	// AllowOwn (--allow-own): the lead may decide the units in which they
	// gave a label, recorded as such; without it such a unit is shown and
	// its decision refused, with the reason.
	AllowOwn bool
	// Now is the clock of the active time (nil: clock.Now).
	Now func() time.Time
	// Back, when set, is what q and esc at the review's top run instead
	// of ending the program: the review was opened from another screen
	// (the dashboard) and goes back to it.
	Back tea.Cmd
}

// env is the state every screen shares.
type env struct {
	store   *store.Store
	lead    string
	query   store.AdjudicationQuery
	system  string
	experts []store.LabelSet
	expert  int
	// allowOwn: Options.AllowOwn.
	allowOwn bool

	host        ui.Host // the root: styles and keys
	styles      ui.Styles
	keys        ui.KeyMap
	help        help.Model
	w, h        int
	status, err string
	seq         int
	styleGen    int // bumped with the styles: rendered panes are stale
	showHelp    bool
	guides      string // the guidelines in force, read when the help opens
	// ignored names the last key ignored while the help hid the item.
	ignored string

	adj    *adjScreen
	cells  *cellsScreen
	walker *walkerScreen

	// The review's session and active time, as an annotation screen's:
	// every key press counts the gap since the previous one (capped), and
	// the time gathered goes with the next adjudication or acceptance.
	session    int64
	sessionErr error
	act        ui.Activity

	back tea.Cmd // Options.Back
}

func (e *env) nextSeq() int { e.seq++; return e.seq }

// setStyles takes the root's styles (on a new background or colour
// setting): the rendered panes are stale.
func (e *env) setStyles() {
	e.styles = e.host.Styles()
	e.styleGen++
	e.help.Styles = e.styles.Help
}

// ok clears the error line after a successful action.
func (e *env) ok(status string) { e.err, e.status = "", status }

// say is the language of the screens (the root's, in its styles).
func (e *env) say() *lang.Printer { return e.styles.Lang }

// fail shows an error until the next successful action.
func (e *env) fail(err error) { e.err = err.Error() }

// Model is the review screen the root hosts: it holds the adjudication and
// system views and routes the store's answers to the view that asked.
type Model struct {
	e     *env
	cur   ui.Child
	start tea.Cmd
}

// New returns the review screen under host, the root model.
func New(o Options, host ui.Host) *Model {
	if o.System == "" {
		o.System = "refchecker"
	}
	if o.Now == nil {
		o.Now = clock.Now
	}
	o.Query.Lead = o.Lead // the lead's own units are marked
	e := &env{store: o.Store, lead: o.Lead, query: o.Query, system: o.System, experts: o.Experts, allowOwn: o.AllowOwn,
		host: host, keys: host.Keys().ForReview(), help: help.New(), act: ui.Activity{Now: o.Now}, back: o.Back}
	if e.back != nil {
		e.keys.Quit = ui.With(e.keys.Quit, "q/esc", e.keys.Lang().Sprintf("dashboard"))
	}
	e.act.Start()
	e.setStyles()
	m := &Model{e: e}
	if o.StartSystem {
		m.cur, m.start = e.systemView()
	} else {
		m.cur, m.start = e.adjudication()
	}
	return m
}

// adjudication returns the adjudication screen, created on first use and
// reloaded on every visit: the other view may have been away long enough
// for others to label or adjudicate.
func (e *env) adjudication() (ui.Child, tea.Cmd) {
	if e.adj == nil {
		e.adj = newAdjScreen(e)
	}
	return e.adj, e.adj.reload(e.adj.curKey(), e.adj.rev == nil)
}

// systemView returns the cell list, created on first use and reloaded on
// every visit (adjudications change the adjudicated expert labels).
func (e *env) systemView() (ui.Child, tea.Cmd) {
	if e.cells == nil {
		e.cells = newCellsScreen(e)
	}
	return e.cells, e.cells.reload()
}

// Init opens the review's session and loads the first view.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(startSessionCmd(m.e.store, m.e.lead), m.start)
}

// Title is the terminal window's title while the review is open.
func (m *Model) Title() string { return "annotate review — " + ui.SanitizeLine(m.e.lead) }

// SetSize is the terminal's size.
func (m *Model) SetSize(w, h int) {
	m.e.w, m.e.h = w, h
	m.e.help.SetWidth(w)
	m.cur.SetSize(w, h)
}

// SessionID is the review's session (0 before it is open).
func (m *Model) SessionID() int64 { return m.e.session }

// EndSession ends the review's session (Run calls it on exit).
func (m *Model) EndSession() error {
	if m.e.session == 0 {
		return nil
	}
	return m.e.store.EndSession(m.e.session)
}

// Update routes a message: answers of the store go to the screen that
// asked, whatever is on screen now; keys go to the current screen.
func (m *Model) Update(msg tea.Msg) (ui.Child, tea.Cmd) {
	e := m.e
	switch msg := msg.(type) {
	case tea.WindowSizeMsg: // the root has called SetSize
		return m, nil
	case tea.BackgroundColorMsg, tea.EnvMsg: // the root has new styles
		e.setStyles()
		return m, nil
	case ui.NoticeMsg:
		e.status = string(msg)
		return m, nil
	case reviewLoadedMsg, adjudicatedMsg, undoneMsg, acceptedMsg:
		if e.adj != nil {
			return m, e.adj.handle(msg)
		}
		return m, nil
	case systemLoadedMsg:
		if e.cells != nil {
			return m, e.cells.handle(msg)
		}
		return m, nil
	case detailMsg:
		if msg.walker && e.walker != nil {
			e.walker.loaded(msg)
		} else if !msg.walker && e.adj != nil {
			e.adj.loaded(msg)
		}
		return m, nil
	case noteSavedMsg:
		e.applyLead(msg.item, msg.err, e.say().Sprintf("Note saved."), func(d *store.AdjudicationDetail) { setLeadNote(d, msg.field, msg.text) })
		return m, nil
	case flagSavedMsg:
		status := e.say().Sprintf("Flag removed.")
		if msg.flagged {
			status = e.say().Sprintf("Flagged for discussion.")
		}
		e.applyLead(msg.item, msg.err, status, func(d *store.AdjudicationDetail) { d.LeadFlagged = msg.flagged })
		return m, nil
	case sessionMsg:
		e.session, e.sessionErr = msg.id, msg.err
		if msg.err != nil {
			e.fail(errors.New(e.say().Sprintf("could not start a session (the review's time is not recorded): %s", msg.err.Error())))
		}
		return m, nil
	case guideVersionsMsg:
		e.guides = guidelinesInForce(e.say(), msg)
		return m, nil
	case tea.KeyPressMsg:
		e.act.Touch()
		e.status = ""
		if keyIs(msg, e.keys.Interrupt) {
			return m, tea.Quit
		}
		if e.showHelp {
			e.showHelp = !keyIs(msg, e.keys.Help, e.keys.Close, e.keys.Quit)
			e.ignored = ""
			if e.showHelp {
				e.ignored = ui.SanitizeLine(msg.String())
			}
			return m, nil
		}
		if _, typing := m.cur.(*noteInput); !typing && keyIs(msg, e.keys.Help) {
			e.showHelp, e.ignored = true, ""
			return m, loadGuideVersionsCmd(e.store)
		}
		if e.back != nil && m.atTop() && keyIs(msg, e.keys.Quit, e.keys.Close) {
			return m, e.back
		}
	}
	var cmd tea.Cmd
	m.cur, cmd = m.cur.Update(msg)
	m.cur.SetSize(e.w, e.h)
	return m, cmd
}

// atTop reports whether the view on screen is one of the review's two
// top views, with no question pending: there q leaves the review (deeper,
// q and esc go back up a level).
func (m *Model) atTop() bool {
	switch c := m.cur.(type) {
	case *adjScreen:
		return !c.confirm
	case *cellsScreen:
		return true
	}
	return false
}

// setLeadNote records a committed note of the lead on one field of the
// item shown: the notes are per field, LeadNote joins them (as the store's
// ItemNote: one a line, in the order of the fields' names).
func setLeadNote(d *store.AdjudicationDetail, field, text string) {
	if d.LeadNotes == nil {
		d.LeadNotes = map[string]string{}
	}
	if text == "" {
		delete(d.LeadNotes, field)
	} else {
		d.LeadNotes[field] = text
	}
	var lines []string
	for _, f := range slices.Sorted(maps.Keys(d.LeadNotes)) {
		lines = append(lines, d.LeadNotes[f])
	}
	d.LeadNote = strings.Join(lines, "\n")
}

// applyLead shows a committed note or flag of the lead on the screens
// showing the item.
func (e *env) applyLead(item int64, err error, status string, set func(*store.AdjudicationDetail)) {
	if err != nil {
		e.fail(err)
		return
	}
	e.ok(status)
	for _, d := range []*store.AdjudicationDetail{e.adjDetail(), e.walkerDetail()} {
		if d != nil && d.ItemID == item {
			set(d)
		}
	}
}

func (e *env) adjDetail() *store.AdjudicationDetail {
	if e.adj == nil {
		return nil
	}
	return e.adj.detail
}

func (e *env) walkerDetail() *store.AdjudicationDetail {
	if e.walker == nil {
		return nil
	}
	return e.walker.detail
}

// View renders the current view (the root clamps it to the terminal and
// shows the "please enlarge" screen instead when it is too small).
func (m *Model) View() string {
	e := m.e
	if e.w <= 0 || e.h <= 0 {
		return ""
	}
	if e.showHelp {
		l := e.say()
		lines := append([]string{e.styles.Title.Render(l.Sprintf("Review keys")), ""}, e.fullHelp(e.w)...)
		if e.guides != "" {
			lines = append(lines, "", e.styles.Dim.Render(ui.Truncate(e.guides, e.w)))
		}
		foot := e.styles.Dim.Render(ui.Truncate(l.Sprintf("? or esc closes"), e.w))
		if e.ignored != "" {
			foot = e.styles.Warn.Render(ui.Truncate(l.Sprintf("%s ignored while the help is open · ? or esc closes", e.ignored), e.w))
		}
		lines = append(lines, "", foot)
		for len(lines) < e.h {
			lines = append(lines, "")
		}
		return ui.ClampView(strings.Join(lines, "\n"), e.w, e.h)
	}
	return ui.ClampView(m.cur.View(), e.w, e.h)
}

// keyIs matches a key press against bindings.
func keyIs(msg tea.KeyPressMsg, b ...key.Binding) bool { return key.Matches(msg, b...) }

// bottom renders the status line (error first) and the help bar.
func (e *env) bottom(b []key.Binding, w int) []string {
	lines := 2
	if e.h < 16 {
		lines = 1
	}
	return append([]string{ui.StatusLine(e.styles, e.err, e.status, "", w)}, ui.HelpBar(&e.help, b, w, lines)...)
}

// fullHelp renders every key, for the ? overlay.
func (e *env) fullHelp(w int) []string { return ui.FullHelp(&e.help, e.keys.ReviewHelp(), w) }
