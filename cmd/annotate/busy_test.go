package main

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
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

// A command started while another process holds the write lock (a long
// import) says it waits, and what for, then succeeds once the write ends,
// instead of failing with SQLITE_BUSY after the busy timeout.
func TestCommandWaitsForAWriter(t *testing.T) {
	path, s := storetest.Create(t, "annotate.db")
	makeLead(t, s, "lead")
	s.Close()
	items := filepath.Join(t.TempDir(), "items.jsonl")
	os.WriteFile(items, []byte(`{"id":"q1","source":"GDPR","language":"en","question":"What is personal data?","answer":"Any information.","contexts":[{"id":"p1","text":"Article 4."}]}`+"\n"), 0o644)
	for _, c := range []struct {
		name, mark, want string
		args             []string
		out              string
	}{
		{"kim", "an import", "annotate: an import (pid ", []string{"annotator", "add", "kim"}, "annotator kim created\n"},
		{"lou", "", "annotate: another process is writing to annotate.db; waiting…", []string{"annotator", "add", "lou"}, "annotator lou created\n"},
		// A second import waits for the first.
		{"import", "an import", "annotate: an import (pid ", []string{"import", items},
			items + " (native): 1 QA pair added; 0 claims added; 0 labels added\n"},
		{"batch", "", "annotate: another process is writing", []string{"batch", "create", "b1", "--as", "lead", "--assign", "kim"},
			"batch b1: 1 qa item, for kim\n"},
	} {
		db, err := sql.Open("sqlite", "file:"+path)
		if err != nil {
			t.Fatal(err)
		}
		conn, err := db.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		mark := func() {}
		if c.mark != "" {
			s, err := store.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			mark = storetest.MarkWriting(t, s, c.mark)
			defer s.Close()
		}
		if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
			t.Fatal(err)
		}
		var out, errb lockedBuffer
		done := make(chan error, 1)
		go func() { done <- runSafely(append([]string{"--db", path}, c.args...), &out, &errb) }()
		deadline := time.Now().Add(5 * time.Second)
		for !strings.Contains(errb.String(), "waiting…") {
			if time.Now().After(deadline) {
				t.Fatalf("%s: no waiting message; stderr %q", c.name, errb.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
		if !strings.Contains(errb.String(), c.want) || !strings.Contains(errb.String(), "is writing to annotate.db; waiting…") {
			t.Errorf("%s: stderr %q, want %q", c.name, errb.String(), c.want)
		}
		select {
		case err := <-done:
			t.Fatalf("%s: ended while the write lock was held: %v", c.name, err)
		case <-time.After(300 * time.Millisecond):
		}
		if _, err := conn.ExecContext(context.Background(), "COMMIT"); err != nil {
			t.Fatal(err)
		}
		mark()
		conn.Close()
		db.Close()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("%s: %v; stderr %q", c.name, err, errb.String())
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: still waiting after the write ended", c.name)
		}
		if got := out.String(); got != c.out {
			t.Errorf("%s: stdout %q", c.name, got)
		}
		if n := strings.Count(errb.String(), "waiting…"); n != 1 {
			t.Errorf("%s: said %d times that it waits", c.name, n)
		}
	}
}
