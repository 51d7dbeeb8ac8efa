package review

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui"
)

// The system view: where a system's entailment predictions disagree with
// the expert's labels, cell by cell of the confusion matrix (rows expert,
// columns system, as `annotate metrics`), most claims first. enter walks
// the claims of a cell. Read-only: the lead may flag or note a claim, but
// adjudication happens in the adjudication view, blind to the system.

// cellsScreen lists the off-diagonal cells.
type cellsScreen struct {
	e    *env
	rev  *store.SystemReview
	err  error
	seq  int
	sel  int
	w, h int
}

func newCellsScreen(e *env) *cellsScreen { return &cellsScreen{e: e, w: e.w, h: e.h} }

func (c *cellsScreen) SetSize(w, h int) { c.w, c.h = w, h }

// query is what the view compares now.
func (e *env) systemQuery() store.SystemQuery {
	q := store.SystemQuery{System: e.system, Batch: e.query.Batch}
	if len(e.experts) > 0 {
		q.Labels = e.experts[e.expert%len(e.experts)]
	}
	return q
}

func (c *cellsScreen) reload() tea.Cmd {
	c.seq = c.e.nextSeq()
	return loadSystemCmd(c.e.store, c.e.systemQuery(), c.seq)
}

func (c *cellsScreen) handle(msg tea.Msg) tea.Cmd {
	m, ok := msg.(systemLoadedMsg)
	if !ok || m.seq != c.seq {
		return nil
	}
	c.err = m.err
	if m.err == nil {
		rev := m.rev
		c.rev = &rev
		c.sel = min(c.sel, max(0, len(rev.Cells)-1))
	}
	return nil
}

func (c *cellsScreen) Update(msg tea.Msg) (tui.Child, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return c, nil
	}
	e, k := c.e, c.e.keys
	switch {
	case keyIs(km, k.Quit):
		return c, tea.Quit
	case keyIs(km, k.Mode):
		return e.adjudication()
	case keyIs(km, k.Expert):
		if len(e.experts) < 2 {
			e.ok("No other expert label set to compare.")
			return c, nil
		}
		e.expert = (e.expert + 1) % len(e.experts)
		c.rev, c.sel = nil, 0
		return c, c.reload()
	case c.rev == nil || len(c.rev.Cells) == 0:
		return c, nil
	case keyIs(km, k.Up):
		c.sel = max(0, c.sel-1)
	case keyIs(km, k.Down):
		c.sel = min(len(c.rev.Cells)-1, c.sel+1)
	case keyIs(km, k.Open):
		w := newWalker(e, c, c.rev.Cells[c.sel])
		e.walker = w
		return w, w.show(0)
	}
	return c, nil
}

func (c *cellsScreen) bindings() []key.Binding {
	k := c.e.keys
	return []key.Binding{with(k.Up, "↑/↓", "select"), with(k.Open, "enter", "open cell"), k.Expert,
		with(k.Mode, "v", "adjudicate"), k.Help, k.Quit}
}

func (c *cellsScreen) View() string {
	e, st := c.e, c.e.styles
	w, h := c.w, c.h
	q := e.systemQuery()
	expert := q.Labels.Annotator
	if q.Labels.Adjudicated {
		expert = "adjudicated"
	}
	ps := []piece{{text: "System view"}, {text: q.System + " vs " + expert}}
	if c.rev != nil {
		ps = append(ps, piece{text: itoa(c.rev.N) + " verified claims", optional: true},
			piece{text: itoa(c.rev.N-c.rev.Agree) + " disagree", optional: true})
	}
	var body []string
	switch {
	case c.err != nil:
		body = message(st, "Could not compare: "+c.err.Error(), w, true)
	case c.rev == nil:
		body = message(st, "Loading…", w, false)
	case c.rev.N == 0:
		body = message(st, "No verified claim: none is judged correct with an entailment label by "+expert+
			" and predicted by "+q.System+". Press e for another expert label set.", w, false)
	default:
		body = c.body(w, h-3)
	}
	f := frame{header: header(st, ps, "as "+e.lead, w), top: body, bottom: e.bottom(c.bindings(), w)}
	var p paneState
	return p.render(st, f, w, h)
}

