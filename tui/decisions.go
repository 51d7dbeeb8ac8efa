package tui

import (
	"time"

	"github.com/annotate-dev/annotate/internal/lang"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// Decisions waiting for the database. A decision key is bound the moment it
// is typed: the flow (step.go) resolves it against the item's committed
// labels and the decisions still waiting, so it names the item and field on
// screen then, whatever the database does afterwards. The decision joins
// the screen's queue of waiting decisions and the screen shows the next
// field at once, the waiting ones marked as not saved yet. The queue is
// written in order, one decision at a time; a write that meets another
// process's lock (SQLITE_BUSY) is tried again, with a growing pause, until
// it goes through: nothing is given up, so no decision is dropped and no
// key moves to another field. While decisions wait, the status line says
// what the screen waits for ("an import (pid 4242) is writing; 3 decisions
// waiting, kept in order, not saved yet"): if the program is killed then,
// the screen said they were not saved.
//
// The queue belongs to the program, not to a screen: a finished item is
// left while its decisions wait, and the next item's keys are bound to its
// fields, unless what the next items ask may depend on a waiting decision
// (an answer judged correct brings its claims next, and a claim is asked
// according to its answer's labels; the missed-claims marker is a label on
// the answer): then the finished item stays on screen until its decisions
// are written, and the keys typed meanwhile wait in the root's type-ahead
// queue, in order, for the item they were typed ahead for. Only decision
// keys (and u, and the keys that move within the item) are resolved while
// decisions wait: a key that leaves the queue or writes something else (a
// note, a flag, skip, go-to, q…) waits until every decision before it is
// written. u takes back the last decision still waiting (its item comes
// back on screen). A write that fails for another reason than a lock (a
// full disk) is not retried: the decisions after it were resolved as if it
// had been written, so none is applied, their items come back, and the
// error line says how many.

// retryPause is the pause before the n-th new try of a write that met a
// lock: 50 ms doubling up to half a second (each try also waits the busy
// timeout, in which SQLite itself polls the lock).
func retryPause(n int) time.Duration {
	const maxRetryPause = 500 * time.Millisecond
	d := 50 * time.Millisecond
	for i := 1; i < n && d < maxRetryPause; i++ {
		d *= 2
	}
	return min(d, maxRetryPause)
}

// pendingOp is one decision typed and not written yet, or what follows
// from one (the missed-claims step closed by enter).
type pendingOp struct {
	d     *itemData   // the item on screen when it was typed
	ev    event       // what it does to that item's flow
	label store.Label // the label written (Field "": nothing to write)
	grade int         // a graded relevance judgment (-1: not one)
	// cancelled: undone (u) while its write was under way; once written it
	// is retracted.
	cancelled bool
	retract   bool // retracts the annotator's latest decision (a cancelled one that was written)
}

func (o *pendingOp) writes() bool { return o.label.Field != "" || o.retract }

// plain reports whether the op is a label written as it is (no grade, no
// retraction, not undone before it was written).
func (o *pendingOp) plain() bool {
	return o.label.Field != "" && !o.retract && o.grade < 0 && !o.cancelled
}

// decision reports whether the op is a decision still to count.
func (o *pendingOp) decision() bool { return o.label.Field != "" && !o.cancelled }

// on reports whether the op belongs to the item shown with d.
func (o *pendingOp) on(d *itemData) bool { return o.d != nil && o.d.ref.ItemID == d.ref.ItemID }

// decisionQueue is the program's decisions waiting, in the order typed.
type decisionQueue struct {
	ops      []*pendingOp
	inflight bool   // the write of the first ops is under way
	batch    int    // how many: the plain decisions that waited are written together
	tries    int    // writes of the first op that met a lock
	seq      int    // the write under way, to match its answer and timers
	slow     bool   // the write under way has waited slowSave
	holder   string // who holds the lock, as last asked ("an import (pid 4242)")
}

// waiting is how many decisions wait (a cancelled one under way no more counts).
func (q *decisionQueue) waiting() int {
	n := 0
	for _, o := range q.ops {
		if o.decision() {
			n++
		}
	}
	return n
}

// waitingFields are the fields of the decisions waiting on item.
func (q *decisionQueue) waitingFields(item int64) map[string]bool {
	out := map[string]bool{}
	for _, o := range q.ops {
		if o.decision() && o.label.ItemID == item {
			out[o.label.Field] = true
		}
	}
	return out
}

// opDoneMsg answers the write of op seq; holder says who holds the lock
// when it met one.
type opDoneMsg struct {
	seq    int
	err    error
	holder string
}

// opRetryMsg: time to try op seq's write again.
type opRetryMsg struct{ seq int }

// holderMsg says who holds the lock op seq waits for.
type holderMsg struct {
	seq    int
	holder string
}

// decisionsMsg tells the screen on show that the queue changed: written are
// the decisions just written (none: e.g. a write met the lock again).
type decisionsMsg struct{ written []*pendingOp }

// lockHolder names the process writing to the database, as a long writer
// records itself ("an import (pid 4242)"), in the annotator's language;
// "" when none said so (the status line then says "another program").
func lockHolder(s *store.Store, l *lang.Printer) string {
	var who string
	s.Read(func(rx *store.ReadTx) error { who = rx.Writing(l); return nil })
	return who
}

// enqueue adds a decision to the queue and starts its write when none is
// under way. A decision is the last action: u undoes it before any skip.
func (e *env) enqueue(op *pendingOp) tea.Cmd {
	e.unrecorded = nil
	e.dec.ops = append(e.dec.ops, op)
	return e.sendOp()
}

// maxBatch bounds the decisions written in one transaction.
const maxBatch = 64

// sendOp starts the write of the first op, if none is under way; an op
// with nothing to write is done on its turn. Plain decisions that waited
// are written together, in one transaction (RecordLabels): once another
// process lets go of the lock, the screen takes it once.
func (e *env) sendOp() tea.Cmd {
	q := &e.dec
	for !q.inflight && len(q.ops) > 0 && !q.ops[0].writes() {
		q.ops = q.ops[1:]
	}
	if q.inflight || len(q.ops) == 0 {
		return nil
	}
	q.inflight, q.slow = true, false
	q.seq++
	e.saves++
	op, st, seq, annotator, l := q.ops[0], e.store, q.seq, e.annotator, e.lang
	q.batch = 1
	var plain []store.Label
	if op.plain() {
		plain = append(plain, op.label)
		for q.batch < len(q.ops) && q.batch < maxBatch && q.ops[q.batch].plain() {
			plain = append(plain, q.ops[q.batch].label)
			q.batch++
		}
	}
	write := func() tea.Msg {
		var err error
		switch {
		case op.retract:
			_, _, err = st.Undo(annotator)
		case op.grade >= 0:
			_, err = st.RecordGradedRelevance(op.label, op.grade)
		case len(plain) == 1:
			_, err = st.RecordLabel(op.label)
		default:
			err = st.RecordLabels(plain)
		}
		m := opDoneMsg{seq: seq, err: err}
		if store.IsBusy(err) {
			m.holder = lockHolder(st, l)
		}
		return m
	}
	return tea.Batch(write, e.slowTimer())
}

// opDone takes the answer of the write under way: the decision written, or
// a new try after a pause, or (another failure) every decision dropped.
// It returns the message for the screen on show.
func (e *env) opDone(msg opDoneMsg) (decisionsMsg, tea.Cmd) {
	q := &e.dec
	if msg.seq != q.seq || !q.inflight || len(q.ops) == 0 {
		return decisionsMsg{}, nil
	}
	q.inflight = false
	op := q.ops[0]
	switch {
	case msg.err == nil:
		done := q.ops[:q.batch]
		q.ops, q.tries, q.slow = q.ops[q.batch:], 0, false
		var written []*pendingOp
		var retracts []*pendingOp
		for _, o := range done {
			switch {
			case o.retract:
			case o.cancelled:
				// Undone while it was being written: retract it now,
				// before anything typed after the undo (the last undone
				// first: a retraction takes back the latest decision).
				retracts = append(retracts, &pendingOp{retract: true, grade: -1})
			default:
				written = append(written, o)
				if o.ev.kind == evMarked {
					o.d.parent[o.label.Field] = o.label.Value
				} else {
					o.d.labels[o.label.Field] = o.label.Value
				}
			}
		}
		q.ops = append(retracts, q.ops...)
		var recount tea.Cmd
		if len(q.ops) == 0 {
			e.err = ""
			if e.work != nil {
				recount = e.work.recount(e) // items left while they waited count now
			}
		}
		return decisionsMsg{written: written}, tea.Batch(e.sendOp(), recount)
	case store.IsBusy(msg.err):
		// Nothing was written: the decisions undone meanwhile go, never
		// written, and the others are tried again.
		kept := q.ops[:0]
		for _, o := range q.ops {
			if !o.cancelled {
				kept = append(kept, o)
			}
		}
		q.ops = kept
		if len(q.ops) == 0 || q.ops[0] != op {
			return decisionsMsg{}, e.sendOp()
		}
		q.tries++
		q.slow = true
		q.holder = msg.holder
		seq := q.seq
		return decisionsMsg{}, tea.Tick(retryPause(q.tries), func(time.Time) tea.Msg { return opRetryMsg{seq: seq} })
	}
	// Another failure: the decisions after it were bound as if it had been
	// written. Their items come back (the one on screen is rebuilt).
	n := q.waiting() - 1
	for _, o := range q.ops {
		e.act.giveBack(o.label.ActiveMs)
		if w := e.work; w != nil && o.d != nil && w.finished[o.d.ref.ItemID] {
			delete(w.finished, o.d.ref.ItemID)
			w.pushBack(o.d.ref)
		}
	}
	q.ops, q.tries, q.slow = nil, 0, false
	e.err = e.lang.Sprintf("Not saved: %s: %s", e.lang.Field(op.label.Field), msg.err.Error())
	if n > 0 {
		e.err += e.lang.Sprintf("; %d decisions typed after it were not applied", n)
	}
	if dropped := e.notApplied(false); dropped != "" {
		e.err += dropped
	} else {
		e.err += "."
	}
	e.err += " " + e.lang.Sprintf("Press the key again to retry.")
	return decisionsMsg{}, nil
}

// retryOp tries the first op's write again.
func (e *env) retryOp(msg opRetryMsg) tea.Cmd {
	if msg.seq != e.dec.seq || e.dec.inflight {
		return nil
	}
	return e.sendOp()
}

// slowOp asks who holds the lock once a write has waited slowSave.
func (e *env) slowOp(msg saveSlowMsg) tea.Cmd {
	q := &e.dec
	if !q.inflight || msg.seq != e.saves {
		return nil
	}
	q.slow = true
	st, seq, l := e.store, q.seq, e.lang
	return func() tea.Msg { return holderMsg{seq: seq, holder: lockHolder(st, l)} }
}

// cancelLast takes back the last decision still waiting (u while decisions
// wait): it leaves the queue, or, if its write is under way, is retracted
// once written; the ops after it with nothing to write go with it. It
// returns the decision taken back (nil: none).
func (e *env) cancelLast() *pendingOp {
	q := &e.dec
	for i := len(q.ops) - 1; i >= 0; i-- {
		o := q.ops[i]
		if !o.decision() {
			continue
		}
		if i < q.batch && q.inflight {
			o.cancelled = true
			q.ops = q.ops[:i+1]
		} else {
			q.ops = q.ops[:i]
		}
		e.act.giveBack(o.label.ActiveMs)
		e.status = e.lang.Sprintf("Undone before it was saved: %s = %s.", e.lang.Field(o.label.Field), ui.SanitizeLine(o.label.Value))
		return o
	}
	return nil
}

// rebuild makes the flow on screen: the committed one, then the decisions
// waiting on this item, in order.
func (s *itemScreen) rebuild() {
	f := s.base
	for _, o := range s.e.dec.ops {
		if o.on(s.d) && !o.cancelled && !o.retract {
			f = f.Apply(o.ev)
		}
	}
	s.flow, s.at = f, f.Next()
}

// enqueue adds a decision on this item and shows the flow after it: the
// next field, or, the item finished, the next item (unless it must wait).
func (s *itemScreen) enqueue(op *pendingOp) (ui.Child, tea.Cmd) {
	cmd := s.e.enqueue(op)
	s.rebuild()
	next, more := s.next()
	return next, tea.Batch(cmd, more)
}

// decisions takes a change of the queue: a decision of this item written
// joins what the screen holds as committed; a finished item is left once
// nothing it waited for waits.
func (s *itemScreen) decisions(msg decisionsMsg) (ui.Child, tea.Cmd) {
	for _, o := range msg.written {
		if o.on(s.d) {
			s.base = s.base.Apply(o.ev)
		}
	}
	s.rebuild()
	if s.complete() && !s.busy() {
		return s.finish()
	}
	return s, nil
}

// undoWaiting takes back the last decision waiting: its item comes back on
// screen (it is this one, or one left while its decisions waited).
func (s *itemScreen) undoWaiting() (ui.Child, tea.Cmd) {
	e := s.e
	o := e.cancelLast()
	if o == nil {
		return s, nil
	}
	if o.on(s.d) {
		s.rebuild()
		return s, nil
	}
	// An item left while it waited: back to it, unfinished again.
	if w := e.work; w != nil && w.finished[o.d.ref.ItemID] {
		delete(w.finished, o.d.ref.ItemID)
		if !w.following[o.d.ref.ItemID] {
			w.done = max(0, w.done-1) // the store's recount may have left it out already
		}
	}
	status := e.status
	next, cmd := e.show(s, o.d, fromUndo)
	e.status = status
	return next, cmd
}

// waitsOnLeaving reports whether the finished item must stay on screen
// until the decisions waiting are written: what the next items ask may
// depend on them (a decision waits on another item than its own screen's,
// the missed-claims marker on the answer; or this item brings its claims
// next).
func (s *itemScreen) waitsOnLeaving() bool {
	e := s.e
	if len(e.dec.ops) == 0 {
		return false
	}
	for _, o := range e.dec.ops {
		if o.decision() && o.d != nil && o.label.ItemID != o.d.ref.ItemID {
			return true
		}
	}
	return e.bringsChildren(s.d, s.flow.labels)
}

// waitsFor reports whether a key must wait in the type-ahead queue: while
// decisions wait, every key but those that decide on the item on screen or
// move within it; and every key while the screen is busy.
func (s *itemScreen) waitsFor(msg tea.KeyPressMsg) bool {
	if s.busy() {
		return true
	}
	if len(s.e.dec.ops) == 0 {
		return false
	}
	k := s.e.keys
	if in, ok := decisionInput(k, msg); ok {
		return in.kind == inAdd // opens an input: it waits
	}
	return !keyIs(msg, k.Undo, k.Focus, k.Close, k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown, k.Check, k.Grade)
}

// Unsaved lists the decisions that wait when the program ends (killed by a
// signal, or left with ctrl+c twice): they were never shown as saved, and
// Run says which they are.
func (m *Model) Unsaved() []string {
	var out []string
	for _, o := range m.e.dec.ops {
		if !o.decision() {
			continue
		}
		ext := o.d.ref.ExtID
		if o.label.ItemID != o.d.ref.ItemID {
			ext = o.d.qa.ID // the marker, on the answer
		}
		out = append(out, ext+" "+o.label.Field+"="+o.label.Value)
	}
	return out
}

// decisionsWait reports whether decisions wait for the database.
func (m *Model) decisionsWait() bool { return len(m.e.dec.ops) > 0 }

// decisionOp is the op of a decision typed on the item screen.
func (s *itemScreen) decisionOp(item int64, field, value string, onAnswer bool) *pendingOp {
	e := s.e
	l := store.Label{
		Annotator: e.annotator, ItemID: item, Field: field, Value: value,
		ActiveMs: e.act.take(), SessionID: e.session,
	}
	// Whatever key made it, a label made with the system's answer on
	// screen was made with a suggestion: anchoring does not need enter.
	if item == s.d.ref.ItemID && s.flow.suggestion(field) != "" {
		l.SuggestedBy = s.d.suggestedBy
	}
	ev := event{kind: evLabelled, field: field, value: value}
	if onAnswer {
		ev = event{kind: evMarked, value: value}
	}
	return &pendingOp{d: s.d, ev: ev, label: l, grade: -1}
}

// gradeOp is the op of a graded relevance judgment (the grade and the
// relevance, in one transaction).
func (s *itemScreen) gradeOp(grade int) *pendingOp {
	op := s.decisionOp(s.d.ref.ItemID, schema.Relevance, schema.NotRelevant, false)
	if grade > 0 {
		op.label.Value, op.ev.value = schema.Relevant, schema.Relevant
	}
	op.grade = grade
	return op
}
