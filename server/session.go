package server

import (
	"context"
	"errors"
	"io"
	"net"
	"runtime/debug"
	"strconv"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	bm "charm.land/wish/v2/bubbletea"
	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui"
	gossh "golang.org/x/crypto/ssh"
)

// handle serves one session: it refuses what is not an interactive shell
// and a second session of the same annotator, then runs the annotator's
// TUI. It logs one line when the session starts and one when it ends.
func (s *Server) handle(sess ssh.Session) {
	windows := forwardWindows(sess) // first: whatever the session's fate, its window changes are read
	if !s.enter() {
		wish.Errorln(sess, "annotate: "+s.language(sess, "").Sprintf("the server is shutting down; try again later."))
		sess.Exit(1)
		return
	}
	defer s.leave()

	start := time.Now()
	who, from := s.annotator(sess), sess.RemoteAddr().String()
	pty, _, hasPty := sess.Pty()
	s.log.Info("connect", "annotator", who, "from", from, "key", gossh.FingerprintSHA256(sess.PublicKey()),
		"term", pty.Term, "width", pty.Window.Width, "height", pty.Window.Height, "pty", hasPty,
		"command", sess.RawCommand(), "client", sess.Context().ClientVersion())
	defer func() {
		s.log.Info("disconnect", "annotator", who, "from", from, "duration", time.Since(start).Round(time.Second).String())
	}()

	if !s.guard(sess) {
		return
	}
	dashboard := sess.RawCommand() == DashboardCommand
	if dashboard && !s.mayOpenDashboard(sess, who) {
		return
	}
	if !dashboard { // the dashboard writes nothing: it may run beside the lead's own screen
		release, ok := s.claim(sess, who)
		if !ok {
			return
		}
		defer release()
	}
	s.runTUI(sess, who, windows, dashboard)
}

// enter counts a session in, unless the server is shutting down (Shutdown
// waits for the sessions counted in).
func (s *Server) enter() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return false
	}
	s.sessions.Add(1)
	s.running++
	return true
}

// leave counts a session out, and has the memory it used handed back.
func (s *Server) leave() {
	s.mu.Lock()
	s.running--
	s.mu.Unlock()
	s.sessions.Done()
	s.releaseMemory()
}

// releaseMemory returns the memory freed by ended sessions to the system a
// second after a session ends (once for the sessions that end within that
// second). The Go runtime would otherwise hand it back over minutes, and the
// server would keep the size of its busiest moment.
func (s *Server) releaseMemory() {
	if s.releasing.CompareAndSwap(false, true) {
		time.AfterFunc(time.Second, func() {
			s.releasing.Store(false)
			debug.FreeOSMemory()
		})
	}
}

// guard refuses everything that is not an interactive shell: the TUI is the
// only thing served, so imports, exports and reports stay with the lead.
func (s *Server) guard(sess ssh.Session) bool {
	say := s.language(sess, "")
	if cmd := sess.RawCommand(); cmd != "" && cmd != DashboardCommand {
		wish.Errorln(sess, "annotate: "+say.Sprintf("commands are not available over SSH; connect without one: %s", sshHint(sess)))
		sess.Exit(1)
		return false
	}
	if _, _, ok := sess.Pty(); !ok {
		wish.Errorln(sess, say.Sprintf("annotate needs a terminal: %s", sshHint(sess)))
		sess.Exit(1)
		return false
	}
	return true
}

// sshHint is the command line that opens the TUI, as far as the server can
// tell (it does not know the name the client used for this host).
func sshHint(sess ssh.Session) string {
	hint := "ssh -t"
	if a, ok := sess.LocalAddr().(*net.TCPAddr); ok && a.Port != 22 {
		hint += " -p " + strconv.Itoa(a.Port)
	}
	return hint + " " + sess.User() + "@HOST"
}

// activeSession is an annotator's running session.
type activeSession struct {
	from  string
	since time.Time
	conn  gossh.Conn
	done  chan struct{} // closed when the session has ended
}

