//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// startScreen runs the real program on a pseudo terminal with args.
func startScreen(t *testing.T, bin string, args ...string) *ptyTUI {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "NO_COLOR=1")
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 30, Cols: 100})
	if err != nil {
		t.Fatal(err)
	}
	p := &ptyTUI{t: t, cmd: cmd, pty: f, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		buf := make([]byte, 4096)
		for {
			n, err := f.Read(buf)
			p.mu.Lock()
			p.out.Write(buf[:n])
			p.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { p.kill() })
	return p
}

// Two real screens of jo on one database, each on its own terminal: the
// second is refused, naming the first's pid and terminal; the first killed
// with SIGKILL leaves no stale lock, and the next screen opens.
func TestSecondScreenRefusedUntilTheFirstIsKilled(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "annotate") // the test binary runs as annotate (TestMain)
	if err := os.Symlink(exe, bin); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "study.db")
	data := filepath.Join(dir, "items.jsonl")
	os.WriteFile(data, []byte(`{"id":"civ-006","source":"CIVIL","language":"fr","question":"Qui hérite ?","answer":"Les enfants.","contexts":[{"id":"c1","text":"Art. 734."}]}`+"\n"), 0o644)
	if out, err := exec.Command(bin, "--db", db, "import", data).CombinedOutput(); err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}

	first := startScreen(t, bin, "--db", db, "--as", "jo", "--kind", "qa")
	first.waitScreen("civ-006")
	// The first screen's terminal is the pty's (pty.Open names it).
	tty := first.pty.Name()
	if link, err := os.Readlink("/proc/" + strconv.Itoa(first.cmd.Process.Pid) + "/fd/0"); err == nil {
		tty = link // Linux: the device the child has, e.g. /dev/pts/4
	}
	second, err := exec.Command(bin, "--db", db, "--as", "jo").CombinedOutput()
	if err == nil {
		t.Fatalf("a second screen of jo opened: %s", second)
	}
	for _, want := range []string{"jo already has a screen open on study.db", "pid " + strconv.Itoa(first.cmd.Process.Pid), "tty " + tty} {
		if !strings.Contains(string(second), want) {
			t.Errorf("second screen said %q; want %q", second, want)
		}
	}

	first.kill() // SIGKILL: no chance to clean up
	third := startScreen(t, bin, "--db", db, "--as", "jo", "--kind", "qa")
	third.waitScreen("civ-006")
	third.kill()
}
