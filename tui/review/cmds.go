package review

import (
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/guidelines"
	"github.com/annotate-dev/annotate/store"
)

// Every store call of the review screens is here, as a tea.Cmd returning a
// typed message: Update never does I/O, and the screens never run SQL.

// unitKey names a review unit across reloads.
type unitKey struct {
	item  int64
	field string
}

func keyOf(u store.ReviewUnit) unitKey { return unitKey{u.ItemID, u.Field} }

type reviewLoadedMsg struct {
	seq int
	rev store.Review
	err error
}

func loadReviewCmd(s *store.Store, q store.ReviewQuery, seq int) tea.Cmd {
	return func() tea.Msg {
		rev, err := s.Review(q)
		return reviewLoadedMsg{seq: seq, rev: rev, err: err}
	}
}

// detailMsg answers loadDetailCmd; seq tells which request it answers and
// walker which screen asked (the adjudication screen or a cell's walker).
type detailMsg struct {
	seq    int
	walker bool
	d      store.ReviewDetail
	err    error
}

func loadDetailCmd(s *store.Store, ref store.ItemRef, annotators []string, lead string, walker bool, seq int) tea.Cmd {
	return func() tea.Msg {
		d, err := s.ReviewItem(ref, annotators, lead, walker)
		return detailMsg{seq: seq, walker: walker, d: d, err: err}
	}
}

// adjudicatedMsg: the lead's final label is committed.
type adjudicatedMsg struct {
	key   unitKey
	ext   string
	value string
	err   error
}

func adjudicateCmd(s *store.Store, lead string, u store.ReviewUnit, value string) tea.Cmd {
	return func() tea.Msg {
		_, err := s.RecordLabel(store.Label{Annotator: lead, ItemID: u.ItemID, Field: u.Field, Value: value,
			Adjudicate: true, GuidelinesVersion: guidelines.Version})
		return adjudicatedMsg{key: keyOf(u), ext: u.ExtID, value: value, err: err}
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
	n   int
	err error
}

func acceptCmd(s *store.Store, lead string, q store.ReviewQuery) tea.Cmd {
	return func() tea.Msg {
		n, err := s.AcceptAgreements(lead, q, guidelines.Version)
		return acceptedMsg{n: n, err: err}
	}
}

type systemLoadedMsg struct {
	seq int
	rev store.SystemReview
	err error
}

func loadSystemCmd(s *store.Store, q store.SystemQuery, seq int) tea.Cmd {
	return func() tea.Msg {
		rev, err := s.SystemDisagreements(q)
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

func setNoteCmd(s *store.Store, lead string, item int64, field, text string) tea.Cmd {
	return func() tea.Msg {
		return noteSavedMsg{item: item, field: field, text: text, err: s.SetNote(lead, item, field, text, 0)}
	}
}

type flagSavedMsg struct {
	item    int64
	flagged bool
	err     error
}

func setFlagCmd(s *store.Store, lead string, item int64, field string, flagged bool) tea.Cmd {
	return func() tea.Msg {
		return flagSavedMsg{item: item, flagged: flagged, err: s.SetFlag(lead, item, field, flagged, 0)}
	}
}
