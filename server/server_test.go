package server

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"
)

// Every wait in these tests is bounded, so a hung session fails the test
// instead of hanging it.
const wait = 20 * time.Second

// syncBuffer is a bytes.Buffer safe for a writer goroutine and a reader.
// With keep > 0 it keeps only about the last keep bytes written (a flooding
// client's terminal must not grow the test's own heap).
type syncBuffer struct {
	mu   sync.Mutex
	b    bytes.Buffer
	keep int
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.keep > 0 && b.b.Len()+len(p) > 2*b.keep {
		last := b.b.Bytes()[max(0, b.b.Len()-b.keep):]
		b.b = *bytes.NewBuffer(append([]byte(nil), last...))
	}
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func newKey(t *testing.T) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fixture is a server on a loopback port with a seeded store.
type fixture struct {
	srv   *Server
	store *store.Store
	log   *syncBuffer
	dir   string
}

// start seeds a store with nQA QA pairs and serves it to the given
// annotators' keys; setup runs before serving.
func start(t *testing.T, nQA int, keys map[string]gossh.Signer, setup ...func(*fixture)) *fixture {
	t.Helper()
	return startWith(t, nQA, keys, func(*Config) {}, setup...)
}

// startWith is start with a chance to change the server's configuration.
func startWith(t *testing.T, nQA int, keys map[string]gossh.Signer, configure func(*Config), setup ...func(*fixture)) *fixture {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "annotate.db"))
	if err != nil {
		t.Fatal(err)
	}
	seed(t, st, nQA)
	akPath := writeAuthorizedKeys(t, dir, keys)
	logs := &syncBuffer{}
	cfg := Config{
		Listen: "127.0.0.1:0", HostKeyPath: filepath.Join(dir, "host_ed25519"), AuthorizedKeysPath: akPath,
		Store: st, SessionLimit: 2 * time.Hour, Logger: slog.New(slog.NewTextHandler(logs, nil)),
	}
	configure(&cfg)
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{srv: srv, store: st, log: logs, dir: dir}
	for _, fn := range setup {
		fn(f)
	}
	served := make(chan error, 1)
	go func() { served <- srv.ListenAndServe() }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
		st.Close()
	})
	return f
}

