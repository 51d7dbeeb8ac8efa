package server

import (
	"context"
	"io"
	"net"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"
)

// proxy forwards TCP connections to a server until frozen: then it drops
// everything and closes nothing, as when a client's network vanishes (no
// FIN, no RST, no answers).
type proxy struct {
	ln       net.Listener
	frozen   atomic.Bool
	toClient atomic.Int64 // bytes forwarded from the server
	stop     chan struct{}
	mu       sync.Mutex
	conns    []net.Conn
}

func startProxy(t *testing.T, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, stop: make(chan struct{})}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, s)
			p.mu.Unlock()
			go p.pipe(s, c, nil)
			go p.pipe(c, s, &p.toClient)
		}
	}()
	t.Cleanup(func() {
		close(p.stop)
		ln.Close()
		p.mu.Lock()
		for _, c := range p.conns {
			c.Close()
		}
		p.mu.Unlock()
	})
	return p
}

func (p *proxy) pipe(dst, src net.Conn, count *atomic.Int64) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if p.frozen.Load() {
			<-p.stop
			return
		}
		if n > 0 {
			dst.Write(buf[:n])
			if count != nil {
				count.Add(int64(n))
			}
		}
		if err != nil {
			dst.Close()
			return
		}
	}
}

func (p *proxy) addr() string { return p.ln.Addr().String() }
func (p *proxy) freeze()      { p.frozen.Store(true) }

// stalledWriter is a terminal that stops reading once it has shown until,
// as a suspended ssh client does: once the SSH window (2 MB) is used up the
// server's writes to it block.
type stalledWriter struct {
	mu      sync.Mutex
	until   string
	got     strings.Builder
	stalled chan struct{} // closed when it stops reading
	release chan struct{}
}

func (w *stalledWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	if strings.Contains(ansi.Strip(w.got.String()), w.until) {
		w.mu.Unlock()
		<-w.release
		return 0, io.ErrClosedPipe
	}
	w.got.Write(p)
	if strings.Contains(ansi.Strip(w.got.String()), w.until) {
		close(w.stalled)
	}
	w.mu.Unlock()
	return len(p), nil
}

// longContext (100 kB) fills a 500x300 context pane: each redraw of the
// item screen at a new width writes some 95 kB.
var longContext = strings.Repeat("Processing shall be lawful only if and to the extent that at least one of the following applies. ", 1000)

// openStalledTerminal opens a 500x300 session whose client stops reading
// once the home screen is drawn, opens the first item (seeded with
// longContext) and resizes it over and over, until the server has sent
// what the SSH window holds, and then some more: the server's writes to it
// then block.
func openStalledTerminal(t *testing.T, addr string, hostKey gossh.PublicKey, key gossh.Signer) {
	t.Helper()
	p := startProxy(t, addr) // to count what the server sent
	c, err := dialAt(p.addr(), hostKey, gossh.PublicKeys(key))
	if err != nil {
		t.Fatal(err)
	}
	w := &stalledWriter{until: "QA pairs", stalled: make(chan struct{}), release: make(chan struct{})}
	t.Cleanup(func() { close(w.release); c.Close() })
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
	// The window is 2 MB; the count includes the encryption's few percent.
	// One resize a frame at most (Bubble Tea draws 60 a second).
	const window = 2 << 20
	deadline := time.Now().Add(wait)
	for i, more := 0, 60; more > 0; i++ {
		// Widths 7 columns apart reflow every line: a whole new screen,
		// whichever resizes a frame takes.
		if err := sess.WindowChange(MaxHeight, MaxWidth-i%20*7); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second / 60)
		if p.toClient.Load() >= window {
			more--
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server sent %d bytes in %d resizes; want %d", p.toClient.Load(), i, window)
		}
	}
}

func TestSecondSessionRefused(t *testing.T) {
	jo := newKey(t)
	f := start(t, 3, map[string]gossh.Signer{"jo": jo})
	first := f.openTerminal(t, jo)
	first.waitFor("QA pairs")

	second := f.openTerminal(t, jo)
	second.waitFor("jo already has a session open")
	second.waitFor("close the other one and connect again")
	if err := second.waitEnd(); err == nil {
		t.Error("the refused session ended with status 0")
	}
	f.waitLog(t, `msg="refused second session" annotator=jo`)

	// The first session carries on, and once it is closed jo may connect.
	first.press("\r")
	first.waitFor("Question number 1")
	first.press("y")
	waitLabels(t, f.store, "jo", 3, 1)
	first.press("q")
	first.press("q")
	first.waitEnd()
	third := f.openTerminal(t, jo)
	third.waitFor("QA pairs")
	third.press("q")
	third.waitEnd()
	f.checkSessionsEnded(t, 2) // the refused one never started
}

