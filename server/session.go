package server

import (
	"net"
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	bm "charm.land/wish/v2/bubbletea"
	"github.com/annotate-dev/annotate/tui"
	gossh "golang.org/x/crypto/ssh"
)

// logSession logs one line when a session starts and one when it ends (who,
// from where, how long), and counts it so Shutdown can wait for it.
func (s *Server) logSession(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		s.mu.Lock()
		closing := s.closing
		if !closing {
			s.sessions.Add(1)
		}
		s.mu.Unlock()
		if closing {
			wish.Errorln(sess, "annotate: the server is shutting down; try again later.")
			sess.Exit(1)
			return
		}
		defer s.sessions.Done()

		start := time.Now()
		who, from := s.annotator(sess), sess.RemoteAddr().String()
		pty, _, hasPty := sess.Pty()
		s.log.Info("connect", "annotator", who, "from", from, "key", gossh.FingerprintSHA256(sess.PublicKey()),
			"term", pty.Term, "width", pty.Window.Width, "height", pty.Window.Height, "pty", hasPty,
			"command", sess.RawCommand(), "client", sess.Context().ClientVersion())
		defer func() {
			s.log.Info("disconnect", "annotator", who, "from", from, "duration", time.Since(start).Round(time.Second).String())
		}()
		next(sess)
	}
}

// guard refuses everything that is not an interactive shell: the TUI is the
// only thing served, so imports, exports and reports stay with the lead.
func (s *Server) guard(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if sess.RawCommand() != "" {
			wish.Errorln(sess, "annotate: commands are not available over SSH; connect without one: "+sshHint(sess))
			sess.Exit(1)
			return
		}
		if _, _, ok := sess.Pty(); !ok {
			wish.Errorln(sess, "annotate needs a terminal: "+sshHint(sess))
			sess.Exit(1)
			return
		}
		next(sess)
	}
}

// running is a session's TUI: its program, for Shutdown to end it, and its
// model, to record the end of the annotation session afterwards.
type running struct {
	p *tea.Program
	m *tui.Model
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

// program builds the session's TUI program: the same screens as a local
// "annotate", from the home screen, recorded as an "ssh" session. The wish
// middleware runs it and forwards window size changes to it.
func (s *Server) program(sess ssh.Session) *tea.Program {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return nil // the middleware skips to goodbye, which says why
	}
	// MakeOptions wires the session as input and output and passes the
	// client's TERM and environment, from which Bubble Tea picks the colour
	// profile (wish v2 needs no separate colour-profile middleware). The
	// program must not catch the server's own SIGINT/SIGTERM: serve handles
	// them and ends every program through Shutdown.
	opts := append(bm.MakeOptions(sess), tea.WithoutSignalHandler())
	m := tui.New(tui.Options{Store: s.cfg.Store, Annotator: s.annotator(sess), Client: "ssh", SessionLimit: s.cfg.SessionLimit})
	p := tea.NewProgram(m, opts...)
	s.programs[sess] = running{p, m}
	return p
}

// goodbye runs after the program ended, whether the annotator quit, the
// connection dropped or the server is stopping. It records the end of the
// annotation session (the program only ends; tui.Run would do this for a
// local TUI) and, when the server is stopping, tells the annotator their
// work is kept.
func (s *Server) goodbye(ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		s.mu.Lock()
		closing := s.closing
		r, ok := s.programs[sess]
		delete(s.programs, sess)
		s.mu.Unlock()
		if ok && r.m.SessionID() != 0 {
			if err := s.cfg.Store.EndSession(r.m.SessionID()); err != nil {
				s.log.Error("could not record the end of the session", "annotator", s.annotator(sess), "error", err.Error())
			}
		}
		if closing {
			wish.Println(sess, "annotate: the server is shutting down; every decision is saved.")
		}
	}
}
