package tui

import (
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// Every store call of the TUI is here, as a tea.Cmd returning a typed
// message: Update never does I/O, and the TUI never runs SQL.

// itemData is everything an annotation screen shows of one item. It is
// loaded in one Cmd (and ahead of need, for the next items of the queue).
// It never holds another annotator's labels, nor system predictions unless
// the annotator asked for one system's (suggested, --suggest).
type itemData struct {
	ref     store.ItemRef
	labels  map[string]string // this annotator's current labels on the item
	parent  map[string]string // … and on its parent item (a claim's answer)
	notes   map[string]string // this annotator's current note per field ("" : the item as a whole)
	flagged bool
	// pairData is what a QA pair or a claim shows of its pair and claims,
	// filled by their kinds' load (kind_claim.go).
	pairData
	// notAsked says why the item asks this annotator nothing although it
	// has fields (a claim of an answer they did not judge correct): the
	// screen shows it read-only. "" : asked.
	notAsked string
	// view is what the store loaded: kinds with screens of their own (query,
	// …) read their item from it.
	view *store.ItemView
	// screen is a kind screen's own state while the item is shown (the
	// relevance screen's search); nil until it makes one.
	screen any
	// suggested are the predictions of the system named by suggestedBy
	// (Options.Suggest) on the item, by field; nil when blind.
	suggested   map[string]string
	suggestedBy string
	// passed are the optional fields passed on this visit (step.go's
	// flow.passed), kept here so that an item shown again by undo keeps
	// the passes u did not take back.
	passed map[string]bool
}

func (d *itemData) kind() schema.Kind { return schema.Kind(d.ref.Kind) }

// loadItem reads one item for one annotator, in the caller's snapshot.
func loadItem(rx *store.ReadTx, l *lang.Printer, annotator, suggest string, ref store.ItemRef) (*itemData, error) {
	var v *store.ItemView
	var suggested map[string]string
	var err error
	if suggest != "" {
		v, suggested, err = rx.LoadSuggestedItemView(annotator, ref.ItemID, suggest)
	} else {
		v, err = rx.ItemView(annotator, ref.ItemID)
	}
	if err != nil {
		return nil, err
	}
	d := &itemData{ref: ref, labels: v.LabelsOf(ref.ItemID), parent: map[string]string{},
		notes: v.FieldNotes, flagged: v.Flagged, notAsked: notAskedWhy(l, annotator, v.NotAsked), view: v,
		suggested: suggested, suggestedBy: suggest}
	if d.notes == nil {
		d.notes = map[string]string{}
	}
	if v.Parent != nil {
		d.parent = v.LabelsOf(v.Parent.ItemID)
	}
	kv, ok := kinds.Lookup(schema.Kind(ref.Kind))
	if !ok {
		return nil, errors.New(l.Sprintf("item %s is a %s item: no screen labels this kind", ref.ExtID, ref.Kind))
	}
	if l, ok := kv.(itemLoader); ok {
		l.load(d, v)
	}
	return d, nil
}

// notAskedWhy says in words why an item is not asked of the annotator,
// from the store's reason ("answer_correctness=incorrect" -> "jo judged
// the answer incorrect"; "answer_correctness unlabelled" -> "jo has not
// judged the answer yet"); "" for "".
func notAskedWhy(l *lang.Printer, who, reason string) string {
	if reason == "" {
		return ""
	}
	who = ui.SanitizeLine(who)
	field, value, judged := strings.Cut(reason, "=")
	if !judged {
		field, _, _ = strings.Cut(reason, " ")
	}
	subject := strings.TrimSuffix(strings.TrimSuffix(field, "_correctness"), "_validity")
	what := "the " + subject
	if k, ok := judgedSubjects[subject]; ok {
		what = l.Text(k)
	} else if l.French() {
		what = l.Field(field)
	}
	if judged {
		v := strings.ReplaceAll(ui.SanitizeLine(value), "_", " ")
		if l.French() {
			v = lowerFirst(l.Value(field, ui.SanitizeLine(value)))
		}
		return l.Sprintf("%s judged %s %s", who, what, v)
	}
	return l.Sprintf("%s has not judged %s yet", who, what)
}

// judgedSubjects names what a parent's field judges, for notAskedWhy, by
// the field's name without its _correctness or _validity.
var judgedSubjects = map[string]string{
	"answer":   lang.Key("the answer"),
	"question": lang.Key("the question"),
	"query":    lang.Key("the query"),
	"claim":    lang.Key("the claim"),
}

// --- messages ---

type sessionStartedMsg struct {
	id  int64
	err error
}

type queueFetchedMsg struct {
	gen     int
	entries []store.QueueEntry
	limit   int
	err     error
}

// positionMsg answers positionCmd: the item's order key and position in
// the queue (in: false when it is not in the queue).
type positionMsg struct {
	gen  int
	item int64
	key  int64
	pos  int
	in   bool
	err  error
}

type queueCountMsg struct {
	gen         int
	done, total int
	hasTotal    bool
	err         error
}

// itemLoadedMsg answers loadItemCmd; seq tells which request it answers.
type itemLoadedMsg struct {
	seq  int
	ref  store.ItemRef
	data *itemData
	err  error
}

// undoneMsg: the annotator's latest decision was retracted; data is the item
// to go back to, reloaded.
type undoneMsg struct {
	ev   store.Event
	data *itemData
	err  error
}

type noteSavedMsg struct {
	item  int64
	field string
	text  string
	err   error
}

type flagSavedMsg struct {
	item    int64
	flagged bool
	err     error
}

// gotoLoadedMsg answers a "go to item" request.
type gotoLoadedMsg struct {
	query string
	data  *itemData
	err   error
	// A queue search's answer (search.go): what the status line says of
	// the match found.
	search bool
	found  string
}

// homeMsg carries the home screen's queues, today's active time and the
// annotator's latest decision (its kind and the batches holding its item).
type homeMsg struct {
	rows        []homeRow
	todayMs     int64
	lastKind    string
	lastBatches []string
	err         error
}

type batchKindMsg struct {
	batch, kind string
	err         error
}

// --- commands ---

// readMsg is a screen's load: load reads everything in one snapshot and
// builds the message; fail is the message when no snapshot could be taken.
func readMsg(s *store.Store, load func(rx *store.ReadTx) tea.Msg, fail func(error) tea.Msg) tea.Msg {
	var msg tea.Msg
	if err := s.Read(func(rx *store.ReadTx) error { msg = load(rx); return nil }); err != nil {
		return fail(err)
	}
	return msg
}

func startSessionCmd(s *store.Store, annotator, client string) tea.Cmd {
	return func() tea.Msg {
		sess, err := s.StartSession(annotator, client)
		return sessionStartedMsg{id: sess.ID, err: err}
	}
}

func fetchQueueCmd(s *store.Store, gen int, q store.QueueQuery) tea.Cmd {
	return func() tea.Msg {
		es, err := store.ReadWith(s, (*store.ReadTx).Queue, q)
		return queueFetchedMsg{gen: gen, entries: es, limit: q.Limit, err: err}
	}
}

func countQueueCmd(s *store.Store, gen int, q store.QueueQuery, withTotal bool) tea.Cmd {
	return func() tea.Msg {
		return readMsg(s, func(rx *store.ReadTx) tea.Msg {
			m := queueCountMsg{gen: gen, hasTotal: withTotal}
			if q.Filter.Active() {
				// The kept counts know nothing of filters: count the queue.
				m.total, m.done, m.err = rx.QueueFilteredCounts(q)
				m.hasTotal = true
				return m
			}
			if withTotal {
				if m.total, m.err = rx.QueueTotal(q); m.err != nil {
					return m
				}
			}
			m.done, m.err = rx.QueueDone(q)
			return m
		}, func(err error) tea.Msg { return queueCountMsg{gen: gen, hasTotal: withTotal, err: err} })
	}
}

// positionCmd finds an item's position in a queue: its order key (asked
// for when not known), then the items between the nearest known position
// (fromKey, fromPos; zero: the start) and it.
func positionCmd(s *store.Store, gen int, q store.QueueQuery, item, key int64, known bool, fromKey int64, fromPos int) tea.Cmd {
	return func() tea.Msg {
		return readMsg(s, func(rx *store.ReadTx) tea.Msg {
			m := positionMsg{gen: gen, item: item, key: key, in: true}
			if !known {
				if m.key, m.in, m.err = rx.QueueKey(q, item); m.err != nil || !m.in {
					return m
				}
			}
			n, err := rx.QueueRank(q, fromKey, m.key)
			m.pos, m.err = fromPos+n, err
			return m
		}, func(err error) tea.Msg { return positionMsg{gen: gen, item: item, key: key, err: err} })
	}
}

func loadItemCmd(s *store.Store, l *lang.Printer, annotator, suggest string, seq int, ref store.ItemRef) tea.Cmd {
	return func() tea.Msg {
		return readMsg(s, func(rx *store.ReadTx) tea.Msg {
			d, err := loadItem(rx, l, annotator, suggest, ref)
			return itemLoadedMsg{seq: seq, ref: ref, data: d, err: err}
		}, func(err error) tea.Msg { return itemLoadedMsg{seq: seq, ref: ref, err: err} })
	}
}

// undoCmd retracts the latest decision and loads the item whose field must
// be asked again: for a missed-claims marker or an added claim, the last
// claim of that answer (its missed-claims step).
func undoCmd(s *store.Store, l *lang.Printer, annotator, suggest string) tea.Cmd {
	return func() tea.Msg {
		var ev store.Event
		var target store.ItemRef
		err := untilWritten(func() (err error) {
			ev, target, err = s.Undo(annotator)
			return err
		})
		if err != nil {
			return undoneMsg{err: err}
		}
		d, err := store.ReadValue(s, func(rx *store.ReadTx) (*itemData, error) { return loadItem(rx, l, annotator, suggest, target) })
		return undoneMsg{ev: ev, data: d, err: err}
	}
}

func setNoteCmd(s *store.Store, annotator string, item int64, field, text string, session int64) tea.Cmd {
	return func() tea.Msg {
		err := untilWritten(func() error { return s.SetNote(annotator, item, field, text, session) })
		return noteSavedMsg{item: item, field: field, text: text, err: err}
	}
}

func setFlagCmd(s *store.Store, annotator string, item int64, field string, flagged bool, session int64) tea.Cmd {
	return func() tea.Msg {
		err := untilWritten(func() error { return s.SetFlag(annotator, item, field, flagged, session) })
		return flagSavedMsg{item: item, flagged: flagged, err: err}
	}
}

// untilWritten runs a write of the screen's own (a note, a flag, an undo,
// an added claim) until it does not meet another process's lock: it is not
// given up, and the screen, busy meanwhile, keeps the keys typed in order
// (decisions have their queue: decisions.go).
func untilWritten(write func() error) error {
	err := write()
	for n := 1; store.IsBusy(err); n++ {
		time.Sleep(retryPause(n))
		err = write()
	}
	return err
}

// gotoCmd finds the item a typed id names (store.FindItems: the exact id,
// else the id ignoring case, else a unique start of an id; else the closest
// id, fuzzyGoto) and loads it. Several: it says which, a few of them.
func gotoCmd(s *store.Store, l *lang.Printer, annotator, suggest, typed string) tea.Cmd {
	const shown = 5
	return func() tea.Msg {
		return readMsg(s, func(rx *store.ReadTx) tea.Msg {
			refs, err := rx.FindItems(typed, shown)
			found := ""
			if err == nil && len(refs) == 0 {
				refs, found, err = fuzzyGoto(rx, l, typed, shown)
			}
			switch {
			case err != nil:
			case len(refs) == 0:
				err = errors.New(l.Sprintf("no item has this id or one close to it"))
			case len(refs) > 1:
				ids := make([]string, 0, shown+1)
				for i, r := range refs {
					if i == shown {
						ids = append(ids, "…")
						break
					}
					ids = append(ids, r.ExtID)
				}
				err = errors.New(l.Sprintf("several items match: %s; type more of the id", strings.Join(ids, ", ")))
			}
			if err != nil {
				return gotoLoadedMsg{query: typed, err: err}
			}
			d, err := loadItem(rx, l, annotator, suggest, refs[0])
			return gotoLoadedMsg{query: typed, data: d, err: err, found: found}
		}, func(err error) tea.Msg { return gotoLoadedMsg{query: typed, err: err} })
	}
}

// homeCmd counts the annotator's queues: every QA pair and claim (or the
// assigned ones), each batch assigned to them or open to everyone, and the
// active time since midnight. It counts with QueueTotal/QueueDone, which stay
// fast on large stores (ReadTx.Progress also sums time over every item).
func homeCmd(s *store.Store, l *lang.Printer, annotator string, now time.Time) tea.Cmd {
	return func() tea.Msg {
		return readMsg(s, func(rx *store.ReadTx) tea.Msg {
			var m homeMsg
			count := func(r *homeRow) error {
				q := store.QueueQuery{Annotator: annotator, Kind: r.kind, Batch: r.batch}
				var err error
				if r.total, err = rx.QueueTotal(q); err != nil {
					return err
				}
				r.done, err = rx.QueueDone(q)
				return err
			}
			m.rows = []homeRow{{title: l.Sprintf("Queues"), header: true}}
			for _, k := range Kinds() {
				m.rows = append(m.rows, homeRow{title: l.Text(viewOf(schema.Kind(k)).Names().Queue), kind: k})
			}
			batches, err := rx.Batches()
			if err != nil {
				return homeMsg{err: err}
			}
			var mine []homeRow
			for _, b := range batches {
				assigned := len(b.Assignees) == 0
				for _, a := range b.Assignees {
					assigned = assigned || a == annotator
				}
				if assigned {
					title := b.Name
					if b.Pilot {
						title += " " + l.Sprintf("(pilot)")
					}
					mine = append(mine, homeRow{title: title, kind: b.Kind, batch: b.Name, pilot: b.Pilot})
				}
			}
			if len(mine) > 0 {
				m.rows = append(m.rows, homeRow{title: l.Sprintf("Batches"), header: true})
				m.rows = append(m.rows, mine...)
			}
			kept := m.rows[:0]
			for _, r := range m.rows {
				if !r.header {
					if err := count(&r); err != nil {
						return homeMsg{err: err}
					}
					// Claims not asked (their answer not judged correct) are
					// counted apart: the queue fills as answers are judged.
					n := 0
					if r.batch == "" && schema.WaitsForParent(schema.Kind(r.kind)) {
						if n, err = rx.KindItems(r.kind); err != nil {
							return homeMsg{err: err}
						}
						r.notAsked = max(0, n-r.total)
					}
					// A kind the database holds nothing of has no queue to show
					// (an empty database shows none: the screen says so).
					if r.batch == "" && r.total+r.done == 0 && n == 0 {
						continue
					}
				}
				kept = append(kept, r)
			}
			m.rows = dropEmptyHeaders(kept)
			last, holding, err := rx.LastWorked(annotator)
			if err != nil {
				return homeMsg{err: err}
			}
			m.lastKind, m.lastBatches = last.Kind, holding
			y, mo, d := now.Date()
			m.todayMs, m.err = rx.ActiveSince(annotator, time.Date(y, mo, d, 0, 0, 0, 0, now.Location()))
			return m
		}, func(err error) tea.Msg { return homeMsg{err: err} })
	}
}

func batchKindCmd(s *store.Store, l *lang.Printer, batch string) tea.Cmd {
	return func() tea.Msg {
		return readMsg(s, func(rx *store.ReadTx) tea.Msg {
			bs, err := rx.Batches()
			if err != nil {
				return batchKindMsg{batch: batch, err: err}
			}
			for _, b := range bs {
				if b.Name == batch {
					return batchKindMsg{batch: batch, kind: b.Kind}
				}
			}
			return batchKindMsg{batch: batch, err: errors.New(l.Sprintf("no batch named %s", batch))}
		}, func(err error) tea.Msg { return batchKindMsg{batch: batch, err: err} })
	}
}
