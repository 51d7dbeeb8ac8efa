package store

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/internal/proc"
)

// Screen leases: one live screen per annotator and database, across
// processes (a local screen, every SSH session of annotate serve). The lease
// is a row of screen_leases, taken in a write transaction, so two launches
// racing for it queue on the write lock and exactly one gets it. Every
// write transaction of a process that holds a lease checks it again before
// it commits, for each annotator it writes for: a lease taken over by
// another screen stops this one's writes, and a row deleted by hand is
// taken back. Nothing lives beside the database, so no file there
// (deleted, replaced, a symlink) has a say.
//
// Whether a holder still runs is asked of its process (proc.Alive: pid and
// start time, on its own machine), so a screen killed with SIGKILL is gone
// the moment it dies. A holder on another machine is judged by its
// heartbeat, which a goroutine of the lease refreshes every heartbeatEvery;
// a heartbeat that meets a long write is only late, and a lease is taken
// over only once its heartbeat is staleAfter old, far beyond any write.

// Lease timings.
var (
	heartbeatEvery = 30 * time.Second
	staleAfter     = 5 * time.Minute
)

// ScreenHolder says where a screen runs.
type ScreenHolder struct {
	proc.ID
	Where     string // "tty /dev/pts/3", "ssh from 10.0.0.7:51234"
	Since     time.Time
	Heartbeat time.Time
}

func (h ScreenHolder) String() string { return h.in(nil) }

