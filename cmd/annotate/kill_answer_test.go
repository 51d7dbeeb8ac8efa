//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// TestAnswerEditorSurvivesSIGKILL runs the real program on a pseudo
// terminal, as an expert would: it types part of a gold answer, waits until
// the draft is written (without leaving the screen, without ctrl+s), types
// more and is killed with SIGKILL at once. Nothing is submitted; the draft
// holds everything typed before its last write (the in-process test
// TestAnswerDraftsAndSubmission shows writes come at most a second apart)
// and at most what was typed. Reopened, the screen shows the draft, and
// ctrl+s submits exactly it: one event per field.
func TestAnswerEditorSurvivesSIGKILL(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "annotate") // the test binary runs as annotate (TestMain)
	if err := os.Symlink(exe, bin); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "kill.db")
	data := filepath.Join(dir, "tasks.jsonl")
	os.WriteFile(data, []byte(`{"kind":"query","id":"q1","text":"Can my landlord come in without notice?","persona":"lay","jurisdiction":"ON"}
{"kind":"answer_task","id":"q1/answer","query":"q1"}
`), 0o644)
	if out, err := exec.Command(bin, "--db", db, "import", data).CombinedOutput(); err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	s, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	task, _ := storetest.Read(t, s).Resolve("q1/answer")
	draft := func() string {
		d, _, err := storetest.Read(t, s).Draft("jo", task.ItemID)
		if err != nil {
			t.Fatal(err)
		}
		return d.GoldAnswer
	}
	events := func() int {
		var n int
		storetest.DB(t, s).QueryRow("SELECT COUNT(*) FROM label_events").Scan(&n)
		return n
	}

	first, second, third := "The landlord needs 24 hours notice.", " Except in an emergency.", " Or with consent, given at the time."
	tui := startTUI(t, bin, db)
	tui.waitScreen("Answer q1/answer")
	tui.typeKeys(first)
	eventually(t, "the draft of the first sentence", func() bool { return draft() == first })
	tui.typeKeys(second)
	eventually(t, "the draft of the second sentence", func() bool { return draft() == first+second })
	tui.typeKeys(third)
	tui.kill()

	got := draft()
	if !strings.HasPrefix(got, first+second) || !strings.HasPrefix(first+second+third, got) {
		t.Fatalf("draft after SIGKILL %q: want what was written before the kill, and no more than was typed", got)
	}
	if n := events(); n != 0 {
		t.Fatalf("%d label events: the expert submitted nothing", n)
	}
	t.Logf("draft after SIGKILL: %q (%d of %d characters typed)", got, len(got), len(first+second+third))

	tui = startTUI(t, bin, db)
	tui.waitScreen(ansi.Strip(got[:20]))
	tui.typeKeys("\x13") // ctrl+s
	eventually(t, "the submission", func() bool { return events() == 2 })
	tui.kill()
	var answer, cites string
	storetest.DB(t, s).QueryRow("SELECT value FROM current_labels WHERE field='gold_answer'").Scan(&answer)
	storetest.DB(t, s).QueryRow("SELECT value FROM current_labels WHERE field='citations'").Scan(&cites)
	if answer != got || cites != "[]" {
		t.Errorf("submitted %q %s, want the draft %q and no citation", answer, cites, got)
	}
}

// ptyTUI is the program running on a pseudo terminal of 100×30.
type ptyTUI struct {
	t    *testing.T
	cmd  *exec.Cmd
	pty  *os.File
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{}
}

// startTUI opens jo's answer queue on db (startScreen).
func startTUI(t *testing.T, bin, db string) *ptyTUI {
	t.Helper()
	return startScreen(t, bin, "--db", db, "--as", "jo", "--kind", "answer_task")
}

// waitScreen waits until the screen has shown text.
func (p *ptyTUI) waitScreen(text string) {
	p.t.Helper()
	eventually(p.t, "the screen showing "+text, func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		return strings.Contains(ansi.Strip(p.out.String()), text)
	})
}

func (p *ptyTUI) typeKeys(s string) {
	p.t.Helper()
	if _, err := p.pty.Write([]byte(s)); err != nil {
		p.t.Fatal(err)
	}
}

// kill sends SIGKILL and waits for the process to end.
func (p *ptyTUI) kill() {
	if p.cmd.ProcessState != nil {
		return
	}
	p.cmd.Process.Kill()
	p.cmd.Wait()
	p.pty.Close()
	<-p.done
}

// eventually polls cond until it holds; a deadline of a minute only
// guards against a hang (it measures nothing).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
