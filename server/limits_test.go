package server

import (
	"bufio"
	"crypto/ed25519"
	"errors"
	"io"
	"net"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// memoryBound is what the whole test process (server and clients) may hold
// in its Go heap while a client asks for a 10000×10000 window. Unclamped, the
// server's screen buffers passed 600 MB within a second and 5 GB within 20 s.
const memoryBound = 300 << 20

// heapWatch samples the heap in use every 20 ms until stopped, and reports
// the largest sample. over is closed as soon as a sample passes the bound,
// so a test can stop before an unclamped server eats the machine.
type heapWatch struct {
	peak atomic.Uint64
	over chan struct{}
	stop chan struct{}
	done chan struct{}
}

func watchHeap(bound uint64) *heapWatch {
	runtime.GC() // start from what is live, not from earlier tests' garbage
	w := &heapWatch{over: make(chan struct{}), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		var once sync.Once
		for {
			inUse := heapInUse()
			if inUse > w.peak.Load() {
				w.peak.Store(inUse)
			}
			if inUse > bound {
				once.Do(func() { close(w.over) })
			}
			select {
			case <-w.stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return w
}

// heapInUse is the heap's spans in use (runtime.MemStats.HeapInuse: the
// objects, live or not yet swept, and the free space of their spans), read
// from runtime/metrics, which does not stop the program.
func heapInUse() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64() + s[1].Value.Uint64()
}

func (w *heapWatch) end() uint64 {
	close(w.stop)
	<-w.done
	return w.peak.Load()
}

func TestHugeWindowIsClamped(t *testing.T) {
	jo := newKey(t)
	f := start(t, 3, map[string]gossh.Signer{"jo": jo})
	watch := watchHeap(memoryBound)
	term := openTerminalAt(t, f.srv.Addr().String(), f.srv.HostKey(), jo, 10000, 10000)
	go func() {
		// Past the bound, end the session (the test then fails at its next
		// wait) so that an unclamped server stops growing.
		select {
		case <-watch.over:
			term.client.Close()
		case <-watch.stop:
		}
	}()
	defer func() {
		peak := watch.end()
		t.Logf("peak heap in use with a 10000x10000 client: %d MB", peak>>20)
		if peak > memoryBound {
			t.Errorf("the heap reached %d MB, over the %d MB bound", peak>>20, memoryBound>>20)
		}
	}()
	term.waitFor("QA pairs")
	term.press("\r")
	term.waitFor("Question number 1")
	// Every resize is clamped too, and each one redraws the screen.
	for i := 0; i < 50; i++ {
		if err := term.sess.WindowChange(10000+i, 10000+i); err != nil {
			t.Fatalf("window change: %v", err)
		}
	}
	term.press("y")
	waitLabels(t, f.store, "jo", 3, 1)
	f.waitLog(t, "msg=connect annotator=jo")
	for _, want := range []string{"width=500 height=300", "asked_width=10000 asked_height=10000"} {
		if !strings.Contains(f.log.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, f.log.String())
		}
	}
}

// banner reads the server's SSH identification line from a raw
// connection, or fails with what happened instead.
func banner(c net.Conn) (string, error) {
	c.SetReadDeadline(time.Now().Add(wait))
	return bufio.NewReader(c).ReadString('\n')
}

// rawConns dials raw TCP connections to a server, closed at the end of the
// test.
func rawConns(t *testing.T, addr string) func() net.Conn {
	return func() net.Conn {
		t.Helper()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
}

// served reads the server's banner from a raw connection.
func served(c net.Conn) bool {
	line, err := banner(c)
	return err == nil && strings.HasPrefix(line, "SSH-2.0-annotate")
}

// closedByServer waits (boundedly) for the server to close a raw
// connection whose banner was read.
func closedByServer(c net.Conn) bool {
	c.SetReadDeadline(time.Now().Add(wait))
	_, err := io.Copy(io.Discard, c) // returns at EOF (or a reset)
	return !errors.Is(err, os.ErrDeadlineExceeded)
}

func TestConnectionCaps(t *testing.T) {
	jo, sam, lea := newKey(t), newKey(t), newKey(t)
	f := startWith(t, 1, map[string]gossh.Signer{"jo": jo, "sam": sam, "lea": lea}, func(c *Config) {
		c.MaxConnections, c.MaxUnauthenticated = 3, 2
	}, func(f *fixture) { f.srv.silentGrace = 100 * time.Millisecond })
	raw := rawConns(t, f.srv.Addr().String())

	// Two connections that never log in fill the unauthenticated slots; a
	// third takes the place of the oldest.
	idle1, idle2 := raw(), raw()
	if !served(idle1) || !served(idle2) {
		t.Fatal("the first two connections were not served")
	}
	idle3 := raw()
	if !served(idle3) {
		t.Fatal("a third connection was not served")
	}
	if !closedByServer(idle1) {
		t.Fatal("the oldest connection not logged in was not closed for the third")
	}
	f.waitLog(t, `msg="closed a connection not logged in, to make room for a new one"`)
	f.waitLog(t, `reason="too many unauthenticated connections (--max-unauthenticated)"`)

	// jo logs in although both slots are taken (idle2 gives way); a
	// logged-in connection frees its unauthenticated slot.
	c, err := f.dial(jo)
	if err != nil {
		t.Fatalf("jo could not log in while two connections sat idle: %v", err)
	}
	defer c.Close()
	if !closedByServer(idle2) {
		t.Fatal("idle2 was not closed for jo")
	}
	// jo and idle3 are open; idle4 fills the last slot, idle5 takes idle3's
	// place (every slot is taken: the oldest not logged in gives way).
	idle4 := raw()
	if !served(idle4) {
		t.Fatal("an unauthenticated slot stayed taken by a logged-in connection")
	}
	idle5 := raw()
	if !served(idle5) || !closedByServer(idle3) {
		t.Fatal("a new connection did not take the place of the oldest not logged in")
	}
	f.waitLog(t, `reason="too many connections (--max-connections)"`)

	// Only logged-in connections may hold every slot: then a new one is
	// refused.
	s, err := f.dial(sam)
	if err != nil {
		t.Fatalf("sam could not log in: %v", err)
	}
	defer s.Close()
	if !closedByServer(idle4) {
		t.Fatal("idle4 was not closed for sam")
	}
	l, err := f.dial(lea)
	if err != nil {
		t.Fatalf("lea could not log in: %v", err)
	}
	defer l.Close()
	if !closedByServer(idle5) {
		t.Fatal("idle5 was not closed for lea")
	}
	if last := raw(); served(last) {
		t.Fatal("a fourth connection was served while three logged-in ones held the slots")
	}
	f.waitLog(t, `msg="refused connection"`)
}

// A connection that sends nothing is closed after the silent timeout; one
// that has sent its version line is not, and a new connection takes the
// place of a silent one before that of one that talks, however old.
func TestSilentConnections(t *testing.T) {
	f := startWith(t, 1, map[string]gossh.Signer{"jo": newKey(t)}, func(c *Config) { c.MaxUnauthenticated = 2 },
		func(f *fixture) { f.srv.silent = 300 * time.Millisecond })
	raw := rawConns(t, f.srv.Addr().String())
	talking := raw()
	if _, err := io.WriteString(talking, "SSH-2.0-test\r\n"); err != nil || !served(talking) {
		t.Fatalf("the talking connection was not served: %v", err)
	}
	silent := raw()
	began := time.Now()
	if !served(silent) || !closedByServer(silent) {
		t.Fatal("a silent connection was not closed")
	}
	took := time.Since(began)
	f.waitLog(t, `msg="closed a connection that sent nothing"`)
	if took < 250*time.Millisecond {
		t.Errorf("the silent connection was closed after %v, before its 300 ms", took)
	}
	// The talking one is still open: a silent newcomer, then another
	// newcomer, which takes the silent one's place rather than the older
	// talking one's.
	silent2 := raw()
	if !served(silent2) {
		t.Fatal("silent2 was not served")
	}
	third := raw()
	if !served(third) || !closedByServer(silent2) {
		t.Fatal("the silent connection did not give way")
	}
	// (The server's key exchange packet may come first: read until a
	// deadline, which an open connection reaches and a closed one does not.)
	talking.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if _, err := io.Copy(io.Discard, talking); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("the talking connection was closed (%v) instead of the silent one", err)
	}
}

func TestRequestLimits(t *testing.T) {
	jo := newKey(t)
	f := start(t, 1, map[string]gossh.Signer{"jo": jo})
	c, err := f.dial(jo)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= maxEnvVars; i++ {
		if err := sess.Setenv("V", "x"); err != nil {
			t.Fatalf("env request %d refused: %v", i, err)
		}
	}
	if err := sess.Setenv("V", "x"); err == nil {
		t.Errorf("env request %d accepted, past the limit of %d", maxEnvVars+1, maxEnvVars)
	}
	other, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Setenv("V", strings.Repeat("x", maxEnvBytes)); err == nil {
		t.Error("an env request over the size limit was accepted")
	}
	// Session channels on one connection: sess and other are open (the
	// most there may be), the next is refused.
	if _, err := c.NewSession(); err == nil || !strings.Contains(err.Error(), "too many sessions on one connection") {
		t.Errorf("session channel %d: %v; want a refusal", maxChannels+1, err)
	}
}

func TestRefusedKeyIsLoggedWithItsFingerprint(t *testing.T) {
	f := start(t, 1, map[string]gossh.Signer{"jo": newKey(t)})
	stranger, err := gossh.NewSignerFromKey(ed25519.NewKeyFromSeed([]byte("annotate serve test: a stranger!")))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.dial(stranger); err == nil {
		t.Fatal("an unknown key got in")
	}
	// As "ssh-keygen -l -f" printed it for this key's public half
	// (ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAILcH0EGObSkCXOHHVovHQ978Ht6vbEYOhU7IDDek+1YT).
	f.waitLog(t, `msg="refused key" fingerprint=SHA256:OaGAfSWRiVaYOPQ/A2jo/7Cn1f/RnQZgjbW4l29/ie0 type=ssh-ed25519`)
}

// Connections that never say a word (a port scanner, or someone holding
// the port) cannot lock annotators out: with 8, then 64, of them open, an
// annotator connects and gets their screen at once. Before, the 8th silent
// connection spent the unauthenticated budget and every login was refused
// until the 30 s handshake timeout closed them.
func TestSilentConnectionsDoNotLockAnnotatorsOut(t *testing.T) {
	jo := newKey(t)
	f := start(t, 1, map[string]gossh.Signer{"jo": jo})
	raw := rawConns(t, f.srv.Addr().String())
	for _, n := range []int{8, 64} {
		conns := make([]net.Conn, n)
		for i := range conns {
			conns[i] = raw()
		}
		for _, c := range conns {
			banner(c) // accepted: served (the last ones) or closed for a newer one
		}
		began := time.Now()
		term := f.openTerminal(t, jo)
		term.waitFor("QA pairs")
		took := time.Since(began)
		t.Logf("with %d silent connections open, jo had the screen after %v", n, took.Round(time.Millisecond))
		if took > 5*time.Second { // a correctness bound on loopback, not a speed measure
			t.Errorf("with %d silent connections open, jo waited %v for the screen", n, took)
		}
		term.press("q")
		term.waitEnd()
		term.client.Close()
		for _, c := range conns {
			c.Close()
		}
	}
}