// in names the holder in a reader's language (nil: English).
func (h ScreenHolder) in(l *lang.Printer) string {
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

// ScreenHeldError refuses a second screen, naming where the first runs.
type ScreenHeldError struct {
	Annotator string
	DB        string // the database's file name
	Holder    ScreenHolder
}

func (e *ScreenHeldError) Error() string { return e.SayIn(nil) }

// SayIn is the error in a reader's language (lang.Say).
func (e *ScreenHeldError) SayIn(l *lang.Printer) string {
	return l.Sprintf("%s already has a screen open on %s (%s): one live screen per annotator, so that two screens never label the same item; close that one first",
		e.Annotator, e.DB, e.Holder.in(l))
}

// ScreenTakenError is a write refused because the screen's lease is held
// by another screen now.
type ScreenTakenError struct {
	Annotator string
	Holder    ScreenHolder
}

func (e *ScreenTakenError) Error() string { return e.SayIn(nil) }

// SayIn is the error in a reader's language (lang.Say).
func (e *ScreenTakenError) SayIn(l *lang.Printer) string {
	return l.Sprintf("another screen of %s holds the database now (%s): this screen can no longer save; close it", e.Annotator, e.Holder.in(l))
}

// ScreenLease is a held screen lease.
type ScreenLease struct {
	s         *Store
	annotator string
	name      string
	token     string
	me        ScreenHolder
	every     time.Duration // heartbeatEvery when it was taken
	stop      chan struct{}
	done      chan struct{}
	once      sync.Once
}

// liveTokens are the leases this process holds, by token: a holder of this
// process is alive exactly while its lease is (annotate serve's sessions
// share one pid).
var liveTokens sync.Map

// ScreenName is the lease of annotator's screen of a sort ("": annotation;
// "review": the lead's review).
func screenName(annotator, sort string) string {
	if sort == "" {
		return annotator
	}
	return annotator + " (" + sort + ")"
}

// AcquireScreen takes the lease of annotator's screen of a sort ("" for the
// annotation screens, "review" for the lead's review), or returns a
// *ScreenHeldError naming where the live one runs. where says where this
// one runs ("ssh from …", "tty /dev/pts/3"). It is one write transaction:
// run it under Retry to wait for a long writer.
func (s *Store) AcquireScreen(annotator, sort, where string) (*ScreenLease, error) {
	tok := make([]byte, 16)
	rand.Read(tok)
	l := &ScreenLease{s: s, annotator: annotator, name: screenName(annotator, sort), token: hex.EncodeToString(tok),
		me: ScreenHolder{ID: proc.Self(), Where: where, Since: time.Now().Round(time.Second)}}
	err := s.write(func(tx *wtx) error {
		h, ok, err := leaseRow(tx, l.name)
		if err != nil {
			return err
		}
		if ok && holderAlive(h.holder, h.token) {
			return &ScreenHeldError{Annotator: l.name, DB: filepath.Base(s.Path), Holder: h.holder}
		}
		return l.put(tx)
	})
	if err != nil {
		return nil, err
	}
	liveTokens.Store(l.token, true)
	s.leaseMu.Lock()
	if s.leases == nil {
		s.leases = map[string][]*ScreenLease{}
	}
	s.leases[annotator] = append(s.leases[annotator], l)
	s.leaseMu.Unlock()
	l.stop, l.done, l.every = make(chan struct{}), make(chan struct{}), heartbeatEvery
	go l.beat()
	return l, nil
}

// put writes the lease row as this holder's.
func (l *ScreenLease) put(tx *wtx) error {
	t := time.Now().UTC().Format(time.RFC3339)
	_, err := tx.Exec(`INSERT OR REPLACE INTO screen_leases(name, token, host, boot, pid, pid_start, place, since, heartbeat)
		VALUES (?,?,?,?,?,?,?,?,?)`, l.name, l.token, l.me.Host, l.me.Boot, l.me.PID, l.me.Start, l.me.Where,
		l.me.Since.UTC().Format(time.RFC3339), t)
	return err
}

type leaseHeld struct {
	token  string
	holder ScreenHolder
}

// leaseRow reads the lease row of name.
func leaseRow(q querier, name string) (leaseHeld, bool, error) {
	var h leaseHeld
	var since, beat string
	err := q.QueryRow(`SELECT token, host, boot, pid, pid_start, place, since, heartbeat FROM screen_leases WHERE name=?`, name).
		Scan(&h.token, &h.holder.Host, &h.holder.Boot, &h.holder.PID, &h.holder.Start, &h.holder.Where, &since, &beat)
	if errors.Is(err, errNoRows) {
		return h, false, nil
	}
	if err != nil {
		return h, false, err
	}
	h.holder.Since, _ = time.Parse(time.RFC3339, since)
	h.holder.Heartbeat, _ = time.Parse(time.RFC3339, beat)
	return h, true, nil
}

// holderAlive reports whether the holder of a lease row still runs: a
// holder of this process while its lease is held; one of this machine
// while its process runs; one of another machine while its heartbeat is
// recent.
func holderAlive(h ScreenHolder, token string) bool {
	if _, ok := liveTokens.Load(token); ok {
		return true
	}
	me := proc.Self()
	if h.Here() {
		if h.PID == me.PID && (h.Start == 0 || h.Start == me.Start) {
			return false // this process, which does not hold it (any more)
		}
		return proc.Alive(h.ID)
	}
	return time.Since(h.Heartbeat) < staleAfter
}

// checkLeases is run by every write transaction before it commits: for
// each annotator it wrote for whose screen this Store holds a lease, the
// lease must still be this screen's. A row gone (deleted by hand) is taken
// back, since nobody else holds it; a row of another holder refuses the
// write.
func (t *wtx) checkLeases() error {
	s := t.store
	if len(t.annotators) == 0 {
		return nil
	}
	s.leaseMu.Lock()
	var mine []*ScreenLease
	for name := range t.annotators {
		mine = append(mine, s.leases[name]...)
	}
	s.leaseMu.Unlock()
	for _, l := range mine {
		h, ok, err := leaseRow(t, l.name)
		switch {
		case err != nil:
			return err
		case !ok:
			if err := l.put(t); err != nil {
				return err
			}
		case h.token != l.token:
			return &ScreenTakenError{Annotator: l.annotator, Holder: h.holder}
		}
	}
	return nil
}

// beat refreshes the lease's heartbeat until Release. A heartbeat that
// cannot be written (a long write holds the lock) is simply late.
func (l *ScreenLease) beat() {
	defer close(l.done)
	tick := time.NewTicker(l.every)
	defer tick.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-tick.C:
			l.s.write(func(tx *wtx) error {
				_, err := tx.Exec("UPDATE screen_leases SET heartbeat=? WHERE name=? AND token=?",
					time.Now().UTC().Format(time.RFC3339), l.name, l.token)
				return err
			})
		}
	}
}

