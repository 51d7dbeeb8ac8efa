package tui

import (
	"errors"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store/storetest"

	tea "charm.land/bubbletea/v2"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/adjudicate"
)

// testOpener opens review as the review command does, for the lead "lead":
// every annotator with labels compared (the field's disagreements), or the
// system view against the expert asked for. It records the requests and
// the releases of the review's lock.
type testOpener struct {
	s        *store.Store
	asked    []ReviewRequest
	released int
	err      error
}

func (o *testOpener) open(req ReviewRequest) (adjudicate.Options, func(), error) {
	o.asked = append(o.asked, req)
	if o.err != nil {
		return adjudicate.Options{}, nil, o.err
	}
	opt := adjudicate.Options{Store: o.s, Lead: "lead", Query: store.AdjudicationQuery{Field: req.Field}}
	if req.System != "" {
		opt.System, opt.StartSystem = req.System, true
		opt.Experts = []store.LabelSet{{Annotator: req.Expert, Adjudicated: req.Adjudicated}}
	} else {
		var err error
		if opt.Query.Annotators, err = store.ReadWith(o.s, (*store.ReadTx).ComparedAnnotators, store.AdjudicationQuery{}); err != nil {
			return opt, nil, err
		}
	}
	return opt, func() { o.released++ }, nil
}