func TestVanishedClientIsDisconnected(t *testing.T) {
	jo := newKey(t)
	f := startWith(t, 3, map[string]gossh.Signer{"jo": jo}, func(c *Config) { c.KeepAlive = 200 * time.Millisecond })
	p := startProxy(t, f.srv.Addr().String())
	term := openTerminalAt(t, p.addr(), f.srv.HostKey(), jo, 120, 40)
	term.waitFor("QA pairs")
	term.press("\r")
	term.waitFor("Question number 1")
	term.press("y")
	waitLabels(t, f.store, "jo", 3, 1)
	p.freeze()
	f.waitLog(t, "client stopped answering")
	f.waitLog(t, "msg=disconnect annotator=jo")
	f.checkSessionsEnded(t, 1)
	if got := labelCount(t, f.store, "jo", 3); got != 1 {
		t.Errorf("%d labels, want 1", got)
	}
	// jo's place is free again.
	again := f.openTerminal(t, jo)
	again.waitFor("QA pairs")
}

func TestSecondSessionReplacesAVanishedOne(t *testing.T) {
	jo := newKey(t)
	// A keepalive far away, so that only the second session's probe can
	// notice the vanished client.
	f := startWith(t, 3, map[string]gossh.Signer{"jo": jo}, func(c *Config) { c.KeepAlive = time.Hour },
		func(f *fixture) { f.srv.probe = 200 * time.Millisecond })
	p := startProxy(t, f.srv.Addr().String())
	first := openTerminalAt(t, p.addr(), f.srv.HostKey(), jo, 120, 40)
	first.waitFor("QA pairs")
	first.press("\r")
	first.waitFor("Question number 1")
	first.press("y")
	waitLabels(t, f.store, "jo", 3, 1)
	p.freeze()

	second := f.openTerminal(t, jo)
	second.waitFor("QA pairs")
	f.waitLog(t, `msg="replacing a session whose client stopped answering" annotator=jo`)
	second.press("q")
	second.waitEnd()
	f.checkSessionsEnded(t, 2)
}

func TestShutdownEndsTheSessionOfAVanishedClient(t *testing.T) {
	jo := newKey(t)
	f := start(t, 3, map[string]gossh.Signer{"jo": jo})
	p := startProxy(t, f.srv.Addr().String())
	term := openTerminalAt(t, p.addr(), f.srv.HostKey(), jo, 120, 40)
	term.waitFor("QA pairs")
	term.press("\r")
	term.waitFor("Question number 1")
	term.press("y")
	waitLabels(t, f.store, "jo", 3, 1)
	p.freeze()

	// serve gives Shutdown 8 s; the deadline here is a correctness bound.
	ctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	if err := f.srv.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	f.checkSessionsEnded(t, 1)
	if got := labelCount(t, f.store, "jo", 3); got != 1 {
		t.Errorf("%d labels after shutdown, want 1", got)
	}
}

func TestEndedSessionsReleaseTheirMemory(t *testing.T) {
	jo := newKey(t)
	f := start(t, 3, map[string]gossh.Signer{"jo": jo})
	var ms runtime.MemStats
	for i := 1; i <= 5; i++ {
		term := openTerminalAt(t, f.srv.Addr().String(), f.srv.HostKey(), jo, MaxWidth, MaxHeight)
		term.waitFor("QA pairs")
		term.press("q")
		term.waitEnd()
		term.client.Close()
	}
	runtime.GC()
	runtime.ReadMemStats(&ms)
	// A 500x300 program holds some 16 MB (the last one may still be ending).
	// Before the commands were bounded, every program ended in the last
	// 15 s was still reachable: 86 MB after five, measured.
	t.Logf("heap in use after 5 sessions ended: %d MB", ms.HeapInuse>>20)
	if ms.HeapInuse > 40<<20 {
		t.Errorf("%d MB still in use after 5 sessions ended; ended programs are kept alive", ms.HeapInuse>>20)
	}
}
