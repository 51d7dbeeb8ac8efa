package adjudicate

import (
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"

	"github.com/annotate-dev/annotate/adjudication"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// adjScreen is the adjudication view: one review unit at a time. A digit
// commits the final label and moves on to the next undecided unit at once
// (the unit is marked done here); the review is then reloaded in the
// background, since a decision can make other units appear (an entailment
// now asked) or moot (a claim now incorrect).
type adjScreen struct {
	e       *env
	rev     *store.Adjudication
	loadErr error
	loadSeq int
	// want is the unit to show when the reload comes back; with
	// wantPending, the next undecided unit from it on if it is decided.
	want        unitKey
	wantPending bool

	idx       int // into rev.Units; -1: the summary
	detail    *store.AdjudicationDetail
	detailErr error
	detailSeq int
	saving    bool // an adjudication, undo or acceptance is in flight
	confirm   bool // A (or S) asked: waiting for y
	// confirmSingle: S asked, the agreements and the single labels.
	confirmSingle bool
	p             ui.PaneState
	w, h          int
}

func newAdjScreen(e *env) *adjScreen { return &adjScreen{e: e, idx: -1, w: e.w, h: e.h} }

func (a *adjScreen) SetSize(w, h int) { a.w, a.h = w, h }

func (a *adjScreen) reload(want unitKey, pending bool) tea.Cmd {
	a.loadSeq = a.e.nextSeq()
	a.want, a.wantPending = want, pending
	return loadReviewCmd(a.e.store, a.e.query, a.loadSeq)
}

func (a *adjScreen) unit() *store.AdjudicationUnit {
	if a.rev == nil || a.idx < 0 || a.idx >= len(a.rev.Units) {
		return nil
	}
	return &a.rev.Units[a.idx]
}

func (a *adjScreen) curKey() unitKey {
	if u := a.unit(); u != nil {
		return keyOf(*u)
	}
	return unitKey{}
}

func (a *adjScreen) find(k unitKey) int {
	for i, u := range a.rev.Units {
		if keyOf(u) == k {
			return i
		}
	}
	return -1
}

// nextPending is the first undecided unit after from (-1: from the
// start), wrapping around; -1 if none.
func (a *adjScreen) nextPending(from int) int {
	n := len(a.rev.Units)
	for j := 1; j <= n; j++ {
		i := ((from+j)%n + n) % n
		if a.rev.Units[i].State == store.UnitPending {
			return i
		}
	}
	return -1
}

// handle takes the store's answers (routed here by the root).
func (a *adjScreen) handle(msg tea.Msg) tea.Cmd {
	e := a.e
	switch msg := msg.(type) {
	case reviewLoadedMsg:
		if msg.seq != a.loadSeq {
			return nil // an older reload: a newer one is on its way
		}
		if msg.err != nil {
			a.loadErr = msg.err
			return nil
		}
		a.loadErr = nil
		rev := msg.rev
		a.rev = &rev
		return a.locate()
	case adjudicatedMsg:
		a.saving = false
		if msg.err != nil {
			e.act.GiveBack(msg.ms)
			e.fail(msg.err)
			return nil
		}
		l := e.say()
		e.ok("✓ " + l.Sprintf("%s %s → %s  (u undoes)", ui.SanitizeLine(msg.ext), l.Field(msg.key.field), l.Value(msg.key.field, msg.value)))
		i := a.find(msg.key)
		if i >= 0 {
			a.rev.Units[i].Final, a.rev.Units[i].State = msg.value, store.UnitDone
		}
		cmd := a.show(a.nextPending(i))
		want := a.curKey()
		if want == (unitKey{}) {
			want = msg.key
		}
		return tea.Batch(cmd, a.reload(want, true))
	case undoneMsg:
		a.saving = false
		switch {
		case errors.Is(msg.err, store.ErrNothingToUndo):
			e.ok(e.say().Sprintf("Nothing to undo: you have no adjudication left."))
			return nil
		case msg.err != nil:
			e.fail(msg.err)
			return nil
		case len(msg.evs) == 1:
			ev := msg.evs[0]
			l := e.say()
			e.ok(l.Sprintf("Undone: %s %s → %s", ui.SanitizeLine(ev.ItemExtID), l.Field(ev.Field), l.Value(ev.Field, ui.SanitizeLine(ev.Value))))
			return a.reload(unitKey{ev.ItemID, ev.Field}, false)
		}
		e.ok(e.say().Sprintf("Undone: the acceptance of %d agreeing labels.", len(msg.evs)))
		return a.reload(a.curKey(), false)
	case acceptedMsg:
		a.saving = false
		if msg.err != nil {
			e.act.GiveBack(msg.ms)
			e.fail(msg.err)
			return nil
		}
		l := e.say()
		msgText := l.Sprintf("%d agreeing labels accepted as adjudicated (u undoes them all).", msg.n)
		if msg.single {
			msgText = l.Sprintf("%d labels (agreements and single labels) accepted as adjudicated (u undoes them all).", msg.n)
		}
		if msg.held > 0 {
			msgText += " " + l.Sprintf("%d units left for another lead: you labelled them.", msg.held)
		}
		e.ok(msgText)
		return a.reload(a.curKey(), true)
	}
	return nil
}

// locate picks the unit to show after a reload.
func (a *adjScreen) locate() tea.Cmd {
	i := -1
	if a.want != (unitKey{}) {
		i = a.find(a.want)
	}
	switch {
	case i >= 0 && a.wantPending && a.rev.Units[i].State != store.UnitPending:
		i = a.nextPending(i)
	case i < 0 && (a.want == (unitKey{}) || a.wantPending):
		i = a.nextPending(max(-1, min(a.idx, len(a.rev.Units))-1))
	case i < 0:
		i = min(a.idx, len(a.rev.Units)-1) // the unit is gone: stay near
	}
	return a.show(i)
}

// show puts unit i on screen (-1: the summary) and loads its item; the
// item's text stays while only the field changes.
func (a *adjScreen) show(i int) tea.Cmd {
	a.idx = i // a pending confirmation stays: it is about all agreements, not this unit
	u := a.unit()
	if u == nil {
		return nil
	}
	if a.detail == nil || a.detail.ItemID != u.ItemID {
		a.detail, a.detailErr = nil, nil
		a.p.Reset()
	}
	a.detailSeq = a.e.nextSeq()
	return loadDetailCmd(a.e.store, u.ItemRef, a.rev.Annotators, a.e.lead, false, a.detailSeq)
}

func (a *adjScreen) loaded(msg detailMsg) {
	if msg.seq != a.detailSeq {
		return
	}
	if msg.err != nil {
		a.detailErr = msg.err
		return
	}
	d := msg.d
	a.detail, a.detailErr = &d, nil
}

// ready reports whether the unit on screen has its item loaded.
func (a *adjScreen) ready() bool {
	u := a.unit()
	return u != nil && a.detail != nil && a.detail.ItemID == u.ItemID
}

func (a *adjScreen) Update(msg tea.Msg) (ui.Child, tea.Cmd) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return a, nil
	}
	e, k := a.e, a.e.keys
	if a.confirm {
		a.confirm = false
		if keyIs(km, k.Yes) {
			a.saving = true
			return a, acceptCmd(e.store, e.lead, e.query, store.AcceptOptions{Single: a.confirmSingle, Session: e.session, ActiveMs: e.act.Take(), AllowOwn: e.allowOwn})
		}
		e.ok(e.say().Sprintf("Cancelled: nothing accepted."))
		return a, nil
	}
	if a.p.ScrollKey(k, km) {
		return a, nil
	}
	switch {
	case keyIs(km, k.Quit):
		return a, tea.Quit
	case keyIs(km, k.Mode):
		return e.systemView()
	case a.rev == nil:
		return a, nil
	case keyIs(km, k.Undo):
		if a.saving {
			return a, nil
		}
		a.saving = true
		return a, undoCmd(e.store, e.lead)
	case keyIs(km, k.AcceptAll):
		a.askAccept()
		return a, nil
	case keyIs(km, k.AcceptSingle):
		a.askAcceptSingle()
		return a, nil
	case keyIs(km, k.Prev), keyIs(km, k.Next):
		return a, a.move(km)
	case keyIs(km, k.Skip):
		i := a.nextPending(a.idx)
		if i < 0 || i == a.idx {
			e.ok(e.say().Sprintf("No other unit waits for a decision."))
			return a, nil
		}
		return a, a.show(i)
	case keyIs(km, k.Flag) && a.ready():
		return a, setFlagCmd(e.store, e.lead, a.detail.ItemID, a.unit().Field, !a.detail.LeadFlagged, e.session)
	case keyIs(km, k.Note) && a.ready():
		return newNoteInput(e, a, a.detail.ItemRef, a.unit().Field, a.detail.LeadNotes[a.unit().Field]), nil
	}
	return a, a.decide(km)
}

