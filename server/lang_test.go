package server

import (
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// openTerminalWithEnv opens a terminal session whose client sends env
// first (as ssh does for the names its SendEnv lists).
func (f *fixture) openTerminalWithEnv(t *testing.T, key gossh.Signer, env map[string]string) *terminal {
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
	for k, v := range env {
		if err := sess.Setenv(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := sess.RequestPty("xterm-256color", 40, 120, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	go func() { term.endErr = sess.Wait(); close(term.done) }()
	return term
}

// A session speaks its annotator's language: the one recorded for them
// first, else the LANG their client sends, else English.
func TestSessionSpeaksTheAnnotatorsLanguage(t *testing.T) {
	jo, kim, lea := newKey(t), newKey(t), newKey(t)
	f := start(t, 2, map[string]gossh.Signer{"jo": jo, "kim": kim, "lea": lea})
	if err := f.store.SetAnnotatorLang("kim", "fr"); err != nil {
		t.Fatal(err)
	}

	// kim's own language wins over the English locale the client sends.
	term := f.openTerminalWithEnv(t, kim, map[string]string{"LANG": "en_US.UTF-8"})
	term.waitFor("Paires question-réponse")
	term.waitFor("q quitter")
	term.press("q")
	term.waitEnd()

	// jo has none: the client's LANG decides.
	term = f.openTerminalWithEnv(t, jo, map[string]string{"LANG": "fr_CA.UTF-8"})
	term.waitFor("Paires question-réponse")
	term.press("q")
	term.waitEnd()

	// lea has none and sends none: English.
	term = f.openTerminalWithEnv(t, lea, nil)
	term.waitFor("QA pairs")
	term.waitFor("q quit")
	term.press("q")
	term.waitEnd()
}
