package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// import draws its progress line when stderr is a terminal, although the
// command's stderr is the sanitising writer in front of it; piped, it draws
// nothing.
func TestImportProgressOnTerminal(t *testing.T) {
	dir := t.TempDir()
	items := filepath.Join(dir, "items.jsonl")
	line := `{"id":"q1","source":"GDPR","language":"en","question":"What is personal data?","answer":"Any information.","contexts":[{"id":"p1","text":"Article 4."}]}` + "\n"
	if err := os.WriteFile(items, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	got := make(chan string)
	go func() { b, _ := io.ReadAll(ptmx); got <- string(b) }()
	var out bytes.Buffer
	if err := runSafely([]string{"--db", filepath.Join(dir, "a.db"), "import", items}, &out, tty); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	drawn := <-got
	// "reading" is the first phase; "\r…\x1b[K" rewrites the line in place.
	if !strings.Contains(drawn, "\rreading") || !strings.Contains(drawn, "\x1b[K") {
		t.Errorf("the terminal got no progress line: %q", drawn)
	}
	if !strings.Contains(out.String(), "1 QA pair added") {
		t.Errorf("stdout: %q", out.String())
	}

	var piped, out2 bytes.Buffer
	if err := runSafely([]string{"--db", filepath.Join(dir, "b.db"), "import", items}, &out2, &piped); err != nil {
		t.Fatal(err)
	}
	if piped.Len() != 0 {
		t.Errorf("piped stderr got %q", piped.String())
	}
}
