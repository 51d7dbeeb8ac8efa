package server

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
	gossh "golang.org/x/crypto/ssh"
)

// A local screen ("annotate --as jo") and an SSH session of jo exclude each
// other: both take the screen lock next to the database.
func TestLocalScreenAndSSHExcludeEachOther(t *testing.T) {
	jo := newKey(t)
	f := start(t, 3, map[string]gossh.Signer{"jo": jo})
	// A local screen: another Store on the same file, as another process
	// opens it.
	db := filepath.Join(f.dir, "annotate.db")
	other, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	local, err := other.AcquireScreen("jo", "", "tty /dev/pts/9")
	if err != nil {
		t.Fatal(err)
	}
	refused := f.openTerminal(t, jo)
	refused.waitFor("jo already has a screen open on annotate.db")
	refused.waitFor("tty /dev/pts/9")
	if err := refused.waitEnd(); err == nil {
		t.Error("the refused session ended with status 0")
	}
	f.waitLog(t, `msg="refused second session" annotator=jo`)
	local.Release()

	remote := f.openTerminal(t, jo)
	remote.waitFor("QA pairs")
	_, err = other.AcquireScreen("jo", "", "")
	var held *store.ScreenHeldError
	if !errors.As(err, &held) || !strings.HasPrefix(held.Holder.Where, "ssh from 127.0.0.1:") {
		t.Fatalf("a local screen beside the SSH one: %v", err)
	}
	remote.press("q")
	remote.waitEnd()
	// The session's end frees the lock.
	again, err := other.AcquireScreen("jo", "", "")
	if err != nil {
		t.Fatalf("after the SSH session: %v", err)
	}
	again.Release()
}

// A session opened while another process writes (an import holding the
// write lock) says it waits, then shows the screen once the write ends.
func TestSessionWaitsForAWriter(t *testing.T) {
	jo := newKey(t)
	f := start(t, 3, map[string]gossh.Signer{"jo": jo})
	db := filepath.Join(f.dir, "annotate.db")
	other, err := sql.Open("sqlite", "file:"+db)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	mark := storetest.MarkWriting(t, f.store, store.ImportWriter)
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	term := f.openTerminal(t, jo)
	term.waitFor("an import (pid ")
	term.waitFor("is writing to annotate.db; waiting…")
	if _, err := conn.ExecContext(context.Background(), "COMMIT"); err != nil {
		t.Fatal(err)
	}
	mark()
	term.waitFor("QA pairs")
	term.press("q")
	term.waitEnd()
}
