package clock

import (
	"sync"
	"testing"
	"time"
)

func reset() { once, fixed, fixErr = sync.Once{}, time.Time{}, nil; reading.Store(0) }

// ANNOTATE_NOW fixes the clock: the same readings on every run, one
// microsecond apart, so they still increase.
func TestFixedClock(t *testing.T) {
	t.Setenv(Env, "2026-03-02T09:00:00Z")
	reset()
	defer reset()
	if err := Check(); err != nil {
		t.Fatalf("Check %v", err)
	}
	a, b := Now(), Now()
	if want := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC); !a.Equal(want) || b.Sub(a) != time.Microsecond {
		t.Errorf("readings %v, %v; want %v and a microsecond later", a, b, want)
	}
}

func TestBadFixedClock(t *testing.T) {
	t.Setenv(Env, "tomorrow")
	reset()
	defer reset()
	if err := Check(); err == nil || err.Error() != `$ANNOTATE_NOW: want a time such as 2026-03-02T09:00:00Z, got "tomorrow"` {
		t.Errorf("Check: %v", err)
	}
	if time.Since(Now()) > time.Minute {
		t.Error("a bad value fixes the clock")
	}
}

func TestRealClock(t *testing.T) {
	t.Setenv(Env, "")
	reset()
	defer reset()
	if time.Since(Now()) > time.Minute {
		t.Error("the real clock is not the real time")
	}
}
