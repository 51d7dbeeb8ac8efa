//go:build unix

package screenlock

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/annotate-dev/annotate/internal/lang"
)

// TestMain lets the test binary act as a screen in another process: with
// SCREENLOCK_HOLD set it takes the lock, says so and waits to be killed.
func TestMain(m *testing.M) {
	if db := os.Getenv("SCREENLOCK_HOLD"); db != "" {
		l, err := Acquire(db, "jo", "tty /dev/pts/test")
		if err != nil {
			os.Stdout.WriteString("error: " + err.Error() + "\n")
			os.Exit(2)
		}
		os.Stdout.WriteString("held\n")
		time.Sleep(time.Minute)
		l.Release()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestSecondScreenRefusedAndKilledOneLeavesNoLock(t *testing.T) {
	db := filepath.Join(t.TempDir(), "study.db")
	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), "SCREENLOCK_HOLD="+db)
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Process.Kill()
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "held\n" {
		t.Fatalf("child: %q", line)
	}

	_, err = Acquire(db, "jo", "ssh from 10.0.0.7:5555")
	var held *HeldError
	if !errors.As(err, &held) {
		t.Fatalf("second screen: %v, want a HeldError", err)
	}
	if held.Holder.PID != child.Process.Pid || held.Holder.Where != "tty /dev/pts/test" {
		t.Errorf("holder %+v, want pid %d on tty /dev/pts/test", held.Holder, child.Process.Pid)
	}
	msg := err.Error()
	for _, want := range []string{"jo already has a screen open on study.db", "pid " + itoa(child.Process.Pid), "tty /dev/pts/test", "host "} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	// Another annotator is not concerned.
	other, err := Acquire(db, "sam", "")
	if err != nil {
		t.Fatalf("sam: %v", err)
	}
	other.Release()

	// SIGKILL: no chance to clean up; the kernel drops the flock.
	child.Process.Signal(syscall.SIGKILL)
	child.Wait()
	l, err := Acquire(db, "jo", "ssh from 10.0.0.7:5555")
	if err != nil {
		t.Fatalf("after SIGKILL: %v (a stale lock)", err)
	}
	// Now this process holds it: a second open in the same process is refused
	// too (the server's sessions share one process), naming this one.
	_, err = Acquire(db, "jo", "")
	if !errors.As(err, &held) || held.Holder.PID != os.Getpid() || held.Holder.Where != "ssh from 10.0.0.7:5555" {
		t.Fatalf("same process: %v %+v", err, held)
	}
	l.Release()
	l2, err := Acquire(db, "jo", "")
	if err != nil {
		t.Fatalf("after Release: %v", err)
	}
	l2.Release()
}

func TestPathPerAnnotator(t *testing.T) {
	a, b := Path("/d/x.db", "jo"), Path("/d/x.db", "Jo")
	if a == b {
		t.Errorf("jo and Jo share %s", a)
	}
	if p := Path("/d/x.db", "../../etc/passwd"); filepath.Dir(p) != "/d" {
		t.Errorf("a name leaves the database's folder: %s", p)
	}
	if Enabled(":memory:") || !Enabled("/d/x.db") {
		t.Error("Enabled")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestWritingNote(t *testing.T) {
	db := filepath.Join(t.TempDir(), "study.db")
	if got := WaitingMessage(db); got != "another process is writing to study.db; waiting…" {
		t.Errorf("no note: %q", got)
	}
	m := MarkWriting(db, "an import")
	want := "an import (pid " + strconv.Itoa(os.Getpid()) + ") is writing to study.db; waiting…"
	if got := WaitingMessage(db); got != want {
		t.Errorf("with a note: %q, want %q", got, want)
	}
	m.Release()
	if _, err := os.Stat(db + ".writing.lock"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the note outlived its write: %v", err)
	}
	// A note left by a process that died (its lock gone) is not believed.
	os.WriteFile(db+".writing.lock", []byte("an import (pid 1)\n"), 0o644)
	if got := Writing(db); got != "" {
		t.Errorf("a dead note: %q", got)
	}
}

// A held screen is refused in the reader's language, as the waiting
// notice is said in it.
func TestHeldErrorInFrench(t *testing.T) {
	e := &HeldError{Annotator: "jo", DB: "a.db", Holder: Holder{Host: "lab", PID: 4242, Where: "tty /dev/pts/3"}}
	fr := lang.New(lang.French)
	if got := lang.Say(fr, e); !strings.HasPrefix(got, "jo a déjà un écran ouvert sur a.db (hôte lab, pid 4242, tty /dev/pts/3)\u202f: un seul écran actif") {
		t.Errorf("%q", got)
	}
	if got := e.Error(); !strings.HasPrefix(got, "jo already has a screen open on a.db (host lab, pid 4242, tty /dev/pts/3): one live screen") {
		t.Errorf("%q", got)
	}
	if got := Waiting(fr, filepath.Join(t.TempDir(), "a.db")); got != "un autre processus écrit dans a.db\u202f; en attente…" {
		t.Errorf("%q", got)
	}
}