// body: the confusion matrix when there is room, then the cells.
func (c *cellsScreen) body(w, h int) []string {
	st, rev := c.e.styles, c.rev
	var out []string
	matrix := c.matrix(w)
	if len(matrix)+3 <= h/2 {
		out = append(out, matrix...)
		out = append(out, "")
	}
	if len(rev.Cells) == 0 {
		return append(out, message(st, "The system agrees with the expert on every verified claim.", w, false)...)
	}
	out = append(out, st.Dim.Render(tui.Truncate("Disagreements by class pair (expert → "+rev.System+"):", w)))
	most := len(rev.Cells[0].Items)
	// The class names shrink before the counts do: "▸ " + two names + " → " + " 12345 100.0%".
	classW := max(7, min(14, (w-2-3-13)/2))
	var rows []string
	for i, cell := range rev.Cells {
		n := len(cell.Items)
		barW := max(0, min(20, w-50))
		bar := strings.Repeat("█", (n*barW+most-1)/max(1, most))
		line := padRight(cell.Expert, classW) + " → " + padRight(cell.System, classW) + " " +
			padLeft(itoa(n), 5) + " " + pct(n, rev.N) + " " + bar
		if i == c.sel {
			rows = append(rows, st.Selected.Render(tui.Truncate("▸ "+line, w)))
		} else {
			rows = append(rows, tui.Truncate("  "+line, w))
		}
	}
	room := max(1, h-len(out))
	if len(rows) > room {
		start := max(0, min(c.sel+1-room/2, len(rows)-room))
		rows = rows[start : start+room]
	}
	return append(out, rows...)
}

// matrix renders the confusion matrix, the diagonal dimmed.
func (c *cellsScreen) matrix(w int) []string {
	st, rev := c.e.styles, c.rev
	cols := append(append([]string(nil), rev.Classes...), store.OtherClass)
	const cw = 14 // "contradiction" and a space
	corner := "expert \\ " + tui.SanitizeLine(rev.System)
	rw := min(max(cw, tui.TextWidth(corner)+1), 24) // the row labels' column
	head := padRight(corner, rw)
	for _, col := range cols {
		head += padLeft(col, cw)
	}
	out := []string{st.Dim.Render(tui.Truncate(head, w))}
	for _, row := range rev.Classes {
		line := st.Label.Render(padRight(row, rw))
		for _, col := range cols {
			cell := padLeft(itoa(rev.Confusion[row][col]), cw)
			if col == row {
				cell = st.Dim.Render(cell)
			}
			line += cell
		}
		out = append(out, tui.TruncateStyled(line, w))
	}
	return out
}

func padLeft(s string, w int) string {
	return strings.Repeat(" ", max(0, w-tui.TextWidth(s))) + s
}

func pct(n, of int) string {
	if of == 0 {
		return "  0.0%"
	}
	p := (n*1000 + of/2) / of // tenths of a percent, rounded
	return padLeft(itoa(p/10)+"."+itoa(p%10)+"%", 6)
}

// walkerScreen walks the claims of one cell: the claim, its answer and
// context, the expert's label and the system's prediction as stored.
type walkerScreen struct {
	e         *env
	back      *cellsScreen
	cell      store.SystemCell
	i         int
	detail    *store.ReviewDetail
	detailErr error
	seq       int
	p         paneState
	w, h      int
}

func newWalker(e *env, back *cellsScreen, cell store.SystemCell) *walkerScreen {
	return &walkerScreen{e: e, back: back, cell: cell, w: e.w, h: e.h}
}

func (s *walkerScreen) SetSize(w, h int) { s.w, s.h = w, h }

// expertNames is who the detail needs labels and notes of.
func (e *env) expertNames() []string {
	if q := e.systemQuery(); !q.Labels.Adjudicated && q.Labels.Annotator != "" {
		return []string{q.Labels.Annotator}
	}
	return nil
}

func (s *walkerScreen) show(i int) tea.Cmd {
	s.i = min(max(i, 0), len(s.cell.Items)-1)
	s.detail, s.detailErr = nil, nil
	s.p.reset()
	s.seq = s.e.nextSeq()
	return loadDetailCmd(s.e.store, s.cell.Items[s.i], s.e.expertNames(), s.e.lead, true, s.seq)
}

func (s *walkerScreen) loaded(msg detailMsg) {
	if msg.seq != s.seq {
		return
	}
	if msg.err != nil {
		s.detailErr = msg.err
		return
	}
	d := msg.d
	s.detail = &d
}

