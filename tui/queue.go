package tui

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// Prefetch thresholds: fetch more queue entries when fewer than lowWater are
// buffered, and load the data of the next preloadDepth items ahead, so that
// a keypress never waits on a query.
const (
	fetchSize    = 50
	lowWater     = 10
	preloadDepth = 2
)

// work is the queue being worked through: a kind (and batch), a buffer of
// upcoming entries fetched ahead with store.Queue (QueueEntry.Key is the
// cursor), items to come back to after an undo or a go-to, and the data of
// the next items, loaded ahead.
type work struct {
	kind, batch string
	gen         int // a restarted queue ignores the answers of the old one
	buf         []store.QueueEntry
	after       int64
	exhausted   bool
	fetching    bool
	fetchErr    error
	done, total int
	counted     bool
	back        []store.ItemRef // to come back to, most recent first
	cache       map[int64]*itemData
	preloading  map[int]int64 // seq -> item
	inflight    map[int64]bool
	finished    map[int64]bool // finished in this run (never shown again from the buffer)
	// following are items of another kind brought in by the item before
	// them (an answer's claims after it was judged correct): shown from
	// back, not counted in this queue's done.
	following map[int64]bool
	skipped   int
	// Positions in the queue ("item N of M"): the order key of the items
	// fetched, and the positions known; a position is counted from the
	// nearest known one before it (store.QueueRank), so each count is short.
	keyOf   map[int64]int64 // item -> order key
	pos     map[int64]int   // item -> position, 1-based
	atKey   map[int64]int   // order key -> position
	placing map[int64]bool  // a position count is on its way
	// The queue's search and filter (search.go): the text last searched
	// for, the filter in force, and the items skipped in this run (the
	// store does not record skips; the skipped filter names them).
	term      string
	filter    store.QueueFilter
	skippedIn []int64
}

func newWork(kind, batch string, gen int) *work {
	return &work{kind: kind, batch: batch, gen: gen, cache: map[int64]*itemData{}, preloading: map[int]int64{},
		inflight: map[int64]bool{}, finished: map[int64]bool{}, following: map[int64]bool{},
		keyOf: map[int64]int64{}, pos: map[int64]int{}, atKey: map[int64]int{}, placing: map[int64]bool{}}
}

func (w *work) query(e *env) store.QueueQuery {
	f := w.filter
	if f.Only == store.FilterSkipped {
		f.Items = w.skippedIn
	}
	return store.QueueQuery{Annotator: e.annotator, Kind: w.kind, Batch: w.batch, After: w.after, Limit: fetchSize, Filter: f}
}

// unskip takes back the last skip of item (u after s).
func (w *work) unskip(item int64) {
	w.skipped = max(0, w.skipped-1)
	if i := slices.Index(w.skippedIn, item); i >= 0 {
		w.skippedIn = slices.Delete(w.skippedIn, i, i+1)
	}
}

// undoUnrecorded takes back the last action the store does not record: a
// skip (the item skipped comes back on screen; cur, unfinished, comes back
// after it) or a pass (the optional field is asked again, on its item).
func (e *env) undoUnrecorded(cur *itemScreen) (ui.Child, tea.Cmd) {
	u := e.unrecorded[len(e.unrecorded)-1]
	e.unrecorded = e.unrecorded[:len(e.unrecorded)-1]
	d := u.d
	if u.field != "" {
		d.passed = flow{passed: d.passed}.Apply(event{kind: evUnpassed, field: u.field}).passed
		status := e.lang.Sprintf("Pass undone: %s is asked again.", e.lang.Field(u.field))
		if cur != nil && cur.d.ref.ItemID == d.ref.ItemID {
			cur.base = cur.base.Apply(event{kind: evUnpassed, field: u.field})
			cur.rebuild()
			e.status = status
			return cur, nil
		}
		next, cmd := e.show(cur, d, fromUndo)
		e.status = status
		return next, cmd
	}
	if e.work != nil {
		e.work.unskip(d.ref.ItemID)
	}
	next, cmd := e.show(cur, d, fromUndo)
	e.status = e.lang.Sprintf("Skip undone: back to %s.", ui.SanitizeLine(d.ref.ExtID))
	return next, cmd
}

// noteSkipped counts an item passed over and keeps it for the skipped
// filter.
func (w *work) noteSkipped(item int64) {
	w.skipped++
	if !slices.Contains(w.skippedIn, item) {
		w.skippedIn = append(w.skippedIn, item)
	}
}

// startWork opens a queue and returns the screen waiting for its first item.
func (e *env) startWork(kind, batch string) (ui.Child, tea.Cmd) {
	gen := 1
	if e.work != nil {
		gen = e.work.gen + 1
	}
	e.work, e.unrecorded = newWork(kind, batch, gen), nil
	e.lastKind, e.lastBatch = kind, batch
	e.act.start()
	w := e.work
	w.fetching = true
	title := e.lang.Sprintf("Loading the %s queue…", kindName(e.lang, kind))
	return newLoading(e, store.ItemRef{}, title), tea.Batch(
		fetchQueueCmd(e.store, w.gen, w.query(e)),
		countQueueCmd(e.store, w.gen, w.query(e), true),
	)
}

