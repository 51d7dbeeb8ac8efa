package server

import (
	"context"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	gossh "golang.org/x/crypto/ssh"
)

// keyModel starts, for every key, a command that holds a megabyte until
// release lets it return (after hold, or when release is closed). It
// counts the keys it got and the most commands it had running at once.
type keyModel struct {
	keys, running, peak *atomic.Int64
	hold                time.Duration
	release             chan struct{}
}

func (m keyModel) Init() tea.Cmd { return nil }

func (m keyModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.KeyPressMsg); !ok {
		return m, nil
	}
	m.keys.Add(1)
	return m, func() tea.Msg {
		n := m.running.Add(1)
		for p := m.peak.Load(); n > p && !m.peak.CompareAndSwap(p, n); p = m.peak.Load() {
		}
		held := make([]byte, 1<<20)
		select {
		case <-time.After(m.hold):
		case <-m.release:
		}
		m.running.Add(-1)
		return len(held)
	}
}

func (m keyModel) View() tea.View { return tea.NewView("") }

// runKeyModel runs m as a session runs the TUI, its keys read from in.
func runKeyModel(t *testing.T, m keyModel, in io.Reader, gate *commandGate) (cancel func(), pumped <-chan struct{}) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	p := tea.NewProgram(boundedModel{m, ctx, gate}, tea.WithInput(idleInput{ctx}), tea.WithOutput(io.Discard),
		tea.WithContext(ctx), tea.WithoutSignalHandler(), tea.WithWindowSize(80, 24))
	pumped = pumpInput(ctx, in, "xterm-256color", p, gate)
	ran := make(chan struct{})
	go func() { p.Run(); close(ran) }()
	t.Cleanup(func() {
		cancel()
		<-ran
	})
	return cancel, pumped
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s never happened", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Keys are read no faster than the commands they start return: 400 keys
// typed at once, each starting a 10 ms command, never have more than
// maxPendingCommands (+1) commands running. Handed to Bubble Tea as they
// came (the wait in pumpInput removed), 226 ran at once, 226 MB held here.
func TestInputWaitsForCommands(t *testing.T) {
	m := keyModel{keys: &atomic.Int64{}, running: &atomic.Int64{}, peak: &atomic.Int64{}, hold: 10 * time.Millisecond}
	in, typing := io.Pipe()
	cancel, pumped := runKeyModel(t, m, in, newCommandGate(maxPendingCommands, time.Minute))
	go io.WriteString(typing, strings.Repeat("x", 400))
	waitUntil(t, "400 keys delivered", func() bool { return m.keys.Load() == 400 })
	// One more than the limit: a key handed over is taken by the event loop
	// before its Update has started its command, and the next key is
	// checked against the count of then.
	if peak := m.peak.Load(); peak > maxPendingCommands+1 || peak < 2 {
		t.Errorf("%d commands ran at once; want at most %d (and some at once)", peak, maxPendingCommands+1)
	}
	// The pump ends with the session: its context, then its input.
	cancel()
	typing.Close()
	select {
	case <-pumped:
	case <-time.After(wait):
		t.Fatal("the input pump did not end with its session")
	}
}

// A command that never returns slows the keys (one per patience) but does
// not freeze them.
func TestInputIsNotFrozenByStuckCommands(t *testing.T) {
	m := keyModel{keys: &atomic.Int64{}, running: &atomic.Int64{}, peak: &atomic.Int64{}, hold: time.Hour, release: make(chan struct{})}
	defer close(m.release)
	in, typing := io.Pipe()
	defer typing.Close()
	runKeyModel(t, m, in, newCommandGate(2, 100*time.Millisecond))
	began := time.Now()
	go io.WriteString(typing, "xxxxx")
	waitUntil(t, "5 keys delivered", func() bool { return m.keys.Load() == 5 })
	// Two keys at once, then three after 100 ms each.
	if took := time.Since(began); took < 280*time.Millisecond {
		t.Errorf("5 keys with 2 commands stuck were delivered in %v; want about 300 ms", took)
	}
}

// A client that stops reading its terminal while its connection still
// answers (a stopped pager, a client that only types) is disconnected once
// a write has waited Config.WriteTimeout; its annotator may connect again.
func TestClientThatStopsReadingIsCut(t *testing.T) {
	lea := newKey(t)
	f := startWith(t, 0, map[string]gossh.Signer{"lea": lea}, func(c *Config) { c.WriteTimeout = 500 * time.Millisecond },
		func(f *fixture) { seedContexts(t, f.store, 3, longContext) })
	c, err := f.dial(lea)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	w := &stalledWriter{until: "QA pairs", stalled: make(chan struct{}), release: make(chan struct{})}
	defer close(w.release)
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	sess.Stdout, sess.Stderr = w, io.Discard
	in, err := sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", MaxHeight, MaxWidth, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-w.stalled:
	case <-time.After(wait):
		t.Fatal("the home screen never came")
	}
	io.WriteString(in, "\r")
	// Whole new screens of the long context until the 2 MB window is full
	// and a write waits; the server then cuts the connection (some 7 s,
	// 30 s under the race detector, which slows the drawing).
	deadline := time.Now().Add(3 * wait)
	for i := 0; !strings.Contains(f.log.String(), "client stopped reading its terminal"); i++ {
		if sess.WindowChange(MaxHeight, MaxWidth-i%20*7) != nil {
			break // cut
		}
		time.Sleep(time.Second / 60)
		if time.Now().After(deadline) {
			t.Fatal("the client that stopped reading was never cut")
		}
	}
	f.waitLog(t, `msg="client stopped reading its terminal; closing its connection" annotator=lea`)
	f.waitLog(t, "msg=disconnect annotator=lea")
	f.checkSessionsEnded(t, 1)
	again := f.openTerminal(t, lea)
	again.waitFor("QA pairs")
}
