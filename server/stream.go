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
// flooded is called (once) when the input holds more than maxWithoutEvent
// bytes that make no event (parseBudget).
//
// Bubble Tea's own reader is not used for the session: it hands each event
// over without looking at the program's end, so a session that ended with
// keys still to deliver left that reader blocked for ever, holding the
// whole program (screens, model, store handles) alive. Program.Send, used
// here, gives up once the program has ended.
func pumpInput(ctx context.Context, in io.Reader, term string, p *tea.Program, gate *commandGate, flooded func()) <-chan struct{} {
	events := make(chan uv.Event)
	done := make(chan struct{})
	budget := newParseBudget(ctx, in, flooded)
	reader := uv.NewTerminalReader(budget, term)
	go func() {
		defer close(events)
		reader.StreamEvents(ctx, events) // returns once ctx has ended and in is closed
	}()
	go func() {
		defer close(done)
		for ev := range events {
			budget.parsed()
			if ctx.Err() != nil {
				continue // drain: the reader must never block on a send
			}
			gate.wait(ctx)
			p.Send(ev)
		}
	}()
	return done
}

// What the input parser may hold. The parser (ultraviolet's TerminalReader)
// waits for more input after an escape and one character (alt+x, or the
// start of a longer sequence) even when more input is already there, and
// decides only once the input has been quiet for its escape timeout (50
// ms). A client typing without a pause thus had it keep all its input, 2
// MiB per session (the SSH window), and then turn it into a million events
// at once: 400 MB for four sessions flooding a mix of keys with the escape
// key among them. So the parser is handed at most maxUnparsed bytes that
// have not come out as events (some 16,000 keys, 1.5 MB of events); then
// the input pauses (parserPause, longer than the escape timeout) so that
// the parser decides. A pause that brings no event means the parser is
// taking the input in without making events of it, byte for byte: a
// bracketed paste, which makes one event when it ends. The input then goes
// on without pauses, but past maxWithoutEvent bytes without one event it
// is a flood, not a terminal's: flooded ends the session.
const (
	maxUnparsed     = 16 << 10
	maxWithoutEvent = 1 << 20
	parserPause     = 2 * uv.DefaultEscTimeout
)

// parseBudget is the session's input as the parser reads it, within the
// budget above.
type parseBudget struct {
	ctx     context.Context
	in      io.Reader
	flooded func()

	unparsed atomic.Int64  // bytes handed over since the last event
	pasting  atomic.Bool   // a pause brought no event
	emerged  chan struct{} // an event came out (1-buffered)
	cut      sync.Once
}

func newParseBudget(ctx context.Context, in io.Reader, flooded func()) *parseBudget {
	return &parseBudget{ctx: ctx, in: in, flooded: flooded, emerged: make(chan struct{}, 1)}
}

func (b *parseBudget) Read(p []byte) (int, error) {
	for b.unparsed.Load() >= maxUnparsed && !b.pasting.Load() && b.ctx.Err() == nil {
		t := time.NewTimer(parserPause)
		select {
		case <-b.emerged: // an event: unparsed is back to 0 (or a stale signal: wait again)
		case <-t.C:
			b.pasting.Store(true)
		case <-b.ctx.Done():
		}
		t.Stop()
	}
	if b.unparsed.Load() > maxWithoutEvent && b.ctx.Err() == nil {
		b.cut.Do(b.flooded)
	}
	n, err := b.in.Read(p[:min(len(p), maxUnparsed)])
	b.unparsed.Add(int64(n))
	return n, err
}

// parsed notes that an event came out of the parser.
func (b *parseBudget) parsed() {
	b.unparsed.Store(0)
	b.pasting.Store(false)
	select {
	case b.emerged <- struct{}{}:
	default:
	}
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
