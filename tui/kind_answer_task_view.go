package tui

import (
	"strings"
	"time"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// How the answer screen (kind_answer_task.go) is drawn: its layout, the
// editors beside the seed document, the header.

// View lays the screen out: header, query, then the editors beside the
// seed document (under it on a narrow terminal), status and help.
func (s *answerScreen) View() string {
	e, st, l := s.e, s.e.styles, s.e.lang
	w, h := s.w, s.h
	bottom := []string{e.statusLine(w, s.submitting, false)}
	bottom = append(bottom, e.helpBar(s.bindings(), w)...)
	q := s.task.Query
	top := ui.Labelled(st, l.Sprintf("Query"), ui.Data(q.Text), w, nil, nil)
	if room := max(2, h/5); len(top) > room {
		top = append(top[:room-1], st.Dim.Render(ui.Truncate(l.Sprintf("… (a long query: enlarge the terminal to read all of it)"), w)))
	}
	var meta []string
	for _, v := range []string{q.Persona, q.Jurisdiction, q.Issue} {
		if v != "" {
			meta = append(meta, ui.SanitizeLine(v))
		}
	}
	if q.SeedGroup != "" {
		meta = append(meta, l.Sprintf("variations %s", ui.SanitizeLine(q.SeedGroup)))
	}
	if len(meta) > 0 {
		top = append(top, st.Dim.Render(ui.Truncate(strings.Join(meta, " · "), w)))
	}
	body := max(6, h-1-len(top)-len(bottom))
	var lines []string
	if w >= 100 {
		lw := w * 3 / 5
		rw := w - lw - 1
		left := s.editors(lw, body)
		right := s.document(rw, body)
		sep := st.Rule.Render("│")
		for i := 0; i < body; i++ {
			// The editors' lines fill their width: measured once, cut
			// only when wider.
			l, n := left[i], ui.Width(left[i])
			if n > lw {
				l = ui.TruncateStyled(l, lw)
				n = ui.Width(l)
			}
			lines = append(lines, l+strings.Repeat(" ", max(0, lw-n))+sep+ui.TruncateStyled(right[i], rw))
		}
	} else {
		docH := max(3, body/3)
		lines = append(s.editors(w, body-docH), s.document(w, docH)...)
	}
	out := []string{s.header(w)}
	out = append(out, top...)
	out = append(out, lines...)
	out = append(out, bottom...)
	return strings.Join(out, "\n")
}

// editors draws the answer and citations editors in w×h.
func (s *answerScreen) editors(w, h int) []string {
	st := s.e.styles
	citeH := min(5, max(1, h/4))
	ansH := max(1, h-citeH-2)
	title := func(name, right string, focus bool) string {
		t := "─ " + name + " "
		if focus {
			t = "▶ " + name + " "
		}
		r := " " + right + " "
		pad := max(0, w-ui.TextWidth(t)-ui.TextWidth(r))
		line := ui.Truncate(t+strings.Repeat("─", pad)+r, w)
		if focus {
			return st.Focus.Render(line)
		}
		return st.Rule.Render(line)
	}
	s.answer.SetSize(w, ansH)
	s.cites.SetSize(w, citeH)
	right := s.counts()
	if d := s.draftLine(); d != "" {
		right = d + " · " + right
	}
	l := s.e.lang
	out := []string{title(l.Sprintf("Answer"), right, s.focus == focusAnswer)}
	out = append(out, fit(strings.Split(s.answer.View(), "\n"), ansH)...)
	known, unknown := 0, 0
	for _, c := range s.checks {
		if c.Document != "" {
			known++
		} else if c.Text != "" {
			unknown++
		}
	}
	out = append(out, title(l.Sprintf("Citations"), l.Sprintf("✓ %d known · ? %d unknown (kept as written)", known, unknown), s.focus == focusCitations))
	out = append(out, fit(strings.Split(s.cites.View(), "\n"), citeH)...)
	return fit(out, h)
}

// document draws the seed document pane in w×h.
func (s *answerScreen) document(w, h int) []string {
	st, l := s.e.styles, s.e.lang
	key := itoa(w) + "/" + itoa(s.e.styleGen) + "/" + boolKey(s.loaded)
	if key != s.docKey {
		s.docKey = key
		var lines []string
		switch {
		case !s.loaded:
			lines = []string{st.Dim.Render(l.Sprintf("Loading…"))}
		case s.seed == nil && s.seedName == "":
			lines = []string{st.Dim.Render(ui.Truncate(l.Sprintf("The query names no seed document."), w))}
		case s.seed == nil:
			lines = ui.Wrap(l.Sprintf("The seed document %s is not in the database.", ui.SanitizeLine(s.seedName)), w)
		default:
			d := s.seed
			head := ui.SanitizeLine(d.ID)
			for _, v := range []string{d.Title, d.Citation, d.Court} {
				if v != "" {
					head += " · " + ui.SanitizeLine(v)
				}
			}
			lines = append(lines, ui.Wrap(head, w)...)
			lines = append(lines, "")
			lines = append(lines, ui.Wrap(ui.Sanitize(d.Text), w)...)
		}
		s.doc.SetLines(lines)
	}
	s.doc.SetHeight(h - 1)
	out := []string{ui.PaneTitle(st, l.Sprintf("Seed document"), s.focus == focusDocument, s.doc.Percent(), s.doc.Scrollable(), w)}
	return append(out, s.doc.View()...)
}

func boolKey(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// fit pads or cuts lines to exactly h.
func fit(lines []string, h int) []string {
	if len(lines) > h {
		return lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return lines
}

func (s *answerScreen) header(w int) string {
	e, l := s.e, s.e.lang
	pieces := []ui.Piece{{Text: l.Sprintf("Answer") + " " + s.d.ref.ExtID}}
	if wk := e.work; wk != nil {
		if wk.batch != "" {
			pieces = append(pieces, ui.Piece{Text: l.Sprintf("batch %s", wk.batch), Optional: true})
		}
		if wk.counted && s.d.ref.Kind == wk.kind {
			if p, ok := wk.pos[s.d.ref.ItemID]; ok {
				pieces = append(pieces, ui.Piece{Text: l.Sprintf("item %d of %d", p, wk.total)})
			}
			pieces = append(pieces, ui.Piece{Text: ui.Bar(wk.done, wk.total, 10) + " " + ui.Percent(l, wk.done, wk.total), Optional: true})
		}
	}
	if s.openedDone {
		pieces = append(pieces, ui.Piece{Text: l.Sprintf("submitted before: ctrl+s submits again"), Optional: true})
	}
	return ui.Header(e.styles, pieces, l.Sprintf("session %s", clock(e.act.session())), w)
}

// --- messages and commands ---

type answerLoadedMsg struct {
	item int64
	scr  *store.AnswerScreen
	err  error
}

type draftTickMsg struct{ item int64 }

type draftSavedMsg struct {
	item int64
	at   time.Time
	ms   int64
	err  error
}

type citationsCheckedMsg struct {
	item   int64
	seq    int
	checks []store.CitationCheck
	err    error
}

type answerSubmittedMsg struct {
	item int64
	ms   int64
	err  error
}
