package adjudicate

import (
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// The system view: where a system's predictions of a field (the field the
// kind compared declares: a claim's entailment) disagree with the expert's
// labels, cell by cell of the confusion matrix (rows expert, columns
// system, as `annotate metrics`), most items first. enter walks the items
// of a cell. Read-only: the lead may flag or note a claim, but
// adjudication happens in the adjudication view, blind to the system.

// cellsScreen lists the off-diagonal cells.
type cellsScreen struct {
	e    *env
	rev  *store.SystemConfusion
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

func (c *cellsScreen) Update(msg tea.Msg) (ui.Child, tea.Cmd) {
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
			e.ok(e.say().Sprintf("No other expert label set to compare."))
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
	case keyIs(km, k.Accept):
		w := newWalker(e, c, c.rev.Cells[c.sel])
		e.walker = w
		return w, w.show(0)
	}
	return c, nil
}

func (c *cellsScreen) bindings() []key.Binding {
	k, l := c.e.keys, c.e.say()
	return []key.Binding{ui.With(k.Up, "↑/↓", l.Sprintf("select")), ui.With(k.Accept, "enter", l.Sprintf("open cell")), k.Expert,
		ui.With(k.Mode, "v", l.Sprintf("adjudicate")), k.Help, k.Quit}
}

func (c *cellsScreen) View() string {
	e, st, l := c.e, c.e.styles, c.e.say()
	w, h := c.w, c.h
	q := e.systemQuery()
	expert := q.Labels.Annotator
	if q.Labels.Adjudicated {
		expert = l.Sprintf("adjudicated")
	}
	ps := []ui.Piece{{Text: l.Sprintf("System view")}, {Text: l.Sprintf("%s vs %s", q.System, expert)}}
	if c.rev != nil {
		ps = append(ps, ui.Piece{Text: l.Sprintf("%d verified %s", c.rev.N, kindTitle(l, c.rev.Kind)), Optional: true},
			ui.Piece{Text: l.Sprintf("%d disagree", c.rev.N-c.rev.Agree), Optional: true})
	}
	var body []string
	switch {
	case c.err != nil:
		body = ui.Message(st, l.Sprintf("Could not compare: %s", c.err.Error()), w, true)
	case c.rev == nil:
		body = ui.Message(st, l.Sprintf("Loading…"), w, false)
	case c.rev.N == 0:
		body = ui.Message(st, l.Sprintf("No verified claim: none is judged correct with an entailment label by %s and predicted by %s. Press e for another expert label set.", expert, q.System), w, false)
	default:
		body = c.body(w, h-3)
	}
	f := ui.Frame{Header: ui.Header(st, ps, l.Sprintf("as %s", e.lead), w), Top: body, Bottom: e.bottom(c.bindings(), w)}
	var p ui.PaneState
	return p.Render(st, f, w, h)
}

// body: the confusion matrix when there is room, then the cells.
func (c *cellsScreen) body(w, h int) []string {
	st, rev, l := c.e.styles, c.rev, c.e.say()
	var out []string
	matrix := c.matrix(w)
	if len(matrix)+3 <= h/2 {
		out = append(out, matrix...)
		out = append(out, "")
	}
	if len(rev.Cells) == 0 {
		return append(out, ui.Message(st, l.Sprintf("The system agrees with the expert on every verified %s.", kindNounOf(l, rev.Kind)), w, false)...)
	}
	out = append(out, st.Dim.Render(ui.Truncate(l.Sprintf("Disagreements by class pair (expert → %s):", rev.System), w)))
	most := len(rev.Cells[0].Items)
	// The class names shrink before the counts do: "▸ " + two names + " → " + " 12345 100.0%".
	classW := max(7, min(14, (w-2-3-13)/2))
	var rows []string
	for i, cell := range rev.Cells {
		n := len(cell.Items)
		barW := max(0, min(20, w-50))
		bar := strings.Repeat("█", (n*barW+most-1)/max(1, most))
		line := ui.PadRight(classLabel(l, rev.Field, cell.Expert), classW) + " → " + ui.PadRight(classLabel(l, rev.Field, cell.System), classW) + " " +
			ui.PadLeft(itoa(n), 5) + " " + pct(l, n, rev.N) + " " + bar
		if i == c.sel {
			rows = append(rows, st.Selected.Render(ui.Truncate("▸ "+line, w)))
		} else {
			rows = append(rows, ui.Truncate("  "+line, w))
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
	st, rev, l := c.e.styles, c.rev, c.e.say()
	cols := append(append([]string(nil), rev.Classes...), store.OtherClass)
	const cw = 14 // "contradiction" and a space
	corner := l.Sprintf("expert \\ %s", ui.SanitizeLine(rev.System))
	rw := min(max(cw, ui.TextWidth(corner)+1), 24) // the row labels' column
	head := ui.PadRight(corner, rw)
	for _, col := range cols {
		head += ui.PadLeft(ui.Truncate(classLabel(l, rev.Field, col), cw-1), cw)
	}
	out := []string{st.Dim.Render(ui.Truncate(head, w))}
	for _, row := range rev.Classes {
		line := st.Label.Render(ui.PadRight(l.Value(rev.Field, row), rw))
		for _, col := range cols {
			cell := ui.PadLeft(itoa(rev.Confusion[row][col]), cw)
			if col == row {
				cell = st.Dim.Render(cell)
			}
			line += cell
		}
		out = append(out, ui.TruncateStyled(line, w))
	}
	return out
}

func pct(l *lang.Printer, n, of int) string {
	p := 0
	if of > 0 {
		p = (n*1000 + of/2) / of // tenths of a percent, rounded
	}
	return ui.PadLeft(l.Sprintf("%.1f%%", float64(p)/10), ui.TextWidth(l.Sprintf("%.1f%%", 100.0)))
}

// walkerScreen walks the items of one cell (claims: the claim, its answer
// and context), the expert's label of the cell's field and the system's
// prediction as stored.
type walkerScreen struct {
	e         *env
	back      *cellsScreen
	cell      store.SystemCell
	i         int
	detail    *store.AdjudicationDetail
	detailErr error
	seq       int
	p         ui.PaneState
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
	s.p.Reset()
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

func (s *walkerScreen) Update(msg tea.Msg) (ui.Child, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return s, nil
	}
	e, k := s.e, s.e.keys
	if s.p.ScrollKey(k, km) {
		return s, nil
	}
	switch {
	case keyIs(km, k.Close), keyIs(km, k.Quit):
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
		e.ok(e.say().Sprintf("That was the last %s of this cell (esc goes back to the list).", kindNoun(e.say(), s.cell)))
	case keyIs(km, k.Flag) && s.detail != nil:
		return s, setFlagCmd(e.store, e.lead, s.detail.ItemID, s.cell.Field, !s.detail.LeadFlagged, e.session)
	case keyIs(km, k.Note) && s.detail != nil:
		return newNoteInput(e, s, s.detail.ItemRef, s.cell.Field, s.detail.LeadNotes[s.cell.Field]), nil
	}
	return s, nil
}

func (s *walkerScreen) bindings() []key.Binding {
	k, l := s.e.keys, s.e.say()
	return []key.Binding{ui.With(k.Prev, "←/→", kindItems(l, s.cell)), k.Flag, k.Note, k.Focus, ui.With(k.Close, "esc/q", l.Sprintf("back to cells")), k.Help}
}

func (s *walkerScreen) View() string {
	e, st, l := s.e, s.e.styles, s.e.say()
	w := s.w
	field := s.cell.Field
	ps := []ui.Piece{{Text: classLabel(l, field, s.cell.Expert) + " → " + classLabel(l, field, s.cell.System)},
		{Text: kindNoun(l, s.cell) + " " + l.Sprintf("%d of %d", s.i+1, len(s.cell.Items))},
		{Text: ui.SanitizeLine(s.cell.Items[s.i].ExtID), Optional: true}}
	f := ui.Frame{Header: ui.Header(st, ps, "", w), Bottom: e.bottom(s.bindings(), w)}
	switch {
	case s.detailErr != nil:
		f.Top = ui.Message(st, l.Sprintf("Could not load the %s: %s", kindNoun(l, s.cell), s.detailErr.Error()), w, true)
	case s.detail == nil:
		f.Top = ui.Message(st, l.Sprintf("Loading…"), w, false)
	default:
		d := s.detail
		f.Top = itemTop(st, d, w)
		f.Mid = s.verdicts(w)
		f.Pane = func(w int) []string { return itemPane(st, d, w) }
		f.PaneKey = itoa(int(d.ItemID)) + "/" + itoa(e.styleGen)
		f.PaneTitle = paneTitleOf(st, d)
	}
	return s.p.Render(st, f, w, s.h)
}

// verdicts: the expert's label (and note), the system's prediction as
// stored, and the lead's flag and note.
func (s *walkerScreen) verdicts(w int) []string {
	e, st, d, l := s.e, s.e.styles, s.detail, s.e.say()
	q := e.systemQuery()
	expert, labels := l.Sprintf("adjudicated"), d.Final
	if !q.Labels.Adjudicated {
		expert, labels = q.Labels.Annotator, d.Labels[q.Labels.Annotator]
	}
	nameW := max(ui.TextWidth(ui.SanitizeLine(expert)), ui.TextWidth(ui.SanitizeLine(q.System)))
	nameW = min(nameW, max(4, w/3))
	line := st.Label.Render(ui.PadRight(ui.SanitizeLine(expert), nameW)) + "  " + st.Text.Render(ui.SanitizeLine(l.Value(s.cell.Field, labels[s.cell.Field])))
	if note := d.Notes[expert]; note != "" {
		line += "  " + st.Dim.Render("✎ "+ui.SanitizeLine(note))
	}
	pred := d.Predictions[q.System]
	sys := st.Label.Render(ui.PadRight(ui.SanitizeLine(q.System), nameW)) + "  " + st.Text.Render(ui.SanitizeLine(pred))
	if canon, _ := schema.Normalize(s.cell.Field, pred); canon != s.cell.System {
		sys += st.Dim.Render(" (" + classLabel(l, s.cell.Field, s.cell.System) + ")")
	}
	out := []string{ui.TruncateStyled(line, w), ui.TruncateStyled(sys, w)}
	return append(out, leadMarks(st, d, w)...)
}

// kindNoun is what one item of the cell is called in running text (its
// kind's noun).
func kindNoun(l *lang.Printer, c store.SystemCell) string { return kindNounOf(l, cellKind(c)) }

// kindItems is what the cell's items are called in the help.
func kindItems(l *lang.Printer, c store.SystemCell) string { return kindTitle(l, cellKind(c)) }

// comparedNounsOf are the names of the items of a kind a system view
// compares, in running text, when the kind gives them (ComparedNouns:
// kind_claim.go). Another kind is called by its schema noun and title.
func comparedNounsOf(kind string) (ComparedNouns, bool) {
	k, _ := kinds.Lookup(schema.Kind(kind))
	n, ok := k.(ComparedNouns)
	return n, ok
}

func kindNounOf(l *lang.Printer, kind string) string {
	if n, ok := comparedNounsOf(kind); ok {
		one, _ := n.ComparedNouns()
		return l.Text(one)
	}
	if sp := schema.SpecOf(schema.Kind(kind)); sp != nil {
		return sp.Noun
	}
	return l.Sprintf("item")
}

// kindTitle is what items of a kind are called in running text (claims, QA
// pairs): the kind's title, lower-cased unless it starts with an acronym.
func kindTitle(l *lang.Printer, kind string) string {
	if n, ok := comparedNounsOf(kind); ok {
		_, several := n.ComparedNouns()
		return l.Text(several)
	}
	sp := schema.SpecOf(schema.Kind(kind))
	if sp == nil {
		return l.Sprintf("items")
	}
	t := sp.Title
	if len(t) > 1 && !unicode.IsUpper(rune(t[1])) {
		t = strings.ToLower(t[:1]) + t[1:]
	}
	return t
}

// classLabel is a class of the confusion as the screen says it: a value
// of the field by its label, the system's predictions outside the field's
// values (store.OtherClass) as "other".
func classLabel(l *lang.Printer, field, class string) string {
	if class == store.OtherClass {
		return l.Sprintf("other|class")
	}
	return l.Value(field, class)
}

func cellKind(c store.SystemCell) string {
	if len(c.Items) == 0 {
		return ""
	}
	return c.Items[0].Kind
}
