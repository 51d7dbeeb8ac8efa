package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/internal/lang"
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
	store.FilterFlagged:   lang.Key("flagged by you"),
	store.FilterSkipped:   lang.Key("skipped in this run"),
	store.FilterNoted:     lang.Key("with a note of yours"),
	store.FilterDisagreed: lang.Key("where annotators disagree"),
}

// filterNames are the filters as the queue's header names them.
var filterNames = map[string]string{
	store.FilterFlagged:   lang.Key("flagged"),
	store.FilterSkipped:   lang.Key("skipped"),
	store.FilterNoted:     lang.Key("noted"),
	store.FilterDisagreed: lang.Key("disagreed"),
}

// filterName names a filter as the queue's header shows it ("flagged",
// "source ClaimRAG-LAW", "noted · source X").
func filterName(l *lang.Printer, f store.QueueFilter) string {
	var parts []string
	if f.Only != "" {
		name := f.Only
		if k, ok := filterNames[f.Only]; ok {
			name = l.Text(k)
		}
		parts = append(parts, name)
	}
	if f.Source != "" {
		parts = append(parts, l.Sprintf("source %s", f.Source))
	}
	return strings.Join(parts, " · ")
}

func newFilterPicker(e *env, under ui.Child) *filterPicker {
	p := &filterPicker{e: e, under: under, w: e.w, h: e.h}
	p.opts = append(p.opts, filterOption{label: e.lang.Sprintf("every item (no filter)")})
	for _, f := range store.Filters {
		p.opts = append(p.opts, filterOption{label: e.lang.Text(filterLabels[f]), filter: store.QueueFilter{Only: f}})
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
				e.err = e.lang.Sprintf("Sources not read: %s", m.err.Error())
			}
			for _, name := range m.names {
				p.opts = append(p.opts, filterOption{label: e.lang.Sprintf("from source %s", ui.SanitizeLine(name)), filter: store.QueueFilter{Source: name}})
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
		e.status = e.lang.Sprintf("Filter unchanged.")
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
		e.status = e.lang.Sprintf("There are %d filters: ↑↓ and enter pick one.", len(p.opts))
	}
	return p, nil
}

// View draws the screen underneath with the list over its last lines, as
// many options as fit around the one selected.
func (p *filterPicker) View() string {
	st, l := p.e.styles, p.e.lang
	room := max(1, min(len(p.opts), p.h/2-2))
	first := min(max(0, p.at-room/2), len(p.opts)-room)
	panel := []string{st.Title.Render(ui.Truncate(l.Sprintf("Filter the %s queue", kindName(l, p.e.work.kind)), p.w))}
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
	panel = append(panel, st.Dim.Render(ui.Truncate(l.Sprintf("↑↓ enter or 1-9 pick · esc keep the filter"), p.w)))
	under := strings.Split(p.under.View(), "\n")
	keep := max(0, p.h-len(panel)-1)
	if len(under) > keep {
		under = under[:keep]
	}
	rule := st.Rule.Render(strings.Repeat("─", p.w))
	return strings.Join(append(append(under, rule), panel...), "\n")
}