// askAcceptSingle asks before accepting the agreements and the lone labels
// of single-label units that are ready.
func (a *adjScreen) askAcceptSingle() {
	e := a.e
	switch {
	case a.saving:
	case a.rev.ReadySingle > a.rev.Ready:
		a.confirm, a.confirmSingle = true, true
	case a.rev.Singles("") > 0:
		e.ok(e.say().Sprintf("%d single-label units wait for the adjudication of a field they depend on.", a.rev.Singles("")))
	default:
		e.ok(e.say().Sprintf("No single-label unit left to accept."))
	}
}

func (a *adjScreen) askAccept() {
	e := a.e
	switch {
	case a.saving:
	case a.rev.Ready > 0:
		a.confirm, a.confirmSingle = true, false
	case a.rev.Agreeing > 0:
		e.ok(e.say().Sprintf("%d agreements wait for the adjudication of a field they depend on.", a.rev.Agreeing))
	default:
		e.ok(e.say().Sprintf("No agreement left to accept."))
	}
}

func (a *adjScreen) move(km tea.KeyPressMsg) tea.Cmd {
	n := len(a.rev.Units)
	if n == 0 {
		return nil
	}
	i := a.idx + 1
	if keyIs(km, a.e.keys.Prev) {
		i = a.idx - 1
		if a.idx < 0 {
			i = n - 1
		}
	}
	return a.show(min(max(i, 0), n-1))
}

