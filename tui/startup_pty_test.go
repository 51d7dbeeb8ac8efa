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
	s := openStore(t)
	seedQA(t, s, 0, 0, 0)
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
	if _, err := ptmx.Write([]byte("y\r12n3")); err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, ptmx) // the screen's output (and the echo)

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Store: s, Annotator: "jo", Kind: "qa", Client: "test"},
			tea.WithInput(tty), tea.WithOutput(tty), tea.WithoutSignals())
	}()
	want := map[string]string{"answer_correctness": "partially_correct", "category": "factual_recall",
		"persona": "citizen", "question_validity": "valid"}
	deadline := time.Now().Add(20 * time.Second) // guards against a hang only
	for {
		q1, q2 := labelsOf(t, s, "q1"), labelsOf(t, s, "q2")
		if len(q1) >= 4 && len(q2) >= 2 {
			break
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("after 20 s: q1 %v, q2 %v; want q1 %v and q2 invalid (both)", q1, q2, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v", err)
	}
	if got := labelsOf(t, s, "q1"); !sameMap(got, want) {
		t.Fatalf("q1: %v, want %v", got, want)
	}
	if got, w := labelsOf(t, s, "q2"), map[string]string{"question_validity": "invalid", "invalid_reason": "both"}; !sameMap(got, w) {
		t.Fatalf("q2: %v, want %v", got, w)
	}
	if got := labelsOf(t, s, "q3"); len(got) != 0 {
		t.Fatalf("q3: %v, want nothing", got)
	}
}