// Release gives the lease up. The row goes (if it is still this lease's);
// a row that cannot be removed now (a long write holds the lock) names a
// holder that is gone, which the next screen takes over.
func (l *ScreenLease) Release() {
	if l == nil {
		return
	}
	l.once.Do(func() {
		close(l.stop)
		<-l.done
		liveTokens.Delete(l.token)
		s := l.s
		s.leaseMu.Lock()
		kept := s.leases[l.annotator][:0]
		for _, o := range s.leases[l.annotator] {
			if o != l {
				kept = append(kept, o)
			}
		}
		s.leases[l.annotator] = kept
		s.leaseMu.Unlock()
		s.write(func(tx *wtx) error {
			_, err := tx.Exec("DELETE FROM screen_leases WHERE name=? AND token=?", l.name, l.token)
			return err
		})
	})
}

// Writers: a long writer (an import) records itself before it takes the
// write lock, so that a screen or a command waiting for the lock can say
// what it waits for.

type writerRow struct {
	id   int64
	what string
	proc.ID
}

func writerRows(q querier) ([]writerRow, error) {
	var out []writerRow
	err := eachRow(q, "SELECT id, what, host, boot, pid, pid_start FROM writers ORDER BY id", nil, func(sc func(...any) error) error {
		var w writerRow
		err := sc(&w.id, &w.what, &w.Host, &w.Boot, &w.PID, &w.Start)
		out = append(out, w)
		return err
	})
	return out, err
}

// Writing says which long writer writes to the database now ("an import
// (pid 4242)"), "" when none said so, in a reader's language (nil:
// English). It reads without waiting.
func (rx *ReadTx) Writing(l *lang.Printer) string {
	ws, _ := writerRows(rx.q)
	for i := len(ws) - 1; i >= 0; i-- {
		if w := ws[i]; proc.Alive(w.ID) {
			what := w.what
			if what == ImportWriter {
				what = l.Sprintf("an import")
			}
			return l.Sprintf("%s (pid %s)", what, strconv.Itoa(w.PID))
		}
	}
	return ""
}

// WaitingMessage is what a command or a screen says while it waits for
// another process's write to the database to end.
// It is said in a reader's language (nil: English).
func (s *Store) WaitingMessage(l *lang.Printer) string {
	var who string
	s.Read(func(rx *ReadTx) error { who = rx.Writing(l); return nil })
	if who == "" {
		who = l.Sprintf("another process")
	}
	return l.Sprintf("%s is writing to %s; waiting…", who, filepath.Base(s.Path))
}

// ImportWriter is what an import records itself as (import_steps.go): the
// writers table holds it in English, and Writing says it in the reader's
// language.
const ImportWriter = "an import"

// Digest is every row of every table but those that say who uses the file
// (the screens' leases, the writers, an import's journal), each table's
// rows in a fixed order: two databases with the same digest hold the same
// data. The tests compare databases by it (a failed import undone leaves
// every table as it was, not every byte of the file).
func (rx *ReadTx) Digest() (string, error) {
	var tables []string
	err := eachRow(rx.q, "SELECT name FROM sqlite_schema WHERE type='table' AND name NOT LIKE 'sqlite%' ORDER BY name", nil, func(sc func(...any) error) error {
		var n string
		if err := sc(&n); err != nil {
			return err
		}
		if n != "writers" && n != "import_undo" && n != "screen_leases" {
			tables = append(tables, n)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, name := range tables {
		rows, err := rx.q.Query("SELECT * FROM " + quoteIdent(name))
		if err != nil {
			return "", err
		}
		cols, _ := rows.Columns()
		vals, ptrs := make([]any, len(cols)), make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		var lines []string
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				rows.Close()
				return "", err
			}
			var l strings.Builder
			for i, v := range vals {
				if i > 0 {
					l.WriteByte('|')
				}
				if bs, ok := v.([]byte); ok {
					v = string(bs)
				}
				fmt.Fprintf(&l, "%#v", v)
			}
			lines = append(lines, l.String())
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return "", err
		}
		slices.Sort(lines)
		b.WriteString("== " + name + "\n" + strings.Join(lines, "\n") + "\n")
	}
	return b.String(), nil
}
