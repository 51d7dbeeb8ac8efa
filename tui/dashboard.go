package tui

import (
	"context"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/report"
	"github.com/annotate-dev/annotate/store"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// The lead's dashboard (annotate dashboard): read-only panels drawn from
// one report.Dashboard per refresh, read again every dashboardEvery (and on
// r) so that labels show as they arrive. tab, shift+tab and the arrows move
// the focus between panels; enter asks the root for the focused panel's
// detail (dashboardDetailMsg). The panels are drawn in dashboard_panels.go.

// dashboardEvery is how often the dashboard reads the database again: the
// lead sees a label within this time of its commit.
const dashboardEvery = 3 * time.Second

// dashboardMsg is a refresh read; seq matches it to the read asked.
type dashboardMsg struct {
	seq int
	rep *report.DashboardReport
	err error
}

// dashboardTickMsg asks for the next refresh.
type dashboardTickMsg struct{}

// dashboardDetailMsg asks the root for the detail screen of a panel.
type dashboardDetailMsg struct {
	panel dashPanel
	rep   *report.DashboardReport
}

// dashboardReviewMsg asks the root to open review on a panel's
// disagreements.
type dashboardReviewMsg struct {
	req ReviewRequest
}

// ReviewRequest is the review a dashboard panel opens: the adjudication of
// one field's disagreements, or (System) the system view of the expert's
// labels (Expert; Adjudicated) against the system's.
type ReviewRequest struct {
	Field       string
	System      string
	Expert      string
	Adjudicated bool
}

// reviewOf is the review a panel opens on enter: the annotator ×
// annotator heatmap its field's disagreements, the expert × system heatmap
// the system view; nil for the other panels (they open their detail).
func reviewOf(p dashPanel, r *report.DashboardReport) *ReviewRequest {
	switch p {
	case panelPairs:
		if r.Agreement == nil {
			return nil
		}
		if field, pair := busiestPair(r.Agreement); pair != nil && disagrees(pair) {
			return &ReviewRequest{Field: field}
		}
	case panelSystem:
		if v := systemVerification(r); v != nil && v.N > 0 {
			return &ReviewRequest{System: r.Metrics.System, Expert: r.Metrics.Annotator, Adjudicated: r.Metrics.Adjudicated}
		}
	}
	return nil
}

// loadDashboard is one refresh: one store read (a snapshot), once no
// import is in progress (it shows an import whole or not at all).
// prev, the report on show, lets an unchanged state keep its reports.
func loadDashboard(s *store.Store, now time.Time, seq int, prev *report.DashboardReport) tea.Cmd {
	return func() tea.Msg {
		if err := s.WaitForWriters(context.Background(), nil); err != nil {
			return dashboardMsg{seq: seq, err: err}
		}
		rep, err := report.Dashboard(s, now, prev)
		return dashboardMsg{seq: seq, rep: rep, err: err}
	}
}

type dashboardScreen struct {
	e       *env
	w, h    int
	rep     *report.DashboardReport
	err     string
	loading bool // a read is on its way
	seq     int  // of the read on its way
	focus   dashPanel
	cols    int // panel columns of the last layout (the arrows move along it)
	// openReview prepares a heatmap's review (Dashboard); nil: review is
	// not served here.
	openReview ReviewOpener
}

func newDashboard(e *env) *dashboardScreen { return &dashboardScreen{e: e, w: e.w, h: e.h} }

// refresh starts a read unless one is on its way.
func (d *dashboardScreen) refresh() tea.Cmd {
	if d.loading {
		return nil
	}
	d.loading = true
	d.seq = d.e.nextSeq()
	return loadDashboard(d.e.store, d.e.now(), d.seq, d.rep)
}

func (d *dashboardScreen) SetSize(w, h int) { d.w, d.h = w, h }

func (d *dashboardScreen) Update(msg tea.Msg) (ui.Child, tea.Cmd) {
	switch msg := msg.(type) {
	case dashboardMsg:
		if msg.seq != d.seq {
			return d, nil
		}
		d.loading = false
		if msg.err != nil {
			d.err = "Could not read the database: " + msg.err.Error()
		} else {
			d.rep, d.err = msg.rep, ""
		}
		if d.e.noTicks {
			return d, nil
		}
		return d, tea.Tick(dashboardEvery, func(time.Time) tea.Msg { return dashboardTickMsg{} })
	case dashboardTickMsg:
		return d, d.refresh()
	case tea.KeyPressMsg:
		return d.key(msg)
	}
	return d, nil
}

func (d *dashboardScreen) key(msg tea.KeyPressMsg) (ui.Child, tea.Cmd) {
	k := d.e.keys
	n := dashPanel(len(dashPanels))
	cols := max(1, d.cols)
	switch {
	case ui.Is(msg, k.Quit):
		return d, tea.Quit
	case ui.Is(msg, k.Refresh):
		return d, d.refresh()
	case ui.Is(msg, k.Focus):
		d.focus = (d.focus + 1) % n
	case ui.Is(msg, k.PrevFocus):
		d.focus = (d.focus + n - 1) % n
	case ui.Is(msg, k.Next):
		d.focus = min(n-1, d.focus+1)
	case ui.Is(msg, k.Prev):
		d.focus = max(0, d.focus-1)
	case ui.Is(msg, k.Down):
		if d.focus+dashPanel(cols) < n {
			d.focus += dashPanel(cols)
		}
	case ui.Is(msg, k.Up):
		if d.focus >= dashPanel(cols) {
			d.focus -= dashPanel(cols)
		}
	case ui.Is(msg, k.Accept):
		if d.rep == nil {
			return d, nil
		}
		if req := reviewOf(d.focus, d.rep); req != nil {
			m := dashboardReviewMsg{*req}
			return d, func() tea.Msg { return m }
		}
		m := dashboardDetailMsg{panel: d.focus, rep: d.rep}
		return d, func() tea.Msg { return m }
	}
	return d, nil
}

func (d *dashboardScreen) bindings() []key.Binding {
	k := d.e.keys
	return []key.Binding{ui.With(k.Focus, "tab", "next panel"), ui.With(k.Accept, "enter", "detail"), k.Refresh, ui.With(k.Quit, "q", "quit")}
}

func (d *dashboardScreen) View() string {
	e, st := d.e, d.e.styles
	w := d.w
	bottom := append([]string{d.statusLine(w)}, e.helpBar(d.bindings(), w)...)
	room := max(0, d.h-len(bottom)-1)
	title := "annotate dashboard · " + ui.SanitizeLine(e.annotator)
	if d.rep != nil {
		title += " · " + d.rep.Taken.Format("15:04:05")
	}
	lines := []string{st.Title.Render(ui.Truncate(title, w))}
	switch {
	case d.rep == nil && d.err != "":
		lines = append(lines, ui.Message(st, d.err, w, true)...)
	case d.rep == nil:
		lines = append(lines, st.Dim.Render(ui.Truncate("Reading the database…", w)))
	default:
		lines = append(lines, d.panels(w, room)...)
	}
	for len(lines) < room+1 {
		lines = append(lines, "")
	}
	lines = append(lines[:room+1], bottom...)
	return strings.Join(lines, "\n")
}

// statusLine says when the last read failed (the panels keep the one
// before), what the last key did, and when a read is on its way.
func (d *dashboardScreen) statusLine(w int) string {
	st := d.e.styles
	switch {
	case d.err != "" && d.rep != nil:
		return st.Error.Render(ui.Truncate("✗ "+ui.SanitizeLine(d.err), w))
	case d.e.status != "":
		return st.Status.Render(ui.Truncate(d.e.status, w))
	case d.loading && d.rep != nil:
		return st.Dim.Render(ui.Truncate("refreshing…", w))
	}
	return st.Dim.Render(ui.Truncate("read-only · refreshes every "+dashboardEvery.String(), w))
}

// panels lays the panels out in a grid of as many columns as fit (each at
// least dashColumn wide) and draws each in its cell. When the cells would be
// too short to show anything, every panel gets its title line (with a
// summary) and the focused one the rest of the room.
func (d *dashboardScreen) panels(w, h int) []string {
	n := len(dashPanels)
	cols := max(1, min(3, w/dashColumn))
	rows := (n + cols - 1) / cols
	if h/rows < 4 {
		d.cols = 1
		return d.accordion(w, h)
	}
	d.cols = cols
	cellW := (w - (cols - 1)) / cols
	cellH := h / rows
	var out []string
	for r := range rows {
		cells := make([][]string, cols)
		for c := range cols {
			i := r*cols + c
			if i >= n {
				cells[c] = nil
				continue
			}
			p := dashPanel(i)
			cells[c] = append([]string{d.panelTitle(p, cellW)}, fitLines(d.panelLines(p, cellW, cellH-1), cellH-1, d.e.styles)...)
		}
		for l := range cellH {
			var line strings.Builder
			for c := range cols {
				if c > 0 {
					line.WriteString(" ")
				}
				s := ""
				if l < len(cells[c]) {
					s = cells[c][l]
				}
				line.WriteString(padStyled(s, cellW))
			}
			out = append(out, line.String())
		}
	}
	return out
}

// accordion is the layout of a small terminal: one title line a panel, the
// focused panel's lines under its title.
func (d *dashboardScreen) accordion(w, h int) []string {
	n := len(dashPanels)
	body := max(0, h-n)
	var out []string
	for i := range n {
		p := dashPanel(i)
		out = append(out, d.panelTitle(p, w))
		if p == d.focus && body > 0 {
			out = append(out, fitLines(d.panelLines(p, w, body), body, d.e.styles)...)
		}
	}
	return out
}

// dashColumn is the narrowest a panel column is drawn.
const dashColumn = 58

// panelTitle is a panel's rule: its name and summary; the focused panel's
// is highlighted and marked ▶ (readable without colour).
func (d *dashboardScreen) panelTitle(p dashPanel, w int) string {
	st := d.e.styles
	t := dashPanels[p].name
	if s := d.summary(p); s != "" {
		t += " · " + s
	}
	if p == d.focus {
		t = ui.Truncate("▶ "+t+" ", w)
		return st.Focus.Render(t + strings.Repeat(" ", max(0, w-ui.TextWidth(t))))
	}
	t = ui.Truncate("─ "+t+" ", w)
	return st.Rule.Render(t + strings.Repeat("─", max(0, w-ui.TextWidth(t))))
}

// fitLines cuts a panel's lines to h, saying how many were left out.
func fitLines(lines []string, h int, st ui.Styles) []string {
	if len(lines) <= h {
		return lines
	}
	if h <= 0 {
		return nil
	}
	more := len(lines) - h + 1
	return append(lines[:h-1], st.Dim.Render("… "+itoa(more)+" more: enter"))
}

// padStyled pads (or cuts) a styled line to exactly w cells.
func padStyled(s string, w int) string {
	s = ui.TruncateStyled(s, w)
	return s + strings.Repeat(" ", max(0, w-ui.Width(s)))
}