// openSessions counts the lead's sessions not ended.
func openSessions(t *testing.T, s *store.Store) int {
	t.Helper()
	var n int
	err := storetest.DB(t, s).QueryRow("SELECT COUNT(*) FROM sessions x JOIN annotators a ON a.id=x.annotator_id WHERE a.name='lead' AND x.ended_at IS NULL").Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// enter on a heatmap opens review as a screen of the same program: the
// annotator × annotator heatmap the adjudication of its field's
// disagreements (the demo's entailment: every third claim), the expert ×
// system heatmap the system view of refchecker against jo. q (or esc) at
// the review's top brings the dashboard back with the focus where it was;
// the program never ends, the review's session is ended and its lock
// released.
func TestDashboardHeatmapOpensReviewInside(t *testing.T) {
	s := dashboardDemo(t)
	o := &testOpener{s: s}
	h := newHarness(t, s, Options{Start: Dashboard(o.open), Annotator: "lead"})
	h.keys("tab", "tab", "tab", "tab", "enter") // annotator × annotator
	if len(o.asked) != 1 || o.asked[0] != (ReviewRequest{Field: "entailment"}) {
		t.Fatalf("asked %+v; want the entailment disagreements", o.asked)
	}
	if _, ok := h.m.cur.(*adjudicate.Model); !ok || h.quit {
		t.Fatalf("enter on the heatmap: screen %T, quit %v\n%s", h.m.cur, h.quit, h.view())
	}
	v := h.view()
	if !strings.Contains(v, "gdpr-001-c3") || !strings.Contains(v, "entailment") {
		t.Errorf("the review is not on the first entailment disagreement (gdpr-001-c3):\n%s", v)
	}
	if got := h.m.View().WindowTitle; got != "annotate review — lead" {
		t.Errorf("window title %q under review", got)
	}
	if openSessions(t, s) != 1 {
		t.Errorf("the review's session is not open")
	}
	h.keys("q")
	d, ok := h.m.cur.(*dashboardScreen)
	if !ok || h.quit {
		t.Fatalf("q at the review's top: screen %T, quit %v\n%s", h.m.cur, h.quit, h.view())
	}
	if d.focus != panelPairs {
		t.Errorf("focus %v after review, want the annotator × annotator panel", d.focus)
	}
	if !strings.Contains(h.view(), "Annotator × annotator") {
		t.Errorf("the dashboard is not drawn:\n%s", h.view())
	}
	if o.released != 1 || openSessions(t, s) != 0 {
		t.Errorf("after review: %d releases (want 1), %d sessions open (want 0)", o.released, openSessions(t, s))
	}

	h.keys("tab", "enter") // expert × system
	if len(o.asked) != 2 || o.asked[1] != (ReviewRequest{System: "refchecker", Expert: "jo"}) {
		t.Fatalf("asked %+v; want refchecker against jo", o.asked)
	}
	if v := h.view(); !strings.Contains(v, "refchecker") || h.quit {
		t.Errorf("the system view is not shown (quit %v):\n%s", h.quit, v)
	}
	h.keys("esc")
	if d, ok := h.m.cur.(*dashboardScreen); !ok || d.focus != panelSystem || h.quit {
		t.Fatalf("esc at the system view: screen %T, quit %v", h.m.cur, h.quit)
	}
	if o.released != 2 {
		t.Errorf("%d releases, want 2", o.released)
	}
}

// Deeper in review q goes back up a level, not to the dashboard: a cell's
// claims (the walker) back to the cells.
func TestDashboardReviewQuitsFromItsTopOnly(t *testing.T) {
	s := dashboardDemo(t)
	o := &testOpener{s: s}
	h := newHarness(t, s, Options{Start: Dashboard(o.open), Annotator: "lead"})
	h.keys("tab", "tab", "tab", "tab", "tab", "enter", "enter") // a cell's claims
	h.keys("q")
	if _, ok := h.m.cur.(*adjudicate.Model); !ok {
		t.Fatalf("q in a cell's claims left review: screen %T\n%s", h.m.cur, h.view())
	}
	h.keys("q")
	if _, ok := h.m.cur.(*dashboardScreen); !ok || h.quit {
		t.Fatalf("q at the cells: screen %T, quit %v", h.m.cur, h.quit)
	}
}

// A review that cannot be opened (no lead named) says why on the
// dashboard's status line and leaves the dashboard up; the program ending
// under an open review ends its session and releases its lock.
func TestDashboardReviewRefusedAndEnded(t *testing.T) {
	s := dashboardDemo(t)
	o := &testOpener{s: s, err: errors.New("review, opened from the dashboard, records decisions as the lead: name yourself with --as NAME")}
	h := newHarness(t, s, Options{Start: Dashboard(o.open), Annotator: "lead"})
	h.send(tea.WindowSizeMsg{Width: 160, Height: 40})
	h.keys("tab", "tab", "tab", "tab", "enter")
	if _, ok := h.m.cur.(*dashboardScreen); !ok || !strings.Contains(h.view(), "Could not open review: review, opened from the dashboard, records") {
		t.Fatalf("refused review: screen %T\n%s", h.m.cur, h.view())
	}
	o.err = nil
	h.keys("enter")
	if _, ok := h.m.cur.(*adjudicate.Model); !ok {
		t.Fatalf("review not opened: %T", h.m.cur)
	}
	h.keys("ctrl+c")
	if !h.quit {
		t.Fatal("ctrl+c under review does not end the program")
	}
	if err := h.m.EndSession(); err != nil {
		t.Fatal(err)
	}
	if o.released != 1 || openSessions(t, s) != 0 {
		t.Errorf("after the program: %d releases (want 1), %d sessions open (want 0)", o.released, openSessions(t, s))
	}
}

// Without an opener (over SSH, where review is not served) the status
// line names the command and the dashboard stays.
func TestDashboardHeatmapNamesReviewWhenNotServed(t *testing.T) {
	s := dashboardDemo(t)
	h := dashboardHarness(t, s)
	h.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	h.keys("tab", "tab", "tab", "tab", "enter")
	if h.quit || !strings.Contains(h.view(), "annotate review --field entailment opens it") {
		t.Errorf("without an opener: quit %v\n%s", h.quit, h.view())
	}
	h = dashboardHarness(t, s)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 40})
	h.keys("tab", "tab", "tab", "tab", "tab", "enter")
	if !strings.Contains(h.view(), "annotate review --system refchecker --annotator jo opens it") {
		t.Errorf("without an opener, the system view:\n%s", h.view())
	}
}

// A review closed before its session was recorded (the database busy)
// still ends that session once it is recorded: nothing is left open.
func TestDashboardReviewClosedBeforeItsSession(t *testing.T) {
	s := dashboardDemo(t)
	o := &testOpener{s: s}
	h := newHarness(t, s, Options{Start: Dashboard(o.open), Annotator: "lead"})
	opt, release, err := o.open(ReviewRequest{Field: "entailment"})
	if err != nil {
		t.Fatal(err)
	}
	_, init := h.m.Update(reviewReadyMsg{opt, release, nil}) // its session not started yet
	h.keys("q")
	if _, ok := h.m.cur.(*dashboardScreen); !ok || o.released != 1 {
		t.Fatalf("q: screen %T, %d releases", h.m.cur, o.released)
	}
	h.run(init) // the session is recorded now, after the review closed
	if n := openSessions(t, s); n != 0 || h.m.late != nil {
		t.Errorf("%d sessions left open (want 0), late %v", n, h.m.late != nil)
	}
}
