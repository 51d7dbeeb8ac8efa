package adjudicate

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/store"
)

// Every store call of the review screens is here, as a tea.Cmd returning a
// typed message: Update never does I/O, and the screens never run SQL.

// unitKey names a review unit across reloads.
type unitKey struct {
	item  int64
	field string
}

func keyOf(u store.AdjudicationUnit) unitKey { return unitKey{u.ItemID, u.Field} }

type reviewLoadedMsg struct {
	seq int
	rev store.Adjudication
	err error
}

// The review's reads wait for an import in progress to be done: they show
// it whole or not at all.
func loadReviewCmd(s *store.Store, q store.AdjudicationQuery, seq int) tea.Cmd {
	return func() tea.Msg {
		if err := s.WaitForWriters(context.Background(), nil); err != nil {
			return reviewLoadedMsg{seq: seq, err: err}
		}
		var rev store.Adjudication
		err := s.Read(func(rx *store.ReadTx) (err error) {
			rev, err = rx.Adjudication(q)
			return err
		})
		return reviewLoadedMsg{seq: seq, rev: rev, err: err}
	}
}

// detailMsg answers loadDetailCmd; seq tells which request it answers and
// walker which screen asked (the adjudication screen or a cell's walker).
type detailMsg struct {
	seq    int
	walker bool
	d      store.AdjudicationDetail
	err    error
}

func loadDetailCmd(s *store.Store, ref store.ItemRef, annotators []string, lead string, walker bool, seq int) tea.Cmd {
	return func() tea.Msg {
		if err := s.WaitForWriters(context.Background(), nil); err != nil {
			return detailMsg{seq: seq, walker: walker, err: err}
		}
		var d store.AdjudicationDetail
		err := s.Read(func(rx *store.ReadTx) (err error) {
			d, err = rx.AdjudicationItem(ref, annotators, lead, walker)
			return err
		})
		return detailMsg{seq: seq, walker: walker, d: d, err: err}
	}
}

// adjudicatedMsg: the lead's final label is committed.
type adjudicatedMsg struct {
	key   unitKey
	ext   string
	value string
	ms    int64 // the active time it carried, given back when it failed
	err   error
}

// adjudicateCmd records the final label with the active time spent on it
// and the review's session, as the annotation screens record a label.
// A write that meets another process's lock (an import) is tried again
// until it goes through: a decision is not given up.
func adjudicateCmd(s *store.Store, lead string, u store.AdjudicationUnit, value string, ms, session int64, allowOwn bool) tea.Cmd {
	return func() tea.Msg {
		l := store.Label{Annotator: lead, ItemID: u.ItemID, Field: u.Field, Value: value,
			Adjudicate: true, ActiveMs: ms, SessionID: session, AllowOwn: allowOwn}
		_, err := s.RecordLabel(l)
		for pause := 50 * time.Millisecond; store.IsBusy(err); pause = min(2*pause, 500*time.Millisecond) {
			time.Sleep(pause)
			_, err = s.RecordLabel(l)
		}
		return adjudicatedMsg{key: keyOf(u), ext: u.ExtID, value: value, ms: ms, err: err}
	}
}

// sessionMsg: the review's session is open (id 0 and err: it could not be).
type sessionMsg struct {
	id  int64
	err error
}

// reviewClient is the client of the lead's review sessions.
const reviewClient = "review"

func startSessionCmd(s *store.Store, lead string) tea.Cmd {
	return func() tea.Msg {
		sess, err := s.StartSession(lead, reviewClient)
		return sessionMsg{id: sess.ID, err: err}
	}
}

type undoneMsg struct {
	evs []store.Event
	err error
}

func undoCmd(s *store.Store, lead string) tea.Cmd {
	return func() tea.Msg {
		evs, err := s.UndoAdjudication(lead)
		return undoneMsg{evs: evs, err: err}
	}
}

type acceptedMsg struct {
	n      int
	held   int  // the lead's own units, left out
	single bool // single labels were accepted too
	ms     int64
	err    error
}

func acceptCmd(s *store.Store, lead string, q store.AdjudicationQuery, o store.AcceptOptions) tea.Cmd {
	return func() tea.Msg {
		a, err := s.AcceptReady(lead, q, o)
		return acceptedMsg{n: a.N, held: a.Held, single: o.Single, ms: o.ActiveMs, err: err}
	}
}

type systemLoadedMsg struct {
	seq int
	rev store.SystemConfusion
	err error
}

func loadSystemCmd(s *store.Store, q store.SystemQuery, seq int) tea.Cmd {
	return func() tea.Msg {
		var rev store.SystemConfusion
		err := s.Read(func(rx *store.ReadTx) (err error) {
			rev, err = rx.SystemDisagreements(q)
			return err
		})
		return systemLoadedMsg{seq: seq, rev: rev, err: err}
	}
}

// noteSavedMsg and flagSavedMsg: the lead's note or flag on an item is committed.
type noteSavedMsg struct {
	item  int64
	field string
	text  string
	err   error
}

func setNoteCmd(s *store.Store, lead string, item int64, field, text string, session int64) tea.Cmd {
	return func() tea.Msg {
		return noteSavedMsg{item: item, field: field, text: text, err: s.SetNote(lead, item, field, text, session)}
	}
}

type flagSavedMsg struct {
	item    int64
	flagged bool
	err     error
}

func setFlagCmd(s *store.Store, lead string, item int64, field string, flagged bool, session int64) tea.Cmd {
	return func() tea.Msg {
		return flagSavedMsg{item: item, flagged: flagged, err: s.SetFlag(lead, item, field, flagged, session)}
	}
}
