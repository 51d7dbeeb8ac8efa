package server

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// burstLogin logs in with key as an annotator's ssh would, waits for the
// home screen and quits; it says what went wrong instead.
func burstLogin(addr string, host gossh.PublicKey, key gossh.Signer) error {
	c, err := dialAt(addr, host, gossh.PublicKeys(key))
	if err != nil {
		return fmt.Errorf("login: %w", err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		return fmt.Errorf("session: %w", err)
	}
	defer sess.Close()
	out := &syncBuffer{}
	sess.Stdout, sess.Stderr = out, out
	in, err := sess.StdinPipe()
	if err != nil {
		return err
	}
	if err := sess.RequestPty("xterm-256color", 40, 120, gossh.TerminalModes{}); err != nil {
		return fmt.Errorf("pty: %w", err)
	}
	if err := sess.Shell(); err != nil {
		return fmt.Errorf("shell: %w", err)
	}
	ended := make(chan error, 1)
	go func() { ended <- sess.Wait() }()
	term := &terminal{out: out}
	// A generous bound: 40 sessions start at once on a machine that also
	// runs the clients (and, under the race detector, slowly).
	for deadline := time.Now().Add(3 * wait); !strings.Contains(term.screen(), "QA pairs"); time.Sleep(20 * time.Millisecond) {
		select {
		case err := <-ended:
			return fmt.Errorf("the session ended before the home screen (%v): %s", err, tail(term.screen()))
		default:
		}
		if time.Now().After(deadline) {
			return errors.New("no home screen; the screen shows: " + tail(term.screen()))
		}
	}
	io.WriteString(in, "q")
	select {
	case <-ended:
		return nil
	case <-time.After(wait):
		return errors.New("the session did not end after q")
	}
}

// A burst of logins gets in: 40 annotators whose clients start at the same
// moment (a class logging in at the start of a session) all reach their
// home screen with the default limits, and no connection is closed to make
// room for another: every one of them was logging in. Before, connections
// still logging in gave way to newer ones as soon as 8 were under way, so
// 8 of the 40 got in.
func TestBurstOfLoginsGetsIn(t *testing.T) {
	const n = 40
	keys := map[string]gossh.Signer{}
	var names []string
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("annotator%02d", i)
		names = append(names, name)
		keys[name] = newKey(t)
	}
	f := start(t, 1, keys)
	addr, host := f.srv.Addr().String(), f.srv.HostKey()
	var wg sync.WaitGroup
	errs := make([]error, n)
	gun := make(chan struct{})
	began := time.Now()
	for i, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gun
			errs[i] = burstLogin(addr, host, keys[name])
		}()
	}
	close(gun)
	wg.Wait()
	in := 0
	for i, err := range errs {
		if err != nil {
			t.Errorf("%s: %v", names[i], err)
		} else {
			in++
		}
	}
	t.Logf("%d of %d annotators starting together had their screen, all within %v", in, n, time.Since(began).Round(time.Millisecond))
	if evicted := strings.Count(f.log.String(), "closed a connection not logged in"); evicted > 0 {
		t.Errorf("%d connections logging in were closed to make room for others", evicted)
	}
	f.checkSessionsEnded(t, in)
}

// Connections that send their version line and then nothing more (a
// slowloris) hold a login slot only until they have stalled: with twice the
// default budget of them open, an annotator still gets in, and the stalled
// connections, not the annotator's, gave way.
func TestStalledLoginsDoNotLockAnnotatorsOut(t *testing.T) {
	jo := newKey(t)
	f := start(t, 1, map[string]gossh.Signer{"jo": jo})
	raw := rawConns(t, f.srv.Addr().String())
	conns := make([]net.Conn, 2*DefaultMaxUnauthenticated)
	for i := range conns {
		conns[i] = raw()
		go func(c net.Conn) {
			io.WriteString(c, "SSH-2.0-slowloris\r\n")
			banner(c)
		}(conns[i])
	}
	time.Sleep(100 * time.Millisecond)
	began := time.Now()
	term := f.openTerminal(t, jo)
	term.waitFor("QA pairs")
	took := time.Since(began)
	t.Logf("with %d stalled logins open, jo had the screen after %v", len(conns), took.Round(time.Millisecond))
	// The stalled connections give way a budget at a time, each once it
	// has stalled: a correctness bound on loopback, not a speed measure.
	if took > 2*stallTimeout+5*time.Second {
		t.Errorf("with %d stalled logins open, jo waited %v for the screen", len(conns), took)
	}
	f.waitLog(t, `msg="closed a connection not logged in, to make room for a new one" from=`)
	if strings.Contains(f.log.String(), "silent=true") {
		t.Errorf("a connection that had spoken was taken for silent:\n%s", f.log.String())
	}
	term.press("q")
	term.waitEnd()
}