// restart walks the queue again from its beginning (skipped items).
func (e *env) restartWork() (ui.Child, tea.Cmd) {
	w := e.work
	nw := newWork(w.kind, w.batch, w.gen+1)
	nw.done, nw.total, nw.counted = w.done, w.total, w.counted
	nw.term, nw.filter, nw.skippedIn = w.term, w.filter, w.skippedIn
	e.work = nw
	nw.fetching = true
	return newLoading(e, store.ItemRef{}, e.lang.Sprintf("Loading the %s queue…", kindName(e.lang, w.kind))),
		fetchQueueCmd(e.store, nw.gen, nw.query(e))
}

// handle takes the answer to a queue fetch or count.
func (w *work) handle(e *env, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case queueFetchedMsg:
		if msg.gen != w.gen {
			return nil
		}
		w.fetching = false
		if msg.err != nil {
			w.fetchErr = msg.err
			return nil
		}
		w.fetchErr = nil
		w.buf = append(w.buf, msg.entries...)
		for _, q := range msg.entries {
			w.keyOf[q.ItemID] = q.Key
		}
		if n := len(msg.entries); n > 0 {
			w.after = msg.entries[n-1].Key
		}
		if len(msg.entries) < msg.limit {
			w.exhausted = true
		}
		return w.preload(e)
	case positionMsg:
		delete(w.placing, msg.item)
		if msg.gen != w.gen || msg.err != nil || !msg.in {
			return nil
		}
		w.keyOf[msg.item], w.pos[msg.item], w.atKey[msg.key] = msg.key, msg.pos, msg.pos
	case queueCountMsg:
		if msg.gen != w.gen || msg.err != nil {
			return nil
		}
		w.done = msg.done
		if msg.hasTotal {
			w.total = msg.total
		}
		w.counted = true
	}
	return nil
}

// place asks for the position of an item of the queue's kind, unless it is
// known or on its way.
func (w *work) place(e *env, d *itemData) tea.Cmd {
	id := d.ref.ItemID
	if d.ref.Kind != w.kind || w.placing[id] {
		return nil
	}
	if _, ok := w.pos[id]; ok {
		return nil
	}
	w.placing[id] = true
	key, known := w.keyOf[id]
	var fromKey int64
	fromPos := 0
	if known {
		for k, p := range w.atKey {
			if k <= key && k > fromKey {
				fromKey, fromPos = k, p
			}
		}
	}
	return positionCmd(e.store, w.gen, w.query(e), id, key, known, fromKey, fromPos)
}

// fetch asks for more entries when the buffer runs low.
func (w *work) fetch(e *env) tea.Cmd {
	if w.fetching || w.exhausted || len(w.buf) >= lowWater {
		return nil
	}
	w.fetching = true
	return fetchQueueCmd(e.store, w.gen, w.query(e))
}

// recount refreshes the done count (after an item is finished or undone).
func (w *work) recount(e *env) tea.Cmd {
	return countQueueCmd(e.store, w.gen, w.query(e), false)
}

// upcoming lists the next n items that would be shown.
func (w *work) upcoming(n int) []store.ItemRef {
	var out []store.ItemRef
	for _, r := range w.back {
		if len(out) == n {
			return out
		}
		out = append(out, r)
	}
	for _, q := range w.buf {
		if len(out) == n {
			break
		}
		if !w.finished[q.ItemID] {
			out = append(out, q.ItemRef)
		}
	}
	return out
}

// preload loads the data of the next items ahead of need.
func (w *work) preload(e *env) tea.Cmd {
	var cmds []tea.Cmd
	for _, r := range w.upcoming(preloadDepth) {
		if w.cache[r.ItemID] != nil || w.inflight[r.ItemID] {
			continue
		}
		seq := e.nextSeq()
		w.preloading[seq] = r.ItemID
		w.inflight[r.ItemID] = true
		cmds = append(cmds, loadItemCmd(e.store, e.lang, e.annotator, e.suggest, seq, r))
	}
	return tea.Batch(cmds...)
}

// loaded files preloaded data in the cache.
func (w *work) loaded(msg itemLoadedMsg) {
	id, ok := w.preloading[msg.seq]
	if !ok {
		return
	}
	delete(w.preloading, msg.seq)
	delete(w.inflight, id)
	if msg.err == nil && msg.data != nil {
		w.cache[id] = msg.data
	}
}

// forget drops preloaded data: after an undo or a go-to, labels may have
// changed under it.
func (w *work) forget() {
	w.cache = map[int64]*itemData{}
	for seq := range w.preloading {
		delete(w.preloading, seq)
	}
	w.inflight = map[int64]bool{}
}

// pop takes the next item to show.
func (w *work) pop() (store.ItemRef, bool) {
	if n := len(w.back); n > 0 {
		r := w.back[0]
		w.back = w.back[1:]
		return r, true
	}
	for len(w.buf) > 0 {
		q := w.buf[0]
		w.buf = w.buf[1:]
		if !w.finished[q.ItemID] {
			return q.ItemRef, true
		}
	}
	return store.ItemRef{}, false
}