func (s *walkerScreen) Update(msg tea.Msg) (tui.Child, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return s, nil
	}
	e, k := s.e, s.e.keys
	if s.p.scrollKey(k, km) {
		return s, nil
	}
	switch {
	case keyIs(km, k.Back), keyIs(km, k.Quit):
		e.walker = nil
		return s.back, nil
	case keyIs(km, k.Prev):
		if s.i > 0 {
			return s, s.show(s.i - 1)
		}
	case keyIs(km, k.Next):
		if s.i+1 < len(s.cell.Items) {
			return s, s.show(s.i + 1)
		}
		e.ok("That was the last claim of this cell (esc goes back to the list).")
	case keyIs(km, k.Flag) && s.detail != nil:
		return s, setFlagCmd(e.store, e.lead, s.detail.ItemID, schema.Entailment, !s.detail.LeadFlagged)
	case keyIs(km, k.Note) && s.detail != nil:
		return newNoteInput(e, s, s.detail.ItemRef, schema.Entailment, s.detail.LeadNote), nil
	}
	return s, nil
}

func (s *walkerScreen) bindings() []key.Binding {
	k := s.e.keys
	return []key.Binding{with(k.Prev, "←/→", "claims"), k.Flag, k.Note, k.Focus, with(k.Back, "esc/q", "back to cells"), k.Help}
}

func (s *walkerScreen) View() string {
	e, st := s.e, s.e.styles
	w := s.w
	ps := []piece{{text: s.cell.Expert + " → " + s.cell.System}, {text: "claim " + itoa(s.i+1) + " of " + itoa(len(s.cell.Items))},
		{text: tui.SanitizeLine(s.cell.Items[s.i].ExtID), optional: true}}
	f := frame{header: header(st, ps, "", w), bottom: e.bottom(s.bindings(), w)}
	switch {
	case s.detailErr != nil:
		f.top = message(st, "Could not load the claim: "+s.detailErr.Error(), w, true)
	case s.detail == nil:
		f.top = message(st, "Loading…", w, false)
	default:
		d := s.detail
		f.top = itemTop(st, d, w)
		f.mid = s.verdicts(w)
		f.pane = func(w int, full bool) []string { return itemPane(st, d, w, full) }
		f.paneKey = itoa(int(d.ItemID)) + "/" + itoa(e.styleGen)
		f.paneTitle = paneTitleOf(d)
	}
	return s.p.render(st, f, w, s.h)
}

// verdicts: the expert's label (and note), the system's prediction as
// stored, and the lead's flag and note.
func (s *walkerScreen) verdicts(w int) []string {
	e, st, d := s.e, s.e.styles, s.detail
	q := e.systemQuery()
	expert, labels := "adjudicated", d.Final
	if !q.Labels.Adjudicated {
		expert, labels = q.Labels.Annotator, d.Labels[q.Labels.Annotator]
	}
	nameW := max(tui.TextWidth(tui.SanitizeLine(expert)), tui.TextWidth(tui.SanitizeLine(q.System)))
	nameW = min(nameW, max(4, w/3))
	line := st.Label.Render(padRight(tui.SanitizeLine(expert), nameW)) + "  " + st.Text.Render(tui.SanitizeLine(labels[schema.Entailment]))
	if note := d.Notes[expert]; note != "" {
		line += "  " + st.Dim.Render("✎ "+tui.SanitizeLine(note))
	}
	pred := d.Predictions[q.System]
	sys := st.Label.Render(padRight(tui.SanitizeLine(q.System), nameW)) + "  " + st.Text.Render(tui.SanitizeLine(pred))
	if canon, _ := schema.Normalize(schema.Entailment, pred); canon != s.cell.System {
		sys += st.Dim.Render(" (" + s.cell.System + ")")
	}
	out := []string{tui.TruncateStyled(line, w), tui.TruncateStyled(sys, w)}
	if d.LeadFlagged || d.LeadNote != "" {
		mine := "you:"
		if d.LeadFlagged {
			mine += " ⚑ flagged"
		}
		if d.LeadNote != "" {
			mine += " ✎ " + tui.SanitizeLine(d.LeadNote)
		}
		out = append(out, st.Flag.Render(tui.Truncate(mine, w)))
	}
	return out
}
