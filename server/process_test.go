package server

import (
	"bufio"
	"fmt"
	"github.com/annotate-dev/annotate/store/storetest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/annotate-dev/annotate/store"
	gossh "golang.org/x/crypto/ssh"
)

// annotateBinary is the annotate command, built once for the package's
// tests (without -race even under go test -race: it is the binary that is
// measured) into a folder TestMain removes.
var annotateBinary struct {
	once      sync.Once
	dir, path string
	err       error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if annotateBinary.dir != "" {
		os.RemoveAll(annotateBinary.dir)
	}
	os.Exit(code)
}

func buildAnnotate(t *testing.T) string {
	t.Helper()
	b := &annotateBinary
	b.once.Do(func() {
		if b.dir, b.err = os.MkdirTemp("", "annotate-server-test-"); b.err != nil {
			return
		}
		goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
		if _, err := os.Stat(goTool); err != nil {
			goTool = "go"
		}
		b.path = filepath.Join(b.dir, "annotate")
		out, err := exec.Command(goTool, "build", "-o", b.path, "github.com/annotate-dev/annotate/cmd/annotate").CombinedOutput()
		if err != nil {
			b.err = fmt.Errorf("building annotate: %v\n%s", err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// rssBound is the peak resident memory the server process may reach.
const rssBound = 300 << 20

// procStatus reads a kB field of /proc/PID/status (VmRSS, VmHWM) in bytes.
func procStatus(pid int, field string) (uint64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}

func waitText(t *testing.T, b *syncBuffer, text string) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for !strings.Contains(b.String(), text) {
		if time.Now().After(deadline) {
			t.Fatalf("the log lacks %q:\n%s", text, b.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// sshSessions counts the recorded "ssh" sessions and those not ended.
func sshSessions(t *testing.T, st *store.Store) (total, open int) {
	t.Helper()
	err := storetest.DB(t, st).QueryRow("SELECT COUNT(*), COUNT(*) - COUNT(ended_at) FROM sessions WHERE client='ssh'").Scan(&total, &open)
	if err != nil {
		t.Fatal(err)
	}
	return total, open
}

func TestServerProcess(t *testing.T) {
	bin := buildAnnotate(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "annotate.db")
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	seedContexts(t, st, 3, longContext)
	jo, sam, lea := newKey(t), newKey(t), newKey(t)
	keys := writeAuthorizedKeys(t, dir, map[string]gossh.Signer{"jo": jo, "sam": sam, "lea": lea})

	logs := &syncBuffer{}
	cmd := exec.Command(bin, "serve", "--db", db, "--authorized-keys", keys, "--listen", "127.0.0.1:0",
		"--host-key", filepath.Join(dir, "host_ed25519"))
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var exitErr error
	go func() { exitErr = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("server log:\n%s", logs.String())
		}
	})
	// Past the bound, stop the server so that an unclamped one cannot eat
	// the machine; the test then fails.
	go func() {
		for {
			select {
			case <-exited:
				return
			case <-time.After(20 * time.Millisecond):
			}
			if rss, err := procStatus(cmd.Process.Pid, "VmRSS"); err == nil && rss > rssBound {
				cmd.Process.Kill()
				return
			}
		}
	}()

	waitText(t, logs, "msg=listening")
	addr := regexp.MustCompile(`msg=listening addr=(\S+)`).FindStringSubmatch(logs.String())[1]
	host, _, err := loadHostKey(filepath.Join(dir, "host_ed25519"))
	if err != nil {
		t.Fatal(err)
	}
	hostKey := host.PublicKey()

	// jo asks for a 10000x10000 terminal, resizes it, labels an item…
	term := openTerminalAt(t, addr, hostKey, jo, 10000, 10000)
	term.waitFor("QA pairs")
	term.press("\r")
	term.waitFor("Question number 1")
	for i := 0; i < 50; i++ {
		if err := term.sess.WindowChange(10000+i, 10000+i); err != nil {
			t.Fatal(err)
		}
	}
	for n, k := range []string{"y", "1", "1", "1"} {
		term.press(k)
		waitLabels(t, st, "jo", 3, n+1)
	}
	// …and their client dies: the session ends.
	term.client.Close()
	waitText(t, logs, "msg=disconnect annotator=jo")
	if total, open := sshSessions(t, st); total != 1 || open != 0 {
		t.Errorf("after jo's client died: %d sessions, %d open; want 1, 0 open", total, open)
	}

	// sam labels through a network that then vanishes; lea's client stops
	// reading while the server has megabytes to send.
	p := startProxy(t, addr)
	samTerm := openTerminalAt(t, p.addr(), hostKey, sam, 120, 40)
	samTerm.waitFor("QA pairs")
	samTerm.press("\r")
	samTerm.waitFor("Question number 1")
	samTerm.press("y")
	waitLabels(t, st, "sam", 3, 1)
	p.freeze()
	openStalledTerminal(t, addr, hostKey, lea)

	peak, err := procStatus(cmd.Process.Pid, "VmHWM")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("server process peak RSS: %d MB", peak>>20)
	if peak > rssBound {
		t.Errorf("the server's peak RSS was %d MB, over the %d MB bound", peak>>20, rssBound>>20)
	}

	began := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// A correctness deadline, not a speed measure: serve promises to be
	// gone within 10 s of SIGTERM whatever the clients do.
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		t.Fatalf("the server was still running 10 s after SIGTERM")
	}
	t.Logf("the server exited %v after SIGTERM", time.Since(began).Round(time.Millisecond))
	if exitErr != nil {
		t.Errorf("the server exited with %v", exitErr)
	}
	// lea's session could not end by itself (its writes were blocked):
	// closing the connections ended it.
	waitText(t, logs, "closing the connections of sessions that did not end\" sessions_running=1")
	waitText(t, logs, "msg=stopped")
	if got := labelCount(t, st, "jo", 3); got != 4 {
		t.Errorf("jo: %d labels, want 4", got)
	}
	if got := labelCount(t, st, "sam", 3); got != 1 {
		t.Errorf("sam: %d labels, want 1", got)
	}
	if total, open := sshSessions(t, st); total != 3 || open != 0 {
		t.Errorf("%d sessions recorded, %d not ended; want 3, all ended", total, open)
	}
}
