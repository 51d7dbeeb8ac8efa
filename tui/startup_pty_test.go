//go:build linux || darwin

package tui

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/creack/pty"

	"github.com/annotate-dev/annotate/store"
)

// The report of issue 16: "y Enter 1 2" typed while annotate starts, before
// the terminal is in raw mode, stored category general_legal_research and
// persona civil_officer and left answer_correctness asked: the tty's line
// discipline had turned Enter's CR into LF (^J), which the screen ignored,
// and the digits landed one field early. Here the keys are written to a
// pseudo terminal in its initial (cooked) mode before the program runs, as
// a fast typist does at launch; the program then puts the terminal in raw
// mode and reads them. Each key must land on its field: Enter accepts the
// generated category (factual_recall), 1 is the first persona (citizen),
// 2 the second correctness (partially_correct); then n 3 judge q2 invalid
// for both reasons.
func TestStartupTypeAheadOnPty(t *testing.T) {
	for _, c := range []struct {
		name  string
		kind  string
		typed string
	}{
		{"queue", "qa", "y\r12n3"},
		// From home: enter opens the first queue with work, then the same.
		{"home", "", "\ry\r12n3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := openStore(t)
			seedQA(t, s, 0, 0, 0)
			typeAtLaunch(t, s, Options{Store: s, Annotator: "jo", Kind: c.kind, Client: "test"}, c.typed, func() bool {
				return len(labelsOf(t, s, "q1")) >= 4 && len(labelsOf(t, s, "q2")) >= 2
			})
			want := map[string]string{"answer_correctness": "partially_correct", "category": "factual_recall",
				"persona": "citizen", "question_validity": "valid"}
			if got := labelsOf(t, s, "q1"); !sameMap(got, want) {
				t.Fatalf("q1: %v, want %v", got, want)
			}
			if got, w := labelsOf(t, s, "q2"), map[string]string{"question_validity": "invalid", "invalid_reason": "both"}; !sameMap(got, w) {
				t.Fatalf("q2: %v, want %v", got, w)
			}
			if got := labelsOf(t, s, "q3"); len(got) != 0 {
				t.Fatalf("q3: %v, want nothing", got)
			}
		})
	}
}

// typeAtLaunch writes typed to a pseudo terminal of 100×30 in its initial
// (cooked) mode, then runs the TUI on it until done holds (20 s at most:
// a guard against a hang, it measures nothing), then ends it.
func typeAtLaunch(t *testing.T, s *store.Store, opt Options, typed string, done func() bool) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("no pseudo terminal: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 30, Cols: 100}); err != nil {
		t.Fatal(err)
	}
	// Typed before the program starts: the terminal is still cooked, so
	// the CR of Enter reaches the program as LF.
	if _, err := ptmx.Write([]byte(typed)); err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, ptmx) // the screen's output (and the echo)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ended := make(chan error, 1)
	go func() { ended <- Run(ctx, opt, tea.WithInput(tty), tea.WithOutput(tty), tea.WithoutSignals()) }()
	deadline := time.Now().Add(20 * time.Second)
	for !done() {
		if time.Now().After(deadline) {
			cancel()
			<-ended
			t.Fatalf("after 20 s the keys %q typed at launch have not all been applied", typed)
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-ended; err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v", err)
	}
}
