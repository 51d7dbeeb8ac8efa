package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// filterPicker lists the filters of the queue over the bottom of the screen
// under it: every item, the flagged, skipped, noted and disagreed ones, and
// one per source of the queue's items (they arrive with sourcesMsg). ↑↓ and
// enter, or a digit, pick one; esc leaves the filter as it is.
type filterPicker struct {
	e     *env
	under ui.Child
	opts  []filterOption
	at    int
	w, h  int
}

type filterOption struct {
	label  string
	filter store.QueueFilter
}

var filterLabels = map[string]string{
	store.FilterFlagged:   "flagged by you",
	store.FilterSkipped:   "skipped in this run",
	store.FilterNoted:     "with a note of yours",
	store.FilterDisagreed: "where annotators disagree",
}

func newFilterPicker(e *env, under ui.Child) *filterPicker {
	p := &filterPicker{e: e, under: under, w: e.w, h: e.h}
	p.opts = append(p.opts, filterOption{label: "every item (no filter)"})
	for _, f := range store.Filters {
		p.opts = append(p.opts, filterOption{label: filterLabels[f], filter: store.QueueFilter{Only: f}})
	}
	for i, o := range p.opts {
		if o.filter.Only == e.work.filter.Only && e.work.filter.Source == "" {
			p.at = i
		}
	}
	return p
}

func (p *filterPicker) SetSize(w, h int) {
	p.w, p.h = w, h
	p.under.SetSize(w, h)
}

func (p *filterPicker) Update(msg tea.Msg) (ui.Child, tea.Cmd) {
	e, k := p.e, p.e.keys
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		if m, ok := msg.(sourcesMsg); ok && e.work != nil && m.kind == e.work.kind {
			if m.err != nil {
				e.err = "Sources not read: " + m.err.Error()
			}
			for _, name := range m.names {
				p.opts = append(p.opts, filterOption{label: "from source " + ui.SanitizeLine(name), filter: store.QueueFilter{Source: name}})
				if e.work.filter.Source == name && e.work.filter.Only == "" {
					p.at = len(p.opts) - 1
				}
			}
			return p, nil
		}
		var cmd tea.Cmd
		p.under, cmd = p.under.Update(msg)
		return p, cmd
	}
	switch {
	case keyIs(km, k.Close, k.Quit):
		e.status = "Filter unchanged."
		return p.under, nil
	case keyIs(km, k.Up):
		p.at = (p.at + len(p.opts) - 1) % len(p.opts)
	case keyIs(km, k.Down):
		p.at = (p.at + 1) % len(p.opts)
	case keyIs(km, k.Accept):
		return e.filterWork(p.opts[p.at].filter)
	case keyIs(km, k.Pick):
		n := int(km.String()[0] - '0')
		if n <= len(p.opts) {
			return e.filterWork(p.opts[n-1].filter)
		}
		e.status = "There are " + itoa(len(p.opts)) + " filters: ↑↓ and enter pick one."
	}
	return p, nil
}

// View draws the screen underneath with the list over its last lines, as
// many options as fit around the one selected.
func (p *filterPicker) View() string {
	st := p.e.styles
	room := max(1, min(len(p.opts), p.h/2-2))
	first := min(max(0, p.at-room/2), len(p.opts)-room)
	panel := []string{st.Title.Render(ui.Truncate("Filter the "+kindName(p.e.work.kind)+" queue", p.w))}
	for i := first; i < first+room; i++ {
		mark, num := "  ", "   "
		if i == p.at {
			mark = "▸ "
		}
		if i < 9 {
			num = "[" + itoa(i+1) + "]"
		}
		line := mark + st.Key.Render(num) + " " + st.Option.Render(p.opts[i].label)
		if i == p.at {
			line = st.Field.Render(mark) + st.Key.Render(num) + " " + st.Field.Render(p.opts[i].label)
		}
		panel = append(panel, ui.TruncateStyled(line, p.w))
	}
	panel = append(panel, st.Dim.Render(ui.Truncate("↑↓ enter or 1-9 pick · esc keep the filter", p.w)))
	under := strings.Split(p.under.View(), "\n")
	keep := max(0, p.h-len(panel)-1)
	if len(under) > keep {
		under = under[:keep]
	}
	rule := st.Rule.Render(strings.Repeat("─", p.w))
	return strings.Join(append(append(under, rule), panel...), "\n")
}