// pushBack keeps an unfinished item to come back to.
func (w *work) pushBack(r store.ItemRef) {
	for _, b := range w.back {
		if b.ItemID == r.ItemID {
			return
		}
	}
	w.back = append([]store.ItemRef{r}, w.back...)
}

// follow puts items to show next, in order, before anything else: an
// answer's claims once it is judged correct.
func (w *work) follow(refs []store.ItemRef) {
	var front []store.ItemRef
	for _, r := range refs {
		if w.finished[r.ItemID] {
			continue
		}
		front = append(front, r)
		if r.Kind != w.kind {
			w.following[r.ItemID] = true
		}
	}
	rest := w.back[:0:0]
	for _, b := range w.back {
		if !slices.ContainsFunc(front, func(r store.ItemRef) bool { return r.ItemID == b.ItemID }) {
			rest = append(rest, b)
		}
	}
	w.back = append(front, rest...)
}

// claimsNext: an answer just judged so that its claims are asked (correct)
// brings them next, then (on the last one) its missed-claims step, then
// the next item of the queue, unless claims wait in their own queue
// (Options.ClaimsLater). Claims with nothing left to ask pass by unseen.
func (e *env) claimsNext(d *itemData, labels map[string]string) {
	if e.bringsChildren(d, labels) {
		e.work.follow(d.claims)
	}
}

// bringsChildren reports whether the item, with these labels, brings its
// children next (claimsNext).
func (e *env) bringsChildren(d *itemData, labels map[string]string) bool {
	if e.claimsLater || e.work == nil || len(d.claims) == 0 {
		return false
	}
	for _, k := range schema.Children(d.kind()) {
		if !schema.WaitsForParent(k) {
			continue
		}
		ok, _ := schema.Offered(k, labels, false)
		return ok
	}
	return false
}

// hasWork reports whether an item has something left to ask.
func hasWork(d *itemData) bool { return newFlow(d, nil).Next().kind != stepDone }

// advance shows the next item of the queue: from the preloaded data when it
// is there (no waiting), else through a loading screen.
func (e *env) advance() (ui.Child, tea.Cmd) {
	w := e.work
	if w == nil {
		return e.goHome()
	}
	for {
		ref, ok := w.pop()
		if !ok {
			if w.exhausted {
				d := newDone(e)
				d.SetSize(e.w, e.h)
				return d, nil
			}
			l := newLoading(e, store.ItemRef{}, e.lang.Sprintf("Loading the next items…"))
			l.SetSize(e.w, e.h)
			return l, w.fetch(e)
		}
		if d := w.cache[ref.ItemID]; d != nil {
			delete(w.cache, ref.ItemID)
			if !hasWork(d) {
				w.finished[ref.ItemID] = true
				continue
			}
			s, place := e.open(d, fromQueue)
			return s, tea.Batch(place, w.fetch(e), w.preload(e))
		}
		l := newLoading(e, ref, e.lang.Sprintf("Loading %s…", ui.SanitizeLine(ref.ExtID)))
		l.SetSize(e.w, e.h)
		var load tea.Cmd
		if !w.inflight[ref.ItemID] {
			load = loadItemCmd(e.store, e.lang, e.annotator, e.suggest, e.nextSeq(), ref)
		}
		return l, tea.Batch(load, w.fetch(e))
	}
}

// show opens an item out of queue order (undo, go-to), keeping the current
// one to come back to when it is not finished.
func (e *env) show(cur *itemScreen, d *itemData, o origin) (ui.Child, tea.Cmd) {
	if e.work == nil {
		e.work = newWork(d.ref.Kind, "", 1)
		e.lastKind, e.lastBatch = d.ref.Kind, ""
		e.act.start()
		s, place := e.open(d, o)
		return s, tea.Batch(place, e.work.fetch(e), countQueueCmd(e.store, e.work.gen, e.work.query(e), true))
	}
	if cur != nil && !cur.complete() && cur.d.ref.ItemID != d.ref.ItemID {
		e.work.pushBack(cur.d.ref)
	}
	return e.open(d, o)
}

// open puts an item on screen (its kind's own screen, if it has one) and
// asks for its position in the queue.
func (e *env) open(d *itemData, o origin) (ui.Child, tea.Cmd) {
	var s ui.Child
	var cmd tea.Cmd
	if v, ok := viewOf(d.kind()).(ownScreen); ok {
		s, cmd = v.screen(e, d, o)
	} else {
		s = newItemScreen(e, d, o)
	}
	s.SetSize(e.w, e.h)
	if e.work == nil {
		return s, cmd
	}
	return s, tea.Batch(cmd, e.work.place(e, d))
}

// goHome leaves the queue (nothing to save: every decision is committed).
func (e *env) goHome() (ui.Child, tea.Cmd) {
	e.work, e.unrecorded = nil, nil
	e.act.stop()
	h := newHome(e)
	h.SetSize(e.w, e.h)
	return h, h.refresh()
}

// kindName is how the screens name a kind's queue ("the QA queue"), in l.
func kindName(l *lang.Printer, kind string) string {
	return l.Text(viewOf(schema.Kind(kind)).Names().Noun)
}
