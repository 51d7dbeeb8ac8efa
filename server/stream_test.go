package server

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
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
	pumped = pumpInput(ctx, in, "xterm-256color", p, gate, func() {})
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

// floodKeys are the keys of the flood of the issue: ? y n 1 2 3 u s tab ↑ ↓
// enter q g / esc F m f x.
var floodKeys = []string{"?", "y", "n", "1", "2", "3", "u", "s", "\t", "\x1b[A", "\x1b[B", "\r", "q", "g", "/", "\x1b", "F", "m", "f", "x"}

// keyMix is n bytes of floodKeys but those in except, in a random order of
// the given seed, and how many keys it holds.
func keyMix(seed uint64, n int, except ...string) ([]byte, int) {
	r := rand.New(rand.NewPCG(seed, 27))
	var b bytes.Buffer
	keys := 0
	for b.Len() < n {
		if k := floodKeys[r.IntN(len(floodKeys))]; !slices.Contains(except, k) {
			b.WriteString(k)
			keys++
		}
	}
	return b.Bytes(), keys
}

// inputModel counts the keys and keeps the pastes it gets; it starts no
// command.
type inputModel struct {
	keys   *atomic.Int64
	pastes chan string
}

func (m inputModel) Init() tea.Cmd { return nil }

func (m inputModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		m.keys.Add(1)
	case tea.PasteMsg:
		m.pastes <- msg.Content
	}
	return m, nil
}

func (m inputModel) View() tea.View { return tea.NewView("") }

// pumpInto runs m as a session runs the TUI, its input written by type_
// and then closed; flooded counts the calls of pumpInput's flooded. It
// returns once the input pump has dealt with all of it.
func pumpInto(t *testing.T, m inputModel, type_ func(io.Writer)) (flooded int64) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := tea.NewProgram(m, tea.WithInput(idleInput{ctx}), tea.WithOutput(io.Discard),
		tea.WithContext(ctx), tea.WithoutSignalHandler(), tea.WithWindowSize(80, 24))
	ran := make(chan struct{})
	go func() { p.Run(); close(ran) }()
	defer func() { cancel(); <-ran }()
	in, typing := io.Pipe()
	var cuts atomic.Int64
	pumped := pumpInput(ctx, in, "xterm-256color", p, newCommandGate(maxPendingCommands, time.Second), func() {
		cuts.Add(1)
		in.Close() // as the session's connection is closed
	})
	go func() {
		type_(typing)
		typing.Close()
	}()
	select {
	case <-pumped:
	case <-time.After(3 * wait):
		t.Fatal("the input was never all read")
	}
	return cuts.Load()
}

// Half a megabyte of the flood's keys typed without a pause, escapes
// followed by one character among them, comes out key by key while the
// parser holds at most maxUnparsed bytes of it: the heap grows by some 7
// MB. Handed to the parser as it came, the whole of it waited behind the
// first escape until the input paused and then became 415,000 events at
// once: the heap grew by 47 MB (5 to 52 MB), a hundred bytes a byte typed.
func TestParserHoldsLittleInput(t *testing.T) {
	const parserHeapBound = 16 << 20
	mix, keys := keyMix(1, 512<<10)
	m := inputModel{keys: &atomic.Int64{}, pastes: make(chan string, 1)}
	before := func() uint64 { runtime.GC(); return heapInUse() }()
	watch := watchHeap(^uint64(0))
	flooded := pumpInto(t, m, func(w io.Writer) {
		for b := mix; len(b) > 0; b = b[min(len(b), 32<<10):] { // as SSH packets come
			w.Write(b[:min(len(b), 32<<10)])
		}
	})
	peak := watch.end()
	// An escape and the key after it make one alt+key, so there are fewer
	// events than keys, but most keys are events of their own.
	got := m.keys.Load()
	t.Logf("%d keys typed (%d bytes), %d key events; heap in use %d MB before, %d MB at most", keys, len(mix), got, before>>20, peak>>20)
	if got < int64(keys)*3/4 || got > int64(keys) {
		t.Errorf("%d key events from %d keys", got, keys)
	}
	if flooded != 0 {
		t.Error("keys were taken for a flood")
	}
	if peak > before+parserHeapBound {
		t.Errorf("the heap grew from %d MB to %d MB while the keys were parsed, over the %d MB bound", before>>20, peak>>20, parserHeapBound>>20)
	}
}

// A paste larger than the parser's budget arrives whole; one that never
// ends is cut once maxWithoutEvent bytes made no event, the heap bounded.
func TestPastesAreBounded(t *testing.T) {
	text := strings.Repeat("pasted words ", 300<<10/13)
	m := inputModel{keys: &atomic.Int64{}, pastes: make(chan string, 1)}
	if flooded := pumpInto(t, m, func(w io.Writer) { io.WriteString(w, "\x1b[200~"+text+"\x1b[201~x") }); flooded != 0 {
		t.Error("a paste of 300 KiB was taken for a flood")
	}
	select {
	case got := <-m.pastes:
		if got != text {
			t.Errorf("a paste of %d bytes arrived as %d bytes", len(text), len(got))
		}
	default:
		t.Error("the paste never arrived")
	}
	if m.keys.Load() != 1 {
		t.Errorf("%d keys after the paste, want 1", m.keys.Load())
	}

	before := func() uint64 { runtime.GC(); return heapInUse() }()
	watch := watchHeap(^uint64(0))
	flooded := pumpInto(t, m, func(w io.Writer) {
		io.WriteString(w, "\x1b[200~")
		chunk := []byte(strings.Repeat("a", 32<<10))
		for range 16 << 20 / len(chunk) { // 16 MiB, unless the input is closed first
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	peak := watch.end()
	if flooded != 1 {
		t.Errorf("an endless paste was cut %d times, want once", flooded)
	}
	if peak > before+16<<20 {
		t.Errorf("the heap grew from %d MB to %d MB during an endless paste", before>>20, peak>>20)
	}
}
