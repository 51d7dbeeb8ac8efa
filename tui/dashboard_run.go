package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/tui/adjudicate"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// Dashboard starts on the lead's dashboard (`annotate dashboard`). It
// records no session: it writes nothing. With open, a heatmap's enter opens
// review as a screen of the same program, and quitting review comes back
// to the dashboard as it was left; with nil (over SSH, where review is not
// served), the status line names the command instead.
func Dashboard(open ReviewOpener) Screen { return dashboardStart{open} }

// ReviewOpener prepares the review a dashboard panel asks for, as the
// review command would with that field or system: it checks the lead,
// resolves the annotators compared and takes the review's lock. It runs in
// a tea.Cmd (it reads the store); release, when not nil, gives the lock
// back once the review is closed.
type ReviewOpener func(ReviewRequest) (opt adjudicate.Options, release func(), err error)

type dashboardStart struct{ opener ReviewOpener }

func (s dashboardStart) open(e *env) (ui.Child, tea.Cmd) {
	d := newDashboard(e)
	d.openReview = s.opener
	return d, d.refresh()
}

// hostedReview is the review opened from the dashboard: the dashboard to
// come back to (its focus kept) and the lock to give back.
type hostedReview struct {
	dash    *dashboardScreen
	review  *adjudicate.Model
	release func()
}

// reviewReadyMsg is a ReviewOpener's answer.
type reviewReadyMsg struct {
	opt     adjudicate.Options
	release func()
	err     error
}

// reviewClosedMsg: q or esc at the top of the hosted review.
type reviewClosedMsg struct{}

// reviewEndedMsg: the hosted review's session ended and its lock released.
type reviewEndedMsg struct{ err error }

// openReview opens the review a dashboard panel asked for: by preparing it
// (a tea.Cmd: the opener reads the store) when the dashboard has an opener,
// else by saying on the status line which command does.
func (m *Model) openReview(msg dashboardReviewMsg) tea.Cmd {
	d, ok := m.cur.(*dashboardScreen)
	if ok && d.openReview != nil {
		if m.hosted != nil {
			return nil
		}
		open, req := d.openReview, msg.req
		m.e.status = "Opening review…"
		return func() tea.Msg {
			opt, release, err := open(req)
			return reviewReadyMsg{opt, release, err}
		}
	}
	cmd := "annotate review --field " + msg.req.Field
	if req := msg.req; req.System != "" {
		cmd = "annotate review --system " + req.System
		if req.Adjudicated {
			cmd += " --adjudicated"
		} else {
			cmd += " --annotator " + req.Expert
		}
	}
	m.e.status = "Review is not served here: " + ui.SanitizeLine(cmd) + " opens it."
	return nil
}

// reviewReady shows the prepared review over the dashboard, or says why it
// could not be opened.
func (m *Model) reviewReady(msg reviewReadyMsg) tea.Cmd {
	e := m.e
	d, ok := m.cur.(*dashboardScreen)
	if msg.err != nil {
		e.status = "Could not open review: " + msg.err.Error()
		return nil
	}
	if !ok || m.hosted != nil { // the lead moved on meanwhile
		return releaseCmd(msg.release)
	}
	e.status = ""
	opt := msg.opt
	if opt.Store == nil {
		opt.Store = e.store
	}
	if opt.Lead == "" {
		opt.Lead = e.annotator
	}
	if opt.Now == nil {
		opt.Now = e.now
	}
	opt.Back = func() tea.Msg { return reviewClosedMsg{} }
	r := adjudicate.New(opt, e)
	r.SetSize(e.w, e.h)
	m.hosted = &hostedReview{dash: d, review: r, release: msg.release}
	m.cur = r
	return r.Init()
}

// closeReview brings the dashboard back as it was left (focus, layout) and
// reads it again: the review may have changed what it shows. The review's
// session is ended and its lock released in a tea.Cmd.
func (m *Model) closeReview() tea.Cmd {
	h := m.hosted
	if h == nil {
		return nil
	}
	m.hosted = nil
	m.cur = h.dash
	h.dash.SetSize(m.e.w, m.e.h)
	// The session is ended by its id, read here: the review may still
	// hear of it (lateSession) while the command runs.
	s, id, release := m.e.store, h.review.SessionID(), h.release
	if id == 0 {
		// Its session is still being recorded (a busy database): the
		// review hears of it through lateSession, which ends it then.
		m.late = h.review
	}
	end := func() tea.Msg {
		var err error
		if id != 0 {
			err = s.EndSession(id)
		}
		if release != nil {
			release()
		}
		return reviewEndedMsg{err}
	}
	return tea.Batch(end, h.dash.refresh())
}

// lateSession lets a review closed before its session was recorded hear
// the store's answers (nothing it asks is run), and ends the session once
// it has its id.
func (m *Model) lateSession(msg tea.Msg) tea.Cmd {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.MouseMsg, tea.WindowSizeMsg:
		return nil
	}
	r := m.late
	r.Update(msg)
	if r.SessionID() == 0 {
		return nil
	}
	m.late = nil
	s, id := m.e.store, r.SessionID()
	return func() tea.Msg { return reviewEndedMsg{s.EndSession(id)} }
}

// endHosted ends the session of a review still open when the program ends
// and releases its lock (Run, after the program).
func (m *Model) endHosted() error {
	if r := m.late; r != nil {
		m.late = nil
		if err := r.EndSession(); err != nil {
			return err
		}
	}
	h := m.hosted
	if h == nil {
		return nil
	}
	m.hosted = nil
	err := h.review.EndSession()
	if h.release != nil {
		h.release()
	}
	return err
}

// releaseCmd gives back the lock of a review that was not shown.
func releaseCmd(release func()) tea.Cmd {
	if release == nil {
		return nil
	}
	return func() tea.Msg { release(); return nil }
}
