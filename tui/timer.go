package tui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// idleCap is the longest gap between two key presses that counts as active
// time (the rule the review screens share).
const idleCap = ui.IdleCap

// activity measures active time. Every key press adds the gap since the
// previous key press (or since work started), capped at idleCap. The time
// gathered since the last decision is the active time of the next label.
type activity struct {
	now     func() time.Time
	last    time.Time     // last key press or start of work
	pending time.Duration // gathered since the last recorded label
	total   time.Duration // active time in this session, for the clock and the break reminder
	running bool
}

// start begins (or resumes) timing, e.g. when an item screen opens; the time
// spent on the home screen is not annotation time.
func (a *activity) start() {
	a.last = a.now()
	a.pending = 0
	a.running = true
}

// stop ends timing (back to home).
func (a *activity) stop() { a.running = false }

// touch records a key press.
func (a *activity) touch() {
	if !a.running {
		return
	}
	t := a.now()
	gap := t.Sub(a.last)
	if gap < 0 {
		gap = 0
	}
	if gap > idleCap {
		gap = idleCap
	}
	a.pending += gap
	a.total += gap
	a.last = t
}

// take returns the active milliseconds of a decision and starts gathering
// the next one's.
func (a *activity) take() int64 {
	ms := a.pending.Milliseconds()
	a.pending = 0
	return ms
}

// giveBack returns the time of a decision that could not be saved, so it
// counts toward the retry.
func (a *activity) giveBack(ms int64) { a.pending += time.Duration(ms) * time.Millisecond }

// drop forgets the time gathered on an item left without a decision (skip),
// so it is not charged to the next item. It still counts in the session.
func (a *activity) drop() { a.pending = 0 }

// session is the active time of this session so far, including the running
// gap up to now (capped).
func (a *activity) session() time.Duration {
	d := a.total
	if a.running {
		gap := a.now().Sub(a.last)
		if gap > idleCap {
			gap = idleCap
		}
		if gap > 0 {
			d += gap
		}
	}
	return d
}

// tickMsg refreshes the session clock.
type tickMsg struct{}

// tickEvery is how often the clock is redrawn (it shows minutes).
const tickEvery = 15 * time.Second

func tick() tea.Cmd {
	return tea.Tick(tickEvery, func(time.Time) tea.Msg { return tickMsg{} })
}

// clock formats a duration as h:mm.
func clock(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	m := int(d / time.Minute)
	return fmt.Sprintf("%d:%02d", m/60, m%60)
}

// breakDue reports whether the break reminder should show: once the
// session's active time reaches next (SessionLimit at first, then
// SessionLimit after each dismissal).
func breakDue(a *activity, next time.Duration) bool {
	return next > 0 && a.session() >= next
}

func msDuration(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }
