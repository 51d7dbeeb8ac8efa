package tui

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// A name that did not exist before the screen opened is said on home, so a
// typo shows; the first key clears it. A known annotator sees no such line.
func TestHomeSaysNewAnnotator(t *testing.T) {
	s := openStore(t)
	seedQA(t, s)
	h := newHarness(t, s, Options{Annotator: "lea", NewAnnotator: true})
	if v := h.view(); !strings.Contains(v, "new annotator lea") {
		t.Fatalf("home of a new annotator:\n%s", v)
	}
	h.keys("down")
	if v := h.view(); strings.Contains(v, "new annotator") {
		t.Errorf("the notice outlived a key:\n%s", v)
	}
	h2 := newHarness(t, s, Options{Annotator: "lea"})
	if v := h2.view(); strings.Contains(v, "new annotator") {
		t.Errorf("a known annotator is told they are new:\n%s", v)
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A screen opened while another process holds the write lock (an import's
// one transaction) says what it waits for, then opens once the write ends,
// instead of failing with SQLITE_BUSY after the busy timeout.
func TestRunWaitsForAWriter(t *testing.T) {
	path, s := storetest.Create(t, "annotate.db")
	defer s.Close()
	seedQA(t, s)
	other, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	mark := storetest.MarkWriting(t, s, store.ImportWriter)
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}

	var notices lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in, _ := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Store: s, Annotator: "jo", Notices: &notices}, tea.WithInput(in), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	}()
	want := fmt.Sprintf("annotate: an import (pid %d) is writing to annotate.db; waiting…\n", os.Getpid())
	deadline := time.Now().Add(5 * time.Second)
	for notices.String() != want {
		if time.Now().After(deadline) {
			t.Fatalf("notices %q, want %q", notices.String(), want)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if spans, err := storetest.Read(t, s).SessionSpans("jo"); err != nil || len(spans) != 0 {
		t.Fatalf("a session started under the writer: %v %v", spans, err)
	}
	if _, err := conn.ExecContext(context.Background(), "COMMIT"); err != nil {
		t.Fatal(err)
	}
	mark()
	for {
		spans, err := storetest.Read(t, s).SessionSpans("jo")
		if err != nil {
			t.Fatal(err)
		}
		if len(spans) == 1 {
			break
		}
		if time.Now().After(deadline.Add(5 * time.Second)) {
			t.Fatal("no session after the write ended")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not end with its context")
	}
	if notices.String() != want {
		t.Errorf("notices %q: said more than once", notices.String())
	}
}
