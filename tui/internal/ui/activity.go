package ui

import "time"

// IdleCap is the longest gap between two key presses that counts as active
// time: a lawyer who walks away for an hour is not working for an hour. The
// annotation screens and the lead's review screens share the rule.
const IdleCap = 5 * time.Minute

// ActiveGap is the active time a gap between two key presses counts for:
// the gap, capped at IdleCap (a clock that went back counts nothing).
func ActiveGap(gap time.Duration) time.Duration { return min(max(gap, 0), IdleCap) }

// Activity gathers the active time of the next decision, key press by key
// press, from Start on.
type Activity struct {
	Now     func() time.Time
	last    time.Time
	pending time.Duration
}

// Start begins gathering, from now.
func (a *Activity) Start() { a.last, a.pending = a.Now(), 0 }

// Touch records a key press: the gap since the previous one (or Start)
// counts, capped.
func (a *Activity) Touch() {
	t := a.Now()
	a.pending += ActiveGap(t.Sub(a.last))
	a.last = t
}

// Take returns the active milliseconds of a decision and starts gathering
// the next one's.
func (a *Activity) Take() int64 {
	ms := a.pending.Milliseconds()
	a.pending = 0
	return ms
}

// GiveBack returns the time of a decision that could not be saved, so it
// counts toward the retry.
func (a *Activity) GiveBack(ms int64) { a.pending += time.Duration(ms) * time.Millisecond }