// decide turns a decision key into the final label of the unit on screen.
func (a *adjScreen) decide(km tea.KeyPressMsg) tea.Cmd {
	e, k := a.e, a.e.keys
	if !a.ready() {
		return nil
	}
	u := a.unit()
	f, _ := schema.Lookup(u.Field)
	var v string
	switch {
	case keyIs(km, k.Pick):
		n := int(km.String()[0] - '0')
		if n > len(f.Values) {
			e.ok(e.say().Sprintf("%s has %d values: press 1 to %d.", e.say().Field(f.Name), len(f.Values), len(f.Values)))
			return nil
		}
		v = f.Values[n-1]
	case f.TwoWay && keyIs(km, k.Yes):
		v = f.Values[0]
	case f.TwoWay && keyIs(km, k.No):
		v = f.Values[1]
	default:
		return nil
	}
	switch {
	case a.saving:
		e.ok(e.say().Sprintf("Saving… one moment."))
		return nil
	case u.State == store.UnitMoot:
		e.ok(e.say().Sprintf("Not asked given the adjudicated labels: nothing to decide here."))
		return nil
	case u.Own && !e.allowOwn:
		e.fail(&adjudication.OwnError{Lead: e.lead, Item: u.ExtID, Field: u.Field})
		return nil
	}
	a.saving = true
	return adjudicateCmd(e.store, e.lead, *u, v, e.act.Take(), e.session, e.allowOwn)
}
