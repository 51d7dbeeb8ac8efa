// Package review is the lead's review TUI (`annotate review`: the lead
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
// As in package tui, screens are ui.Child values, styles and keys are
// passed down, and Update never does I/O: every store call is a tea.Cmd in
// cmds.go whose typed message the root routes to the screen that asked.
package review

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/store"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// Options configures the review TUI.
type Options struct {
	Store *store.Store
	Lead  string            // who adjudicates (--as)
	Query store.ReviewQuery // the annotators compared, field, batch
	// System view: the system and the expert label sets it can compare
	// against (e cycles through them), the first one shown first.
	System  string
	Experts []store.LabelSet
	// StartSystem opens the system view first.
	StartSystem bool
	// Now is the clock of the active time (nil: time.Now).
	Now func() time.Time
}

// Below this size the screens ask to be enlarged (as package tui does).
const (
	minWidth  = 40
	minHeight = 12
)

// env is the state every screen shares.
type env struct {
	store   *store.Store
	lead    string
	query   store.ReviewQuery
	system  string
	experts []store.LabelSet
	expert  int

	styles      ui.Styles
	dark, plain bool
	keys        ui.KeyMap
	help        help.Model
	w, h        int
	status, err string
	seq         int
	styleGen    int // bumped with the styles: rendered panes are stale
	showHelp    bool
	// ignored names the last key ignored while the help hid the item;
	// hiddenKeys counts the keys ignored while the terminal was too small.
	ignored    string
	hiddenKeys int

	adj    *adjScreen
	cells  *cellsScreen
	walker *walkerScreen

	// The review's session and active time, as an annotation screen's:
	// every key press counts the gap since the previous one (capped), and
	// the time gathered goes with the next adjudication or acceptance.
	session    int64
	sessionErr error
	act        ui.Activity
}

func (e *env) nextSeq() int { e.seq++; return e.seq }

// tooSmall reports whether the terminal is known and too small to show a screen.
func (e *env) tooSmall() bool {
	return e.w > 0 && e.h > 0 && (e.w < minWidth || e.h < minHeight)
}

func (e *env) setStyles() {
	e.styles = ui.NewStyles(e.dark, e.plain)
	e.styleGen++
	e.help.Styles = e.styles.Help
}

// ok clears the error line after a successful action.
func (e *env) ok(status string) { e.err, e.status = "", status }

// fail shows an error until the next successful action.
func (e *env) fail(err error) { e.err = err.Error() }

// Model is the root model.
type Model struct {
	e     *env
	cur   ui.Child
	start tea.Cmd
}

// New returns the root model.
func New(o Options) *Model {
	if o.System == "" {
		o.System = "refchecker"
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	e := &env{store: o.Store, lead: o.Lead, query: o.Query, system: o.System, experts: o.Experts,
		dark: true, plain: os.Getenv("NO_COLOR") != "", keys: reviewKeys(), help: help.New(), act: ui.Activity{Now: o.Now}}
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

// Init asks for the terminal's background, opens the review's session and
// loads the first view.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(tea.RequestBackgroundColor, startSessionCmd(m.e.store, m.e.lead), m.start)
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
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	e := m.e
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		was := e.tooSmall()
		e.w, e.h = msg.Width, msg.Height
		if n := e.hiddenKeys; was && !e.tooSmall() && n > 0 {
			e.hiddenKeys = 0
			e.status = ui.Plural(n, "key") + " typed while the terminal was too small ignored: the screen was hidden."
		}
		m.cur.SetSize(msg.Width, msg.Height)
		return m, nil
	case tea.BackgroundColorMsg:
		e.dark = msg.IsDark()
		e.setStyles()
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
		e.applyLead(msg.item, msg.err, "Note saved.", func(d *store.ReviewDetail) { setLeadNote(d, msg.field, msg.text) })
		return m, nil
	case flagSavedMsg:
		status := "Flag removed."
		if msg.flagged {
			status = "Flagged for discussion."
		}
		e.applyLead(msg.item, msg.err, status, func(d *store.ReviewDetail) { d.LeadFlagged = msg.flagged })
		return m, nil
	case sessionMsg:
		e.session, e.sessionErr = msg.id, msg.err
		if msg.err != nil {
			e.fail(fmt.Errorf("could not start a session (the review's time is not recorded): %w", msg.err))
		}
		return m, nil
	case tea.KeyPressMsg:
		e.act.Touch()
		e.status = ""
		if msg.String() == "ctrl+c" {
			return m, tea.Quit
		}
		// No key acts on an item the screen does not show (q still leaves).
		if e.tooSmall() && !keyIs(msg, e.keys.Quit) {
			e.hiddenKeys++
			return m, nil
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
			return m, nil
		}
	}
	var cmd tea.Cmd
	m.cur, cmd = m.cur.Update(msg)
	m.cur.SetSize(e.w, e.h)
	return m, cmd
}

