// Package clock is the program's wall clock for everything it records and
// shows (label and session times, guidelines versions, "today", the
// dashboard's clock, the active time between keys). It is time.Now, unless
// the environment variable ANNOTATE_NOW fixes it: then every reading is
// that instant plus one microsecond for each reading before it in the
// process, so that the documentation's examples print the same times on
// every run (the examples of README.md and docs/ set it) while times still
// increase, as the log's order and the grouping of one step's events by
// their time need. Durations read from it are then a few microseconds:
// active time and session lengths show as 0s.
package clock

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Env names the variable that fixes the clock.
const Env = "ANNOTATE_NOW"

var (
	once    sync.Once
	fixed   time.Time
	fixErr  error
	reading atomic.Int64
)

func load() {
	once.Do(func() {
		v := os.Getenv(Env)
		if v == "" {
			return
		}
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			fixErr = fmt.Errorf("$%s: want a time such as 2026-03-02T09:00:00Z, got %q", Env, v)
			return
		}
		fixed = t
	})
}

// Check reports a value of ANNOTATE_NOW that is not a time (the commands
// refuse to run with it rather than use the real clock unannounced).
func Check() error {
	load()
	return fixErr
}

// Now is the time: the real one, or the fixed clock's next reading.
func Now() time.Time {
	load()
	if fixed.IsZero() {
		return time.Now()
	}
	return fixed.Add(time.Duration(reading.Add(1)-1) * time.Microsecond)
}
