package tui

import (
	"strings"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// How the annotation screen of an item (item.go) is drawn: its layout, the
// field card, the trail of decisions and the header.

// View lays the screen out (ui.Frame): header, the item (question and
// answer, or the claim), the context pane taking the remaining height, the
// field card and the trail of decisions, the status line and the help bar.
// On a short terminal the trail, then the card, shrink first.
func (s *itemScreen) View() string {
	e, st := s.e, s.e.styles
	w, h := s.w, s.h
	bottom := []string{e.statusLine(w, s.saving, s.slow)}
	bottom = append(bottom, e.helpBar(s.bindings(), w)...)
	cardLines := s.card(w, false)
	trailLines := s.trail(w, 2)
	room := func() int { return h - 1 - len(cardLines) - len(trailLines) - len(bottom) }
	if room() < 6 {
		trailLines = s.trail(w, 1)
	}
	if room() < 5 {
		cardLines = s.card(w, true)
	}
	if room() < 4 {
		trailLines = nil
	}
	dr, view := Drawing{st, s.d, s.at}, s.view
	f := ui.Frame{
		Header:    s.header(w),
		Top:       view.Top(dr, w),
		PaneTitle: view.PaneTitle(dr),
		Pane:      func(w int) []string { return view.Pane(dr, w) },
		// The pane changes with the item's data, the step (and field: a
		// generated claim's evidence), the claims added and the kind's own
		// state; not with each decision.
		PaneKey: itoa(s.version) + "/" + s.at.kindKey() + "/" + s.at.field + "/" + itoa(s.flow.added) + "/" + itoa(e.styleGen) + s.kindPaneKey(),
		Card:    append(cardLines, trailLines...),
		Bottom:  bottom,
	}
	return s.pane.Render(st, f, w, h)
}

func (s *itemScreen) card(w int, compact bool) []string {
	st := s.e.styles
	switch s.at.kind {
	case askOwn:
		if s.flow.own != nil {
			return s.flow.own.card(st, s.flow, w)
		}
	case stepDone:
		if s.flow.notAsked != "" {
			return notAskedCard(st, s.flow.notAsked, w)
		}
		return completeCard(st, w)
	}
	if v, ok := s.view.(cardDrawer); ok {
		if c := v.card(st, s, w, compact); c != nil {
			return c
		}
	}
	if c := s.checklistOf(); c != nil {
		return checklistCard(st, c, w, compact)
	}
	return card(st, s.at.field, s.flow.preselected(), w, compact)
}

// kindPaneKey is the kind's own part of the pane's cache key.
func (s *itemScreen) kindPaneKey() string {
	v, ok := s.view.(paneKeyer)
	if !ok {
		return ""
	}
	return "/" + v.paneKey(s.d)
}

func (s *itemScreen) trail(w, maxLines int) []string {
	var extra []string
	if m := s.flow.marker; m != "" && s.flow.own != nil {
		extra = append(extra, s.e.lang.Sprintf("%s %s", s.e.lang.Field(s.flow.own.marker), s.e.lang.Value(s.flow.own.marker, m)))
	}
	if o := s.flow.own; s.at.kind == askOwn && o != nil {
		// The step is about the parent: its decisions, and the marker.
		_, parent := o.of(s.d)
		waiting := s.e.dec.waitingFields(parent)
		if len(waiting) > 0 {
			waiting[""] = true
		}
		return trail(s.e.styles, schema.SpecOf(s.d.kind()).Parent, s.d.parent, waiting, extra, w, maxLines)
	}
	waiting := s.e.dec.waitingFields(s.d.ref.ItemID)
	if s.flow.own != nil && len(s.e.dec.waitingFields(s.d.qa.ItemID)) > 0 && len(extra) > 0 {
		waiting[""] = true // the marker on the answer waits
	}
	return trail(s.e.styles, s.d.kind(), s.flow.labels, waiting, extra, w, maxLines)
}

// header: where the annotator is (queue, batch, item k of n, progress), the
// item's id, its flag and note markers and the session clock.
func (s *itemScreen) header(w int) string {
	e, st, l := s.e, s.e.styles, s.e.lang
	var pieces []ui.Piece
	title := l.Text(s.view.Names().Label) + " " + ui.SanitizeLine(s.d.ref.ExtID)
	if o := s.flow.own; s.at.kind == askOwn && o.title != "" {
		// The step is about the parent: "Missed claims · gdpr-001".
		ext, _ := o.of(s.d)
		title = l.Text(o.title) + " · " + ui.SanitizeLine(ext)
	}
	pieces = append(pieces, ui.Piece{Text: title})
	switch s.origin {
	case fromUndo:
		pieces = append(pieces, ui.Piece{Text: l.Sprintf("(back by undo)"), Optional: true})
	case fromGoto:
		pieces = append(pieces, ui.Piece{Text: l.Sprintf("(go to)"), Optional: true})
	case fromSearch:
		pieces = append(pieces, ui.Piece{Text: l.Sprintf("(search)"), Optional: true})
	}
	if wk := e.work; wk != nil {
		if wk.batch != "" {
			pieces = append(pieces, ui.Piece{Text: l.Sprintf("batch %s", ui.SanitizeLine(wk.batch)), Optional: true})
		}
		if s.at.kind == askField && s.flow.suggestion(s.at.field) != "" {
			pieces = append(pieces, ui.Piece{Text: "◆ " + l.Sprintf("%s's suggestion", ui.SanitizeLine(s.d.suggestedBy))})
		}
		if wk.filter.Active() {
			pieces = append(pieces, ui.Piece{Text: l.Sprintf("filter: %s", ui.SanitizeLine(filterName(l, wk.filter)))})
		}
		if wk.counted && s.d.ref.Kind == wk.kind {
			if p, ok := wk.pos[s.d.ref.ItemID]; ok {
				pieces = append(pieces, ui.Piece{Text: l.Sprintf("item %d of %d", p, wk.total)})
			}
			pieces = append(pieces, ui.Piece{Text: ui.Bar(wk.done, wk.total, 10) + " " + ui.Percent(l, wk.done, wk.total), Optional: true})
		}
	}
	var right []string
	if s.d.flagged {
		right = append(right, "⚑ "+l.Sprintf("flagged"))
	}
	if n := len(s.d.notes); n > 0 {
		mark := "✎ " + l.Sprintf("note")
		if n > 1 {
			mark = "✎ " + l.Sprintf("%d notes", n)
		}
		right = append(right, mark)
	}
	session := l.Sprintf("session %s", clock(e.act.session()))
	right = append(right, session)
	r := " " + strings.Join(right, "  ") + " "
	if ui.Width(r) > w/2 {
		r = " " + session + " "
		if s.d.flagged {
			r = " ⚑" + r
		}
	}
	leftW := max(0, w-ui.Width(r))
	left := " " + ui.FitPieces(pieces, " · ", max(0, leftW-1))
	left = ui.TruncateStyled(left, leftW)
	pad := max(0, w-ui.Width(left)-ui.Width(r))
	line := left + strings.Repeat(" ", pad) + r
	line = ui.TruncateStyled(line, w)
	return st.Header.Render(line)
}
