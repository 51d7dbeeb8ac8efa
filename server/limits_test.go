package server

import (
	"bufio"
	"crypto/ed25519"
	"net"
	"runtime"
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
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > w.peak.Load() {
				w.peak.Store(ms.HeapInuse)
			}
			if ms.HeapInuse > bound {
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

func TestConnectionCaps(t *testing.T) {
	jo := newKey(t)
	f := startWith(t, 1, map[string]gossh.Signer{"jo": jo}, func(c *Config) {
		c.MaxConnections, c.MaxUnauthenticated = 3, 2
	})
	addr := f.srv.Addr().String()
	raw := func() net.Conn {
		t.Helper()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	accepted := func(c net.Conn) bool {
		line, err := banner(c)
		return err == nil && strings.HasPrefix(line, "SSH-2.0-annotate")
	}

	// Two connections that never log in fill the unauthenticated slots.
	idle1, idle2 := raw(), raw()
	if !accepted(idle1) || !accepted(idle2) {
		t.Fatal("the first two connections were not served")
	}
	if third := raw(); accepted(third) {
		t.Fatal("a third unauthenticated connection was served with a cap of 2")
	}
	f.waitLog(t, "too many unauthenticated connections")

	// Once one leaves, an annotator logs in; a logged-in connection frees
	// its unauthenticated slot.
	idle1.Close()
	var c *gossh.Client
	deadline := time.Now().Add(wait)
	for {
		var err error
		if c, err = f.dial(jo); err == nil {
			break
		}
		if time.Now().After(deadline) { // the server notices the close asynchronously
			t.Fatalf("jo could not connect after a slot was freed: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	defer c.Close()
	if idle3 := raw(); !accepted(idle3) {
		t.Fatal("an unauthenticated slot stayed taken by a logged-in connection")
	}
	// idle2, jo and idle3: the connection cap is reached.
	if fourth := raw(); accepted(fourth) {
		t.Fatal("a fourth connection was served with a cap of 3")
	}
	f.waitLog(t, "too many connections")
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