// claim makes this the annotator's only session. Each queue is the
// annotator's own and a screen shows the first item not yet labelled, so two
// sessions of one annotator would show the same item and label it twice:
// a second session is refused, and told where the first one is. When the
// first one's client no longer answers (its network vanished), that session
// is ended and this one takes its place, so a reconnecting annotator is not
// locked out until the keepalive notices.
func (s *Server) claim(sess ssh.Session, who string) (release func(), ok bool) {
	mine := &activeSession{from: sess.RemoteAddr().String(), since: time.Now(), done: make(chan struct{})}
	mine.conn, _ = sess.Context().Value(ssh.ContextKeyConn).(gossh.Conn)
	for attempt := 0; ; attempt++ {
		s.mu.Lock()
		old := s.active[who]
		if old == nil {
			s.active[who] = mine
		}
		s.mu.Unlock()
		if old == nil {
			free := func() {
				s.mu.Lock()
				delete(s.active, who)
				s.mu.Unlock()
				close(mine.done)
			}
			// The same lock as a local screen's ("annotate --as NAME"), so
			// a local screen and an SSH one exclude each other too.
			var lock *store.ScreenLease
			// Another process's long write (an import) is waited for, and
			// said so.
			err := s.cfg.Store.RetryLock(sess.Context(), func() {
				wish.Println(sess, "annotate: "+s.cfg.Store.WaitingMessage(s.language(sess, who)))
			}, func() (err error) {
				lock, err = s.cfg.Store.AcquireScreen(who, "", "ssh from "+mine.from)
				return err
			})
			if err != nil {
				free()
				s.log.Warn("refused second session", "annotator", who, "from", mine.from, "reason", err.Error())
				wish.Errorln(sess, "annotate: "+lang.Say(s.language(sess, who), err)+".")
				sess.Exit(1)
				return nil, false
			}
			return func() { lock.Release(); free() }, true
		}
		if attempt > 0 || old.conn == nil || responds(old.conn, s.probe) {
			s.log.Warn("refused second session", "annotator", who, "from", mine.from, "open_from", old.from,
				"open_since", old.since.Format(time.DateTime))
			wish.Errorln(sess, "annotate: "+s.language(sess, who).Sprintf("%s already has a session open (from %s since %s). One session per annotator, so that two screens never label the same item twice: close the other one and connect again.",
				who, old.from, old.since.Format("15:04")))
			sess.Exit(1)
			return nil, false
		}
		s.log.Info("replacing a session whose client stopped answering", "annotator", who, "open_from", old.from, "from", mine.from)
		old.conn.Close()
		select {
		case <-old.done:
		case <-time.After(s.probe):
		}
	}
}

// forwardWindows reads the session's window changes for as long as the SSH
// library sends them (it closes the channel with the SSH channel) and passes
// the latest one to the program stored in the returned pointer, if any. The
// channel is read from the start, whatever the handler does, and never
// waits for the program: the library's request loop blocks on a full window
// channel, and a blocked request loop stalls the whole connection (input,
// keepalive answers, even its closing). A flood of resizes thus costs one
// redraw at a time. The sizes arrive clamped (limitedChannel).
func forwardWindows(sess ssh.Session) *atomic.Pointer[tea.Program] {
	to := &atomic.Pointer[tea.Program]{}
	_, windows, ok := sess.Pty()
	if !ok || windows == nil {
		return to
	}
	var latest atomic.Pointer[ssh.Window]
	wake := make(chan struct{}, 1)
	go func() {
		defer close(wake)
		for w := range windows {
			latest.Store(&w)
			select {
			case wake <- struct{}{}:
			default: // a resize is already pending; it will take this size
			}
		}
	}()
	go func() {
		for range wake {
			if p, w := to.Load(), latest.Load(); p != nil {
				p.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height}) // returns once p has ended
			}
		}
	}()
	return to
}

