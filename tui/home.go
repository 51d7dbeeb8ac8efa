package tui

import (
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// homeScreen: the annotator's name, the queue of each kind and the batches
// assigned to them, with a progress bar, done / remaining, active time today
// and in this session. enter continues where they left off: the queue they
// last worked in (in this session, else the queue of their latest decision)
// while it has work, else the first queue with work, or the selected row.
type homeScreen struct {
	e       *env
	rows    []homeRow
	sel     int
	chosen  bool // the annotator moved the selection
	loading bool
	err     string
	todayMs int64
	w, h    int
}

type homeRow struct {
	title       string
	kind, batch string
	pilot       bool
	done, total int // of the items asked of the annotator
	// notAsked: items of a kind that waits for its parent's labels not
	// asked of the annotator (their answer not judged correct by them).
	notAsked int
	header   bool // a section title, not selectable
}

func newHome(e *env) *homeScreen { return &homeScreen{e: e, loading: true, w: e.w, h: e.h} }

func (h *homeScreen) refresh() tea.Cmd {
	h.loading = true
	return homeCmd(h.e.store, h.e.lang, h.e.annotator, h.e.now())
}

func (h *homeScreen) SetSize(w, hh int) { h.w, h.h = w, hh }

// busy: keys typed before the queues first show wait for them (enter must
// find its row).
func (h *homeScreen) busy() bool { return h.rows == nil && h.err == "" && h.loading }

func (h *homeScreen) firstWithWork() int {
	first := -1
	for i, r := range h.rows {
		if r.header {
			continue
		}
		if first < 0 {
			first = i
		}
		if r.total > r.done {
			return i
		}
	}
	return max(first, 0)
}

// lastWorked is the row of the queue last worked in, if it has work left:
// the queue left in this session, else the batch (or the kind's queue)
// holding the latest decision. Otherwise the first row with work.
func (h *homeScreen) lastWorked(msg homeMsg) int {
	e := h.e
	find := func(kind string, batches ...string) int {
		for _, b := range batches {
			for i, r := range h.rows {
				if !r.header && r.kind == kind && r.batch == b && r.total > r.done {
					return i
				}
			}
		}
		return -1
	}
	i := -1
	switch {
	case e.lastKind != "":
		i = find(e.lastKind, e.lastBatch)
	case msg.lastKind != "":
		i = find(msg.lastKind, append(msg.lastBatches, "")...)
	}
	if i < 0 {
		i = h.firstWithWork()
	}
	return i
}

func (h *homeScreen) clampSel() {
	if len(h.rows) == 0 {
		h.sel = 0
		return
	}
	h.sel = min(max(h.sel, 0), len(h.rows)-1)
	if h.rows[h.sel].header {
		h.move(1)
	}
}

func (h *homeScreen) move(d int) {
	for i := h.sel + d; i >= 0 && i < len(h.rows); i += d {
		if !h.rows[i].header {
			h.sel = i
			return
		}
	}
}

func (h *homeScreen) Update(msg tea.Msg) (ui.Child, tea.Cmd) {
	e, k := h.e, h.e.keys
	switch msg := msg.(type) {
	case homeMsg:
		h.loading = false
		if msg.err != nil {
			h.err = msg.err.Error()
			return h, nil
		}
		h.err = ""
		h.rows, h.todayMs = msg.rows, msg.todayMs
		if !h.chosen {
			h.sel = h.lastWorked(msg)
		}
		h.clampSel()
	case gotoLoadedMsg:
		if msg.err != nil {
			e.err = e.lang.Sprintf("Go to %s: %s", ui.SanitizeLine(msg.query), msg.err.Error()) + e.notApplied(false)
			return h, nil
		}
		e.err = ""
		next, cmd := e.show(nil, msg.data, fromGoto)
		msg.say(e)
		return next, cmd
	case undoneMsg:
		// Not reachable from home; ignore.
	case tea.KeyPressMsg:
		switch {
		case keyIs(msg, k.Quit):
			return h, tea.Quit
		case keyIs(msg, k.Up):
			h.chosen = true
			h.move(-1)
		case keyIs(msg, k.Down):
			h.chosen = true
			h.move(1)
		case keyIs(msg, k.Accept):
			if len(h.rows) == 0 || h.rows[h.sel].header {
				return h, nil
			}
			r := h.rows[h.sel]
			e.err, e.status = "", ""
			next, cmd := e.startWork(r.kind, r.batch)
			next.SetSize(h.w, h.h)
			return next, cmd
		case keyIs(msg, k.Goto):
			return newGotoInput(e, h), nil
		case keyIs(msg, k.Help):
			return newGuide(e, h, "")
		}
	}
	return h, nil
}

func (h *homeScreen) bindings() []key.Binding {
	k, l := h.e.keys, h.e.lang
	return []key.Binding{ui.With(k.Accept, "enter", l.Sprintf("start")), ui.With(k.Up, "↑/↓", l.Sprintf("select")), k.Goto,
		ui.With(k.Help, "?", l.Sprintf("guidelines")), ui.With(k.Quit, "q", l.Sprintf("quit"))}
}

func (h *homeScreen) View() string {
	e, st, l := h.e, h.e.styles, h.e.lang
	w := h.w
	bottom := append([]string{e.statusLine(w, false, false)}, e.helpBar(h.bindings(), w)...)
	room := h.h - len(bottom) // lines above the status and help
	var lines []string
	lines = append(lines, st.Title.Render(ui.Truncate("annotate · "+ui.SanitizeLine(e.annotator), w)))
	today := "…"
	if !h.loading || h.rows != nil {
		today = clockMs(h.todayMs)
	}
	lines = append(lines, st.Dim.Render(ui.Truncate(l.Sprintf("Active time: today %s · this session %s", today, clock(e.act.session())), w)), "")
	switch {
	case h.err != "":
		for _, l := range ui.Wrap(ui.Sanitize(h.err), w) {
			lines = append(lines, st.Error.Render(l))
		}
	case h.rows == nil:
		lines = append(lines, st.Dim.Render(ui.Truncate(l.Sprintf("Loading your queues…"), w)))
	case len(h.rows) == 0:
		for _, line := range ui.Wrap(l.Sprintf("Nothing to annotate yet: the database holds no items of %s. annotate import FILE adds some.", kindTitles(l)), w) {
			lines = append(lines, st.Dim.Render(line))
		}
	default:
		lines = append(lines, h.table(w, max(1, room-len(lines)))...)
	}
	// The keys of the annotation screens, when there is room for them.
	if full := strings.Split(e.fullHelp(w), "\n"); room-len(lines) >= len(full)+2 {
		lines = append(lines, "", st.Label.Render(ui.Truncate(l.Sprintf("Keys while annotating"), w)))
		for _, line := range full {
			lines = append(lines, ui.TruncateStyled(line, w))
		}
	}
	// Bottom: status and help.
	for len(lines) < room {
		lines = append(lines, "")
	}
	if len(lines) > room {
		lines = lines[:max(0, room)]
	}
	lines = append(lines, bottom...)
	return strings.Join(lines, "\n")
}

// dropEmptyHeaders removes the section titles no row follows (Queues, on
// a database without items).
func dropEmptyHeaders(rows []homeRow) []homeRow {
	out := rows[:0]
	for i, r := range rows {
		if r.header && (i+1 == len(rows) || rows[i+1].header) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// kindTitles names the queues the screens open, in queue order: "a, b or c".
func kindTitles(l *lang.Printer) string {
	var ts []string
	for _, k := range Kinds() {
		ts = append(ts, lowerFirst(l.Text(viewOf(schema.Kind(k)).Names().Queue)))
	}
	if len(ts) < 2 {
		return strings.Join(ts, "")
	}
	return l.Sprintf("%s or %s", strings.Join(ts[:len(ts)-1], ", "), ts[len(ts)-1])
}

// lowerFirst lowers a title's first letter unless it starts an acronym.
func lowerFirst(s string) string {
	r := []rune(s)
	if len(r) > 1 && unicode.IsUpper(r[0]) && unicode.IsLower(r[1]) {
		r[0] = unicode.ToLower(r[0])
	}
	return string(r)
}

// table renders the rows (scrolled to keep the selection visible).
func (h *homeScreen) table(w, height int) []string {
	st, l := h.e.styles, h.e.lang
	numW := 7
	pctW := ui.TextWidth(ui.Percent(l, 1, 1)) // "100%", "100 %"
	barW := 0
	nameW := w - 2 - 2*(numW+1) - pctW - 1
	if w >= 60 {
		barW = min(20, w/5)
		nameW -= barW + 1
	}
	nameW = max(4, min(nameW, 28))
	var out []string
	headLine := "  " + ui.PadRight("", nameW) + " " + strings.Repeat(" ", barW)
	if barW > 0 {
		headLine += " "
	}
	// The counts are of the items asked of the annotator: the claims of an
	// answer are asked once they have judged it correct, and the row says
	// how many are not (yet).
	headLine += ui.PadLeft(l.Sprintf("done|column"), numW) + " " + ui.PadLeft(l.Sprintf("left|column"), numW) + " " + l.Sprintf("of those asked")
	out = append(out, st.Dim.Render(ui.Truncate(headLine, w)))
	for i, r := range h.rows {
		if r.header {
			out = append(out, st.Label.Render(ui.Truncate(r.title, w)))
			continue
		}
		line := ui.PadRight(ui.Truncate(ui.SanitizeLine(r.title), nameW), nameW) + " "
		if barW > 0 {
			line += ui.Bar(r.done, r.total, barW) + " "
		}
		line += ui.PadLeft(l.Sprintf("%d", r.done), numW) + " " + ui.PadLeft(l.Sprintf("%d", max(0, r.total-r.done)), numW) + " " + ui.PadLeft(ui.Percent(l, r.done, r.total), pctW)
		if i == h.sel {
			out = append(out, st.Selected.Render(ui.Truncate("▸ "+line, w)))
		} else {
			out = append(out, ui.Truncate("  "+line, w))
		}
		if r.notAsked > 0 {
			note := "    + " + notAskedNote(l, r.kind, r.notAsked)
			out = append(out, st.Dim.Render(ui.Truncate(note, w)))
		}
	}
	if len(out) <= height {
		return out
	}
	// Keep the selected row in view.
	start := max(0, min(h.sel+1-height/2, len(out)-height))
	return out[start : start+height]
}

func clockMs(ms int64) string { return clock(msDuration(ms)) }

// notAskedNote says how many of a kind's items are not asked of the
// annotator yet, and why: their parent (a claim's answer) is not judged
// correct by them.
func notAskedNote(l *lang.Printer, kind string, n int) string {
	if k, ok := viewOf(schema.Kind(kind)).(notAskedNoter); ok {
		return k.notAskedNote(l, n)
	}
	return l.Sprintf("%d not asked: the item they belong to not judged correct by you", n)
}
