package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/report"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// dashDetail is a dashboard panel's detail: the text the matching command
// prints, scrollable, redrawn as the dashboard under it refreshes. esc (or
// q) goes back to the dashboard.
type dashDetail struct {
	e     *env
	back  *dashboardScreen
	panel dashPanel
	title string
	rep   *report.DashboardReport
	pane  ui.Pane
	w, h  int
}

func newDashDetail(e *env, back *dashboardScreen, msg dashboardDetailMsg) *dashDetail {
	d := &dashDetail{e: e, back: back, panel: msg.panel, w: e.w, h: e.h}
	d.show(msg.rep)
	d.SetSize(e.w, e.h)
	return d
}

// show takes a refresh's report: the detail shows the latest state.
func (d *dashDetail) show(rep *report.DashboardReport) {
	d.rep = rep
	title, text := detailText(d.panel, rep)
	d.title = title
	d.pane.SetLines(strings.Split(strings.TrimRight(ui.Sanitize(text), "\n"), "\n"))
}

func (d *dashDetail) SetSize(w, h int) {
	d.w, d.h = w, h
	d.back.SetSize(w, h)
	d.pane.SetHeight(h - 2 - len(d.e.helpBar(d.bindings(), w)))
}

func (d *dashDetail) Update(msg tea.Msg) (ui.Child, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		// Refreshes go on under the detail.
		_, cmd := d.back.Update(msg)
		if d.back.rep != d.rep && d.back.rep != nil {
			d.show(d.back.rep)
		}
		return d, cmd
	}
	k := d.e.keys
	switch {
	case ui.Is(km, k.Close, k.Quit):
		return d.back, nil
	case ui.Is(km, k.Refresh):
		return d, d.back.refresh()
	case ui.Is(km, k.Up):
		d.pane.Scroll(-1)
	case ui.Is(km, k.Down):
		d.pane.Scroll(1)
	case ui.Is(km, k.PageUp):
		d.pane.Page(-1)
	case ui.Is(km, k.PageDown):
		d.pane.Page(1)
	case ui.Is(km, k.Top):
		d.pane.Top()
	case ui.Is(km, k.Bottom):
		d.pane.Bottom()
	}
	return d, nil
}

func (d *dashDetail) bindings() []key.Binding {
	k := d.e.keys
	return []key.Binding{k.Up, k.Down, k.PageDown, ui.With(k.Close, "esc", "back"), k.Refresh}
}

func (d *dashDetail) View() string {
	st, w := d.e.styles, d.w
	lines := []string{ui.PaneTitle(st, d.title, true, d.pane.Percent(), d.pane.Scrollable(), w)}
	for _, l := range d.pane.View() {
		lines = append(lines, ui.Truncate(l, w))
	}
	for len(lines) < d.h-1-len(d.e.helpBar(d.bindings(), w)) {
		lines = append(lines, "")
	}
	lines = append(lines, d.back.statusLine(w))
	lines = append(lines, d.e.helpBar(d.bindings(), w)...)
	return strings.Join(lines, "\n")
}
