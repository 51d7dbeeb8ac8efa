package server

import (
	"github.com/annotate-dev/annotate/store/storetest"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// openCommand opens a terminal session running a command (ssh -t HOST CMD).
func (f *fixture) openCommand(t *testing.T, key gossh.Signer, command string) *terminal {
	t.Helper()
	c, err := f.dial(key)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	term := &terminal{t: t, client: c, sess: sess, out: &syncBuffer{}, done: make(chan struct{})}
	sess.Stdout, sess.Stderr = term.out, term.out
	if term.in, err = sess.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", 40, 120, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if err := sess.Start(command); err != nil {
		t.Fatal(err)
	}
	go func() { term.endErr = sess.Wait(); close(term.done) }()
	return term
}

// `ssh -t HOST dashboard` opens the dashboard for a lead's key, records no
// session, and is refused, saying why, to anyone else.
func TestDashboardOverSSHIsTheLeads(t *testing.T) {
	jo, ana := newKey(t), newKey(t)
	f := start(t, 2, map[string]gossh.Signer{"jo": jo, "ana": ana})
	if _, err := f.store.SetAnnotator(nil, "ana", nil, "", "lead"); err != nil {
		t.Fatal(err)
	}
	term := f.openCommand(t, jo, DashboardCommand)
	if err := term.waitEnd(); err == nil || !strings.Contains(term.screen(), "the dashboard is the lead's: jo does not have the role lead") {
		t.Errorf("jo's dashboard: %v\n%s", err, term.screen())
	}
	term = f.openCommand(t, ana, DashboardCommand)
	term.waitFor("annotate dashboard · ana")
	term.waitFor("Agreement")
	term.press("q")
	if err := term.waitEnd(); err != nil {
		t.Errorf("quitting the dashboard: %v", err)
	}
	spans, err := storetest.Read(t, f.store).SessionSpans("ana")
	if err != nil || len(spans) != 0 {
		t.Errorf("the dashboard recorded sessions %v (%v)", spans, err)
	}
}
