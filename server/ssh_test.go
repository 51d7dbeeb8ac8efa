package server

import (
	"context"
	"github.com/annotate-dev/annotate/store/storetest"
	"maps"
	"os"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// labelQueue goes from the home screen into the QA queue and labels every
// item y 1 1 1, waiting after each key until its decision is in the
// database, then quits.
func labelQueue(t *testing.T, f *fixture, term *terminal, annotator string, nQA int) {
	term.waitFor("QA pairs") // the home screen has loaded the queues
	term.press("\r")
	term.waitFor("Question number 1")
	n := 0
	for i := 0; i < nQA; i++ {
		for _, k := range []string{"y", "1", "1", "1"} {
			term.press(k)
			n++
			waitLabels(t, f.store, annotator, nQA, n)
		}
	}
	term.waitFor("Nothing left in this queue")
	term.press("q")
	term.press("q")
	if err := term.waitEnd(); err != nil {
		t.Errorf("%s: session ended with %v", annotator, err)
	}
}

func TestTwoAnnotatorsLabelAtOnce(t *testing.T) {
	jo, sam := newKey(t), newKey(t)
	f := start(t, 3, map[string]gossh.Signer{"jo": jo, "sam": sam})
	// Parallel subtests run both sessions at once, and the group returns
	// when both are done.
	t.Run("sessions", func(t *testing.T) {
		for name, key := range map[string]gossh.Signer{"jo": jo, "sam": sam} {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				labelQueue(t, f, f.openTerminal(t, key), name, 3)
			})
		}
	})
	want := map[string]string{"question_validity": "valid", "category": "general_legal_research",
		"persona": "citizen", "answer_correctness": "correct"}
	for _, name := range []string{"jo", "sam"} {
		if got := labelCount(t, f.store, name, 3); got != 12 {
			t.Errorf("%s has %d labels, want 12", name, got)
		}
		ref, _ := storetest.Read(t, f.store).Resolve("q3")
		got, err := storetest.Read(t, f.store).CurrentLabels(name, ref.ItemID)
		if err != nil || !maps.Equal(got, want) {
			t.Errorf("%s's labels of q3: %v (%v), want %v", name, got, err, want)
		}
	}
	f.checkSessionsEnded(t, 2)
	for _, want := range []string{"msg=connect annotator=jo", "msg=connect annotator=sam", "msg=disconnect annotator=jo", "msg=disconnect annotator=sam"} {
		f.waitLog(t, want)
	}
}

func TestUnknownKeyRefused(t *testing.T) {
	f := start(t, 1, map[string]gossh.Signer{"jo": newKey(t)})
	_, err := f.dial(newKey(t))
	if err == nil || !strings.Contains(err.Error(), "unable to authenticate") {
		t.Fatalf("an unknown key got in: %v", err)
	}
	f.waitLog(t, "msg=refused")
}

func TestPasswordRefused(t *testing.T) {
	f := start(t, 1, map[string]gossh.Signer{"jo": newKey(t)})
	answer := func(string, string, []string, []bool) ([]string, error) { return []string{"secret"}, nil }
	_, err := f.dialWith(gossh.Password("secret"), gossh.KeyboardInteractive(answer))
	if err == nil || !strings.Contains(err.Error(), "unable to authenticate") {
		t.Fatalf("a password login got in: %v", err)
	}
	if !strings.Contains(err.Error(), "attempted methods [none]") {
		t.Errorf("the server offered more than public keys: %v", err)
	}
}

func TestOnlyTheTUIIsServed(t *testing.T) {
	jo := newKey(t)
	f := start(t, 1, map[string]gossh.Signer{"jo": jo})
	c, err := f.dial(jo)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	run := func(do func(*gossh.Session) error) (string, error) {
		s, err := c.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		var out syncBuffer
		s.Stdout, s.Stderr = &out, &out
		if err := do(s); err != nil {
			return "", err
		}
		ended := make(chan error, 1)
		go func() { ended <- s.Wait() }()
		select {
		case err = <-ended:
		case <-time.After(wait):
			t.Fatal("the session did not end")
		}
		return out.String(), err
	}
	out, err := run(func(s *gossh.Session) error { return s.Shell() }) // no pty
	if err == nil || !strings.Contains(out, "annotate needs a terminal: ssh -t") {
		t.Errorf("shell without a pty: %q, %v", out, err)
	}
	out, err = run(func(s *gossh.Session) error { return s.Start("annotate export --out /tmp/x") })
	if err == nil || !strings.Contains(out, "commands are not available") {
		t.Errorf("exec: %q, %v", out, err)
	}
	if _, err := run(func(s *gossh.Session) error { return s.RequestSubsystem("sftp") }); err == nil {
		t.Error("the sftp subsystem was accepted")
	}
	if _, err := c.Dial("tcp", f.srv.Addr().String()); err == nil {
		t.Error("port forwarding was accepted")
	}
	if _, err := c.Listen("tcp", "127.0.0.1:0"); err == nil {
		t.Error("remote port forwarding was accepted")
	}
}

func TestShutdownEndsSessions(t *testing.T) {
	jo := newKey(t)
	f := start(t, 3, map[string]gossh.Signer{"jo": jo})
	term := f.openTerminal(t, jo)
	term.waitFor("QA pairs")
	term.press("\r")
	term.waitFor("Question number 1")
	term.press("y")
	waitLabels(t, f.store, "jo", 3, 1)

	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if err := f.srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	term.waitFor("every decision is saved")
	term.waitEnd()
	if got := labelCount(t, f.store, "jo", 3); got != 1 {
		t.Errorf("%d labels after shutdown, want 1", got)
	}
	f.checkSessionsEnded(t, 1)
	if _, err := f.dial(jo); err == nil {
		t.Error("a connection was accepted after shutdown")
	}
}

func TestDroppedConnectionEndsSession(t *testing.T) {
	jo := newKey(t)
	f := start(t, 3, map[string]gossh.Signer{"jo": jo})
	term := f.openTerminal(t, jo)
	term.waitFor("QA pairs")
	term.client.Close() // the annotator's network goes away
	f.waitLog(t, "msg=disconnect annotator=jo")
	f.checkSessionsEnded(t, 1)
}

func TestHostKeyIsPrivateAndKept(t *testing.T) {
	f := start(t, 1, map[string]gossh.Signer{"jo": newKey(t)})
	path := f.srv.cfg.HostKeyPath
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("host key mode %o, want 600", fi.Mode().Perm())
	}
	signer, created, err := loadHostKey(path)
	if err != nil || created {
		t.Fatalf("reloading the host key: created=%v err=%v", created, err)
	}
	if string(signer.PublicKey().Marshal()) != string(f.srv.HostKey().Marshal()) {
		t.Error("the host key changed on reload")
	}
}
