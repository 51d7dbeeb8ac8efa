package server

import (
	"context"
	"io"
	"net"
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
	ln     net.Listener
	frozen atomic.Bool
	stop   chan struct{}
	mu     sync.Mutex
	conns  []net.Conn
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
			go p.pipe(s, c)
			go p.pipe(c, s)
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

func (p *proxy) pipe(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if p.frozen.Load() {
			<-p.stop
			return
		}
		if n > 0 {
			dst.Write(buf[:n])
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

// longContext (100 kB) fills a 500x300 context pane: resizing the item
// screen back and forth between 500x300 and 200x100 writes some 20 kB a
// resize (2.1 MB for 100, measured).
var longContext = strings.Repeat("Processing shall be lawful only if and to the extent that at least one of the following applies. ", 1000)

// openStalledTerminal opens a 500x300 session whose client stops reading
// once the home screen is drawn, opens the first item (seeded with
// longContext) and resizes it over and over, so that the server has far
// more to write than the SSH window holds.
func openStalledTerminal(t *testing.T, addr string, hostKey gossh.PublicKey, key gossh.Signer) {
	t.Helper()
	c, err := dialAt(addr, hostKey, gossh.PublicKeys(key))
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
	// One resize a frame (Bubble Tea draws at most 60 a second): 200 of
	// them write about twice what the window holds.
	for i := 0; i < 200; i++ {
		if err := sess.WindowChange(MaxHeight-i%2*200, MaxWidth-i%2*300); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second / 60)
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

func TestShutdownEndsSessionsOfVanishedAndStalledClients(t *testing.T) {
	jo, sam := newKey(t), newKey(t)
	f := startWith(t, 0, map[string]gossh.Signer{"jo": jo, "sam": sam}, func(*Config) {},
		func(f *fixture) { seedContexts(t, f.store, 3, longContext) })
	p := startProxy(t, f.srv.Addr().String())
	term := openTerminalAt(t, p.addr(), f.srv.HostKey(), jo, 120, 40)
	term.waitFor("QA pairs")
	term.press("\r")
	term.waitFor("Question number 1")
	term.press("y")
	waitLabels(t, f.store, "jo", 3, 1)
	p.freeze()
	openStalledTerminal(t, f.srv.Addr().String(), f.srv.HostKey(), sam)
	f.waitLog(t, "msg=connect annotator=sam")

	// 10 s is the deadline serve gives itself in all; Shutdown must return
	// within it, having ended both sessions.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	began := time.Now()
	if err := f.srv.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	t.Logf("shutdown took %v", time.Since(began))
	// sam's session could not end by itself: its writes were blocked.
	f.waitLog(t, "closing the connections of sessions that did not end\" sessions_running=1")
	f.checkSessionsEnded(t, 2)
	if got := labelCount(t, f.store, "jo", 3); got != 1 {
		t.Errorf("%d labels after shutdown, want 1", got)
	}
}
