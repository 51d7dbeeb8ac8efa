// Package screenlock keeps one live annotation screen per annotator and
// database, across processes: the local TUI and every SSH session of
// "annotate serve" take the same lock before they show a queue.
//
// The lock is an advisory flock(2) on a small file next to the database,
// one file per annotator. The kernel drops it when the process ends, however
// it ends (SIGKILL included), so a screen that died leaves nothing stale
// behind: the file may stay, its lock does not. The file holds where the
// screen runs (host, pid, tty or "ssh from …", since when), which the
// refusal of a second screen quotes.
package screenlock

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/annotate-dev/annotate/internal/lang"
)

// Holder says where a screen runs.
type Holder struct {
	Host  string    `json:"host"`
	PID   int       `json:"pid"`
	Where string    `json:"where"` // "tty /dev/pts/3", "ssh from 10.0.0.7:51234"
	Since time.Time `json:"since"`
}

func (h Holder) String() string { return h.in(nil) }

// in names the holder in a reader's language.
func (h Holder) in(l *lang.Printer) string {
	if h.PID == 0 {
		return l.Sprintf("another process (starting)")
	}
	// The pid is an id, not a number a language groups by thousands.
	parts := []string{l.Sprintf("host %s", h.Host), l.Sprintf("pid %s", strconv.Itoa(h.PID))}
	if h.Where != "" {
		parts = append(parts, h.Where)
	}
	if !h.Since.IsZero() {
		parts = append(parts, l.Sprintf("since %s", h.Since.Local().Format("15:04")))
	}
	return strings.Join(parts, ", ")
}

// HeldError is the refusal of a second screen.
type HeldError struct {
	Annotator string
	DB        string
	Holder    Holder
}

func (e *HeldError) Error() string { return e.SayIn(nil) }

// SayIn is the error in a reader's language (lang.Say).
func (e *HeldError) SayIn(l *lang.Printer) string {
	return l.Sprintf("%s already has a screen open on %s (%s): one live screen per annotator, so that two screens never label the same item; close that one first",
		e.Annotator, e.DB, e.Holder.in(l))
}

// Lock is a held screen lock.
type Lock struct {
	f *os.File
	// remove: the file goes with the lock (a writing note; never a screen's
	// lock, whose file must stay one inode for every process that opens it).
	remove string
}

// Path is the lock file of annotator's screens on the database at db.
func Path(db, annotator string) string {
	sum := sha256.Sum256([]byte(annotator))
	var safe strings.Builder
	for _, r := range annotator {
		if safe.Len() >= 32 {
			break
		}
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_') {
			safe.WriteRune(r)
		}
	}
	return db + ".screen-" + safe.String() + "-" + hex.EncodeToString(sum[:4]) + ".lock"
}

// Enabled says whether a database path has a file next to which a lock can
// live (an in-memory database has none, and needs none).
func Enabled(db string) bool {
	return db != "" && db != ":memory:" && !strings.HasPrefix(db, "file:")
}

// Acquire takes annotator's screen lock on the database at db, or returns a
// *HeldError naming where the live screen runs. where says where this one
// runs ("ssh from …"; empty: the controlling terminal, as Terminal finds it).
func Acquire(db, annotator, where string) (*Lock, error) {
	if !Enabled(db) {
		return &Lock{}, nil
	}
	if where == "" {
		where = Terminal()
	}
	p := Path(db, annotator)
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("screen lock: %w", err)
	}
	held, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("screen lock %s: %w", p, err)
	}
	if held {
		var h Holder
		b, _ := os.ReadFile(p)
		json.Unmarshal(b, &h) // empty or partial: the holder is still writing it
		f.Close()
		return nil, &HeldError{Annotator: annotator, DB: filepath.Base(db), Holder: h}
	}
	host, _ := os.Hostname()
	b, _ := json.Marshal(Holder{Host: host, PID: os.Getpid(), Where: where, Since: time.Now().Round(time.Second)})
	if err := f.Truncate(0); err == nil {
		f.WriteAt(append(b, '\n'), 0)
	}
	return &Lock{f: f}, nil
}

// Release gives the lock up (closing the file drops the flock). The file
// stays: removing it would race with a screen opening it.
func (l *Lock) Release() {
	if l == nil || l.f == nil {
		return
	}
	l.f.Truncate(0)
	if l.remove != "" {
		os.Remove(l.remove)
	}
	l.f.Close()
	l.f = nil
}

// Terminal names the controlling terminal of this process, as "tty PATH",
// or "" when standard input is not one.
func Terminal() string {
	for _, fd := range []string{"/proc/self/fd/0", "/dev/fd/0"} {
		if t, err := os.Readlink(fd); err == nil && strings.HasPrefix(t, "/dev/") && !strings.HasPrefix(t, "/dev/null") {
			return "tty " + t
		}
	}
	if t := os.Getenv("SSH_TTY"); t != "" {
		return "tty " + t
	}
	return ""
}

// writingPath is the note a long writer (an import) keeps next to the
// database while it writes, so that who waits for it can say what it waits for.
func writingPath(db string) string { return db + ".writing.lock" }

// MarkWriting says, for as long as the returned lock is held, that what
// ("an import") writes to the database at db. Its lock, like a screen's,
// dies with the process.
func MarkWriting(db, what string) *Lock {
	if !Enabled(db) {
		return &Lock{}
	}
	f, err := os.OpenFile(writingPath(db), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return &Lock{} // only a message is lost
	}
	if held, err := tryLock(f); err != nil || held {
		f.Close()
		return &Lock{}
	}
	f.Truncate(0)
	f.WriteAt([]byte(fmt.Sprintf("%s (pid %d)\n", what, os.Getpid())), 0)
	// The note goes when the write ends, so a database leaves no file
	// behind it (nor a failed first import anything at all).
	return &Lock{f: f, remove: writingPath(db)}
}

// Writing is what MarkWriting said of the process writing to db now, or ""
// when none said so.
func Writing(db string) string {
	if !Enabled(db) {
		return ""
	}
	f, err := os.Open(writingPath(db))
	if err != nil {
		return ""
	}
	defer f.Close()
	if held, err := tryLock(f); err != nil || !held {
		return "" // nobody holds it: the note is an old one
	}
	b, _ := os.ReadFile(writingPath(db))
	return strings.TrimSpace(string(b))
}

// WaitingMessage is what a command or a screen says while it waits for
// another process's write to the database at db to end.
func WaitingMessage(db string) string { return Waiting(nil, db) }

// Waiting is WaitingMessage in a reader's language.
func Waiting(l *lang.Printer, db string) string {
	who := Writing(db)
	switch {
	case who == "":
		who = l.Sprintf("another process")
	case strings.HasPrefix(who, importWriter):
		who = l.Sprintf("an import") + strings.TrimPrefix(who, importWriter)
	}
	return l.Sprintf("%s is writing to %s; waiting…", who, filepath.Base(db))
}

// importWriter is what an import says of itself while it writes (cmd
// annotate's import: MarkWriting), said in the reader's language.
const importWriter = "an import"
