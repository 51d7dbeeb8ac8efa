package server

import (
	"context"
	"io"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
)

// What a session may have in flight. A flood of keys is read no faster
// than the session works through it: each key may start a command (the
// guidelines pop-up renders its Markdown in one), so the session's input
// waits while maxPendingCommands of its commands have not returned. What is
// not read stays in the SSH channel, whose window (2 MiB) then stops the
// client. A normal session has a clock tick and a store call or two in
// flight.
const (
	maxPendingCommands = 8
	// pendingPatience is how long the input waits for the commands in
	// flight before reading one more event anyway: a command that never
	// returns slows the session's keys to one a second but cannot freeze
	// them.
	pendingPatience = time.Second
)

// commandGate counts a session's commands that have been started (returned
// by Update or Init) and have not returned.
type commandGate struct {
	pending  atomic.Int64
	max      int64
	patience time.Duration
	mu       sync.Mutex
	freed    chan struct{} // closed, and replaced, when a command returns
}

func newCommandGate(max int, patience time.Duration) *commandGate {
	return &commandGate{max: int64(max), patience: patience, freed: make(chan struct{})}
}

func (g *commandGate) start() { g.pending.Add(1) }

func (g *commandGate) done() {
	g.pending.Add(-1)
	g.mu.Lock()
	close(g.freed)
	g.freed = make(chan struct{})
	g.mu.Unlock()
}

// wait returns once fewer than max commands are pending, patience has
// passed, or ctx has ended.
func (g *commandGate) wait(ctx context.Context) {
	var timeout <-chan time.Time
	for g.pending.Load() >= g.max {
		g.mu.Lock()
		freed := g.freed
		g.mu.Unlock()
		if g.pending.Load() < g.max {
			return
		}
		if timeout == nil {
			t := time.NewTimer(g.patience)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case <-freed:
		case <-timeout:
			return
		case <-ctx.Done():
			return
		}
	}
}

// pumpInput reads the session's input, parses it into terminal events as
// Bubble Tea does (the same parser, for the client's TERM) and hands them
// to the program one by one, each after gate lets it. It returns a channel
// closed when the client's input is closed (the session's channel closes
// when its handler returns) and every event read has been dealt with.
//
// Bubble Tea's own reader is not used for the session: it hands each event
// over without looking at the program's end, so a session that ended with
// keys still to deliver left that reader blocked for ever, holding the
// whole program (screens, model, store handles) alive. Program.Send, used
// here, gives up once the program has ended.
func pumpInput(ctx context.Context, in io.Reader, term string, p *tea.Program, gate *commandGate) <-chan struct{} {
	events := make(chan uv.Event)
	done := make(chan struct{})
	reader := uv.NewTerminalReader(in, term)
	go func() {
		defer close(events)
		reader.StreamEvents(ctx, events) // returns once ctx has ended and in is closed
	}()
	go func() {
		defer close(done)
		for ev := range events {
			if ctx.Err() != nil {
				continue // drain: the reader must never block on a send
			}
			gate.wait(ctx)
			p.Send(ev)
		}
	}()
	return done
}

// idleInput is the input Bubble Tea is given: it never has anything to
// read (pumpInput reads the session) and ends with ctx. Input is not
// disabled outright, as then Bubble Tea would not ask the terminal for its
// background colour (the reply comes back through pumpInput).
type idleInput struct{ ctx context.Context }

func (r idleInput) Read([]byte) (int, error) {
	<-r.ctx.Done()
	return 0, io.EOF
}

// cutWriter is a session's output. A write that the client does not take
// within timeout (its SSH window stays full: it stopped reading its
// terminal, though its connection still answers) calls cut, which closes
// the connection, rather than leaving the program blocked on the write
// for ever. The program holds one frame at a time; nothing is queued for
// a client that does not read.
type cutWriter struct {
	w       io.Writer
	timeout time.Duration
	cut     func()
}

func (c *cutWriter) Write(p []byte) (int, error) {
	t := time.AfterFunc(c.timeout, c.cut)
	n, err := c.w.Write(p)
	t.Stop()
	return n, err
}