// writeAuthorizedKeys writes the keys, each named by its annotator, to
// dir/authorized_keys and returns the path.
func writeAuthorizedKeys(t *testing.T, dir string, keys map[string]gossh.Signer) string {
	t.Helper()
	var ak strings.Builder
	for name, k := range keys {
		fmt.Fprintf(&ak, "%s %s\n", strings.TrimSpace(string(gossh.MarshalAuthorizedKey(k.PublicKey()))), name)
	}
	path := filepath.Join(dir, "authorized_keys")
	if err := os.WriteFile(path, []byte(ak.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func seed(t *testing.T, st *store.Store, n int) {
	t.Helper()
	seedContexts(t, st, n, "Processing shall be lawful only if…")
}

// seedContexts adds QA pairs q1…qn whose context is text.
func seedContexts(t *testing.T, st *store.Store, n int, text string) {
	t.Helper()
	err := st.Import(func(tx *store.Tx) error {
		for i := 1; i <= n; i++ {
			qa := store.QAPair{ID: fmt.Sprintf("q%d", i), Source: "GDPR", Language: "en", Hop: "single",
				Question: fmt.Sprintf("Question number %d about lawful processing?", i), Answer: "Yes, under Article 6.",
				Category: "factual_recall", Contexts: []store.Context{{ID: fmt.Sprintf("p%d", i), Text: text}}}
			if _, _, err := tx.PutQA(qa, "h"+qa.ID, "test", false); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) dial(key gossh.Signer) (*gossh.Client, error) {
	return f.dialWith(gossh.PublicKeys(key))
}

func (f *fixture) dialWith(auth ...gossh.AuthMethod) (*gossh.Client, error) {
	return dialAt(f.srv.Addr().String(), f.srv.HostKey(), auth...)
}

func dialAt(addr string, hostKey gossh.PublicKey, auth ...gossh.AuthMethod) (*gossh.Client, error) {
	return gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User: "annotator", Auth: auth, Timeout: wait,
		HostKeyCallback: gossh.FixedHostKey(hostKey),
	})
}

// terminal is a client session with a pty, as `ssh -t` opens it.
type terminal struct {
	t      *testing.T
	client *gossh.Client
	sess   *gossh.Session
	in     io.WriteCloser
	out    *syncBuffer
	done   chan struct{} // closed when the session has ended
	endErr error         // its exit error, once done
}

func (f *fixture) openTerminal(t *testing.T, key gossh.Signer) *terminal {
	t.Helper()
	return openTerminalAt(t, f.srv.Addr().String(), f.srv.HostKey(), key, 120, 40)
}

// openTerminalAt opens a width×height terminal session on the server at
// addr (the server itself, a proxy to it, or a server process).
func openTerminalAt(t *testing.T, addr string, hostKey gossh.PublicKey, key gossh.Signer, width, height int) *terminal {
	t.Helper()
	c, err := dialAt(addr, hostKey, gossh.PublicKeys(key))
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
	if err := sess.RequestPty("xterm-256color", height, width, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	go func() { term.endErr = sess.Wait(); close(term.done) }()
	return term
}

// screen is what the terminal printed so far, without escape sequences.
func (term *terminal) screen() string { return ansi.Strip(term.out.String()) }

func (term *terminal) waitFor(text string) {
	term.t.Helper()
	deadline := time.Now().Add(wait)
	for !strings.Contains(term.screen(), text) {
		select {
		case <-term.done:
			if !strings.Contains(term.screen(), text) {
				term.t.Fatalf("the session ended before %q appeared (%v); the screen shows:\n%s", text, term.endErr, tail(term.screen()))
			}
		default:
		}
		if time.Now().After(deadline) {
			term.t.Fatalf("%q never appeared; the screen shows:\n%s", text, tail(term.screen()))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (term *terminal) press(keys string) {
	term.t.Helper()
	if _, err := io.WriteString(term.in, keys); err != nil {
		term.t.Fatalf("typing %q: %v", keys, err)
	}
}

// waitEnd waits for the session to close and returns its exit error.
func (term *terminal) waitEnd() error {
	term.t.Helper()
	select {
	case <-term.done:
		return term.endErr
	case <-time.After(wait):
		term.t.Fatalf("the session did not end; the screen shows:\n%s", tail(term.screen()))
		return nil
	}
}

func tail(s string) string {
	if len(s) > 3000 {
		return "…" + s[len(s)-3000:]
	}
	return s
}

// labelCount is the number of current labels of the annotator on q1…qn.
func labelCount(t *testing.T, st *store.Store, annotator string, n int) int {
	t.Helper()
	total := 0
	for i := 1; i <= n; i++ {
		ref, err := storetest.Read(t, st).Resolve(fmt.Sprintf("q%d", i))
		if err != nil {
			t.Fatal(err)
		}
		ls, err := storetest.Read(t, st).CurrentLabels(annotator, ref.ItemID)
		if err != nil {
			t.Fatal(err)
		}
		total += len(ls)
	}
	return total
}

func waitLabels(t *testing.T, st *store.Store, annotator string, nQA, want int) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for labelCount(t, st, annotator, nQA) < want {
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d labels, want %d", annotator, labelCount(t, st, annotator, nQA), want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitLog waits for a line of the server's log: the server logs after the
// client has already seen the outcome.
func (f *fixture) waitLog(t *testing.T, text string) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for !strings.Contains(f.log.String(), text) {
		if time.Now().After(deadline) {
			t.Fatalf("the log lacks %q:\n%s", text, f.log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// checkSessionsEnded checks that the TUI recorded n "ssh" sessions, all ended.
func (f *fixture) checkSessionsEnded(t *testing.T, n int) {
	t.Helper()
	var total, open int
	err := storetest.DB(t, f.store).QueryRow("SELECT COUNT(*), COUNT(*) - COUNT(ended_at) FROM sessions WHERE client='ssh'").Scan(&total, &open)
	if err != nil {
		t.Fatal(err)
	}
	if total != n || open != 0 {
		t.Errorf("%d ssh sessions recorded, %d without an end; want %d, all ended", total, open, n)
	}
}
