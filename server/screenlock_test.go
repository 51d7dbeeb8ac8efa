package server

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/internal/screenlock"
	gossh "golang.org/x/crypto/ssh"
)

// A local screen ("annotate --as jo") and an SSH session of jo exclude each
// other: both take the screen lock next to the database.
func TestLocalScreenAndSSHExcludeEachOther(t *testing.T) {
	jo := newKey(t)
	f := start(t, 3, map[string]gossh.Signer{"jo": jo})
	db := filepath.Join(f.dir, "annotate.db")

	local, err := screenlock.Acquire(db, "jo", "tty /dev/pts/9")
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
	_, err = screenlock.Acquire(db, "jo", "")
	var held *screenlock.HeldError
	if !errors.As(err, &held) || !strings.HasPrefix(held.Holder.Where, "ssh from 127.0.0.1:") {
		t.Fatalf("a local screen beside the SSH one: %v", err)
	}
	remote.press("q")
	remote.waitEnd()
	// The session's end frees the lock.
	again, err := screenlock.Acquire(db, "jo", "")
	if err != nil {
		t.Fatalf("after the SSH session: %v", err)
	}
	again.Release()
}