// setLeadNote records a committed note of the lead on one field of the
// item shown: the notes are per field, LeadNote joins them (as the store's
// ItemNote: one a line, in the order of the fields' names).
func setLeadNote(d *store.ReviewDetail, field, text string) {
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
func (e *env) applyLead(item int64, err error, status string, set func(*store.ReviewDetail)) {
	if err != nil {
		e.fail(err)
		return
	}
	e.ok(status)
	for _, d := range []*store.ReviewDetail{e.adjDetail(), e.walkerDetail()} {
		if d != nil && d.ItemID == item {
			set(d)
		}
	}
}

func (e *env) adjDetail() *store.ReviewDetail {
	if e.adj == nil {
		return nil
	}
	return e.adj.detail
}

func (e *env) walkerDetail() *store.ReviewDetail {
	if e.walker == nil {
		return nil
	}
	return e.walker.detail
}

// View renders the current screen, never wider or taller than the terminal.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.WindowTitle = "annotate review — " + ui.SanitizeLine(m.e.lead)
	return v
}

func (m *Model) render() string {
	e := m.e
	if e.w <= 0 || e.h <= 0 {
		return ""
	}
	if e.tooSmall() {
		msg := fmt.Sprintf("The terminal is %d×%d. Please enlarge it to at least %d×%d.", e.w, e.h, minWidth, minHeight)
		if n := e.hiddenKeys; n > 0 {
			msg = ui.Plural(n, "key") + " ignored: the screen is hidden. " + msg
		}
		return ui.ClampView(strings.Join(ui.Wrap(msg, e.w), "\n"), e.w, e.h)
	}
	if e.showHelp {
		lines := append([]string{e.styles.Title.Render("Review keys"), ""}, e.fullHelp(e.w)...)
		foot := e.styles.Dim.Render(ui.Truncate("? or esc closes", e.w))
		if e.ignored != "" {
			foot = e.styles.Warn.Render(ui.Truncate(e.ignored+" ignored while the help is open · ? or esc closes", e.w))
		}
		lines = append(lines, "", foot)
		for len(lines) < e.h {
			lines = append(lines, "")
		}
		return ui.ClampView(strings.Join(lines, "\n"), e.w, e.h)
	}
	return ui.ClampView(m.cur.View(), e.w, e.h)
}

// Run runs the review TUI until the lead quits (or ctx ends).
func Run(ctx context.Context, o Options, progOpts ...tea.ProgramOption) error {
	if o.Store == nil {
		return errors.New("review: no store")
	}
	if o.Lead == "" {
		return errors.New("review: no adjudicator name (use --as NAME)")
	}
	m := New(o)
	p := tea.NewProgram(m, append([]tea.ProgramOption{tea.WithContext(ctx), ui.FramePacing()}, progOpts...)...)
	_, err := p.Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		err = nil
	}
	if endErr := m.EndSession(); endErr != nil && err == nil {
		err = endErr
	}
	return err
}

// keyIs matches a key press against bindings.
func keyIs(msg tea.KeyPressMsg, b ...key.Binding) bool { return key.Matches(msg, b...) }

// reviewKeys is the one KeyMap of every screen, with the help the review
// screens give some keys: a digit picks the final label, ? lists every key,
// q quits.
func reviewKeys() ui.KeyMap {
	k := ui.DefaultKeyMap()
	k.Pick = ui.With(k.Pick, "1-9", "final label")
	k.Help = ui.With(k.Help, "?", "all keys")
	k.Quit = ui.With(k.Quit, "q", "quit")
	return k
}

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
