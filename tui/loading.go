package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// loadingScreen waits for the queue or for an item's data.
type loadingScreen struct {
	e     *env
	ref   store.ItemRef // the item awaited; zero: waiting for the queue
	title string
	err   error
	w, h  int
	// dropped says how many keys typed ahead were not applied because of err.
	dropped string
}

func newLoading(e *env, ref store.ItemRef, title string) *loadingScreen {
	return &loadingScreen{e: e, ref: ref, title: title, w: e.w, h: e.h}
}

func (l *loadingScreen) SetSize(w, h int) { l.w, l.h = w, h }

// busy: keys typed while the item or the queue loads wait for it
// (typeahead.go); after an error the screen takes them (retry, skip, home).
func (l *loadingScreen) busy() bool { return l.err == nil }

// fail shows an error; the keys typed ahead were meant for the item and
// are not applied.
func (l *loadingScreen) fail(err error) {
	l.err = err
	l.dropped = l.e.notApplied(true)
}

func (l *loadingScreen) Update(msg tea.Msg) (ui.Child, tea.Cmd) {
	e := l.e
	switch msg := msg.(type) {
	case itemLoadedMsg:
		if l.ref.ItemID == 0 || msg.ref.ItemID != l.ref.ItemID {
			return l, nil
		}
		if msg.err != nil {
			l.fail(msg.err)
			return l, nil
		}
		if e.work != nil {
			delete(e.work.cache, l.ref.ItemID)
			if !hasWork(msg.data) {
				e.work.finished[l.ref.ItemID] = true
				return e.advance()
			}
		}
		s, cmd := e.open(msg.data, fromQueue)
		if e.work != nil {
			cmd = tea.Batch(cmd, e.work.fetch(e), e.work.preload(e))
		}
		return s, cmd
	case queueFetchedMsg:
		if l.ref.ItemID != 0 || e.work == nil || msg.gen != e.work.gen {
			return l, nil
		}
		if e.work.fetchErr != nil {
			l.fail(e.work.fetchErr)
			return l, nil
		}
		return e.advance()
	case tea.KeyPressMsg:
		k := e.keys
		switch {
		case keyIs(msg, k.Quit, k.Close):
			return e.goHome()
		case keyIs(msg, k.Accept) && l.err != nil:
			// Retry.
			l.err, l.dropped = nil, ""
			if l.ref.ItemID != 0 {
				return l, loadItemCmd(e.store, e.lang, e.annotator, e.suggest, e.nextSeq(), l.ref)
			}
			if e.work != nil {
				e.work.fetching = true
				return l, fetchQueueCmd(e.store, e.work.gen, e.work.query(e))
			}
		case keyIs(msg, k.Skip) && l.err != nil && l.ref.ItemID != 0:
			return e.advance()
		case l.err != nil:
			e.status = e.lang.Sprintf("%s: nothing to decide until the item loads (enter retries, s skips it, q goes home).", msg.String())
		}
	}
	return l, nil
}

func (l *loadingScreen) View() string {
	st, say := l.e.styles, l.e.lang
	lines := []string{st.Title.Render(ui.Truncate(l.title, l.w))}
	if l.err != nil {
		lines = append(lines, "")
		for _, s := range ui.Wrap(ui.Sanitize(l.err.Error()+l.dropped), l.w) {
			lines = append(lines, st.Error.Render(s))
		}
		hint := say.Sprintf("enter retry · q home")
		if l.ref.ItemID != 0 {
			hint = say.Sprintf("enter retry · s skip this item · q home")
		}
		lines = append(lines, "", st.Dim.Render(ui.Truncate(hint, l.w)))
	}
	if status := l.e.statusLine(l.w, false, false); status != "" {
		lines = append(lines, "", status)
	}
	return strings.Join(lines, "\n")
}

// doneScreen says the queue is finished.
type doneScreen struct {
	e       *env
	undoing bool // an undo is in flight: keys wait for the item it brings back
	w, h    int
}

func newDone(e *env) *doneScreen { return &doneScreen{e: e, w: e.w, h: e.h} }

func (d *doneScreen) SetSize(w, h int) { d.w, d.h = w, h }

func (d *doneScreen) busy() bool { return d.undoing }

func (d *doneScreen) Update(msg tea.Msg) (ui.Child, tea.Cmd) {
	e := d.e
	if msg, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case keyIs(msg, e.keys.Accept) && e.work != nil && e.work.skipped > 0:
			return e.restartWork()
		case keyIs(msg, e.keys.Filter) && e.work != nil:
			return newFilterPicker(e, d), sourcesCmd(e.store, e.work.kind)
		case keyIs(msg, e.keys.Quit, e.keys.Close, e.keys.Accept):
			return e.goHome()
		case keyIs(msg, e.keys.Undo) && len(e.unrecorded) > 0:
			return e.undoUnrecorded(nil)
		case keyIs(msg, e.keys.Undo):
			d.undoing = true
			return d, undoCmd(e.store, e.lang, e.annotator, e.suggest)
		default:
			e.status = e.lang.Sprintf("%s: nothing left to decide in this queue (enter/q home, u undo).", msg.String())
		}
	}
	if msg, ok := msg.(undoneMsg); ok {
		d.undoing = false
		return handleUndo(e, nil, msg)
	}
	return d, nil
}

func (d *doneScreen) View() string {
	e, st, l := d.e, d.e.styles, d.e.lang
	var lines []string
	lines = append(lines, st.Title.Render(ui.Truncate(l.Sprintf("Nothing left in this queue"), d.w)), "")
	if w := e.work; w != nil {
		if w.counted {
			lines = append(lines, ui.Truncate(l.Sprintf("%d items of %d done.", w.done, w.total), d.w))
		}
		if w.skipped > 0 {
			lines = append(lines, ui.Truncate(l.Sprintf("%d items skipped in this run: enter to go through them again.", w.skipped), d.w))
		}
		if w.filter.Active() {
			lines = append(lines, ui.Truncate(l.Sprintf("Filter: %s (F changes it).", ui.SanitizeLine(filterName(l, w.filter))), d.w))
		}
		if schema.WaitsForParent(schema.Kind(w.kind)) {
			lines = append(lines, ui.Truncate(l.Sprintf("%s are asked once you judge their answer correct.", l.Text(viewOf(schema.Kind(w.kind)).Names().Queue)), d.w))
		}
	}
	lines = append(lines, "", st.Dim.Render(ui.Truncate(l.Sprintf("enter/q home · u undo the last decision"), d.w)))
	if status := e.statusLine(d.w, d.undoing, false); status != "" {
		lines = append(lines, status)
	}
	return strings.Join(lines, "\n")
}