// runTUI runs the annotator's TUI until they quit, their client goes away
// or the server stops. The annotation session is recorded before the
// program starts and ended after it, however it ended.
func (s *Server) runTUI(sess ssh.Session, who string, to *atomic.Pointer[tea.Program], dashboard bool) {
	// Another process's long write (an import) is waited for, and said so.
	// The dashboard records no session (it writes nothing).
	say := s.language(sess, who)
	var rec store.Session
	if !dashboard {
		err := s.cfg.Store.RetryLock(sess.Context(), func() {
			wish.Println(sess, "annotate: "+s.cfg.Store.WaitingMessage(say))
		}, func() (err error) {
			rec, err = s.cfg.Store.StartSession(who, "ssh")
			return err
		})
		if err != nil {
			s.log.Error("could not record the session", "annotator", who, "error", err.Error())
			wish.Errorln(sess, "annotate: "+say.Sprintf("the database is not available right now; try again later."))
			sess.Exit(1)
			return
		}
		defer func() {
			if err := s.cfg.Store.EndSession(rec.ID); err != nil {
				s.log.Error("could not record the end of the session", "annotator", who, "error", err.Error())
			}
		}()
	}

	// The program ends when the connection does: ssh cancels the session's
	// context when the client closes it, when a read or write fails, and
	// when the keepalive gives up on a client.
	ctx, cancel := context.WithCancel(sess.Context())
	defer cancel()
	// MakeOptions wires the session as input and output and passes the
	// client's TERM and environment, from which Bubble Tea picks the colour
	// profile. The program must not catch the server's own SIGINT/SIGTERM:
	// serve handles them and ends every program through Shutdown.
	//
	// The session's input and output are bounded rather than handed to
	// Bubble Tea as they are: keys are read no faster than the session's
	// commands return (pumpInput), and a client that stops taking the
	// output is disconnected (cutWriter).
	hangUp := func() {
		if c, ok := sess.Context().Value(ssh.ContextKeyConn).(gossh.Conn); ok {
			c.Close()
		}
		cancel()
	}
	out := &cutWriter{w: sess, timeout: s.cfg.WriteTimeout, cut: func() {
		s.log.Warn("client stopped reading its terminal; closing its connection", "annotator", who,
			"from", sess.RemoteAddr().String(), "after", s.cfg.WriteTimeout.String())
		hangUp()
	}}
	opts := append(bm.MakeOptions(sess), tea.WithInput(idleInput{ctx}), tea.WithOutput(out),
		tea.WithoutSignalHandler(), tea.WithContext(ctx), tui.FramePacing())
	opt := tui.Options{Store: s.cfg.Store, Annotator: who, Client: "ssh",
		SessionLimit: s.cfg.SessionLimit, SessionID: rec.ID, Lang: say.Code()}
	if dashboard {
		opt.Start = tui.Dashboard(nil) // review is not served: its command is named instead
		opt.Lang = ""                  // the lead's reports stay English
	}
	m := tui.New(opt)
	gate := newCommandGate(maxPendingCommands, pendingPatience)
	p := tea.NewProgram(boundedModel{m, ctx, gate}, opts...)
	pty, _, _ := sess.Pty()
	pumped := pumpInput(ctx, sess, pty.Term, p, gate, func() {
		s.log.Warn("client sent over a megabyte that is no key (an endless paste?); closing its connection", "annotator", who,
			"from", sess.RemoteAddr().String())
		hangUp()
	})
	// What the session's input held is garbage once its pump is done, which
	// may be after the session has left.
	defer func() { go func() { <-pumped; s.releaseMemory() }() }()

	s.mu.Lock()
	closing := s.closing
	if !closing {
		s.programs[sess] = p
	}
	s.mu.Unlock()
	if closing {
		wish.Errorln(sess, "annotate: "+say.Sprintf("the server is shutting down; try again later."))
		return
	}
	defer func() {
		s.mu.Lock()
		delete(s.programs, sess)
		s.mu.Unlock()
	}()

	// The annotator's window title comes back when the session ends, as it
	// does locally (tui.Run): saved on the terminal's title stack first.
	io.WriteString(sess, tui.SaveTitle)
	defer io.WriteString(sess, tui.RestoreTitle)
	to.Store(p)
	_, err := p.Run()
	to.Store(nil)
	gone := ctx.Err() != nil // the connection ended (or was cut), not the program
	cancel()                 // the input pump stops handing events over
	if err != nil && !(errors.Is(err, tea.ErrProgramKilled) && gone) {
		s.log.Error("the TUI ended with an error", "annotator", who, "error", err.Error())
	}
	s.mu.Lock()
	closing = s.closing
	s.mu.Unlock()
	if closing && !gone {
		wish.Println(sess, "annotate: "+say.Sprintf("the server is shutting down; every decision is saved."))
	}
}
