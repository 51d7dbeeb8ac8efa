// Package server is annotate's SSH server: each authorized key gets its
// annotator's annotation TUI, and nothing else (no commands, no subsystems,
// no forwarding). All sessions share one *store.Store, whose connection pool,
// busy timeout and BEGIN IMMEDIATE transactions let them write at once.
//
// No client can exhaust it: connections and unauthenticated connections are
// capped (connections still logging in give way to new ones, so they never
// lock annotators out), window sizes are clamped, per-session requests,
// input and output are bounded, an annotator has one session at a time,
// clients that stop answering or reading are disconnected, and Shutdown
// ends within its deadline whatever the clients do.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"github.com/annotate-dev/annotate/store"
	gossh "golang.org/x/crypto/ssh"
)

// DefaultListen is the address served when Config.Listen is empty: loopback
// only, so exposing the server to the network is a deliberate choice.
const DefaultListen = "127.0.0.1:23234"

// ShutdownTimeout is what serve gives Shutdown on SIGINT/SIGTERM, so that
// the process is gone within 10 s. Decisions are committed as they are
// made, so it only matters for recording the end of each session and
// restoring terminals.
const ShutdownTimeout = 8 * time.Second

// Config configures a Server.
type Config struct {
	Listen             string // host:port (default 127.0.0.1:23234); "127.0.0.1:0" picks a free port
	HostKeyPath        string // private host key, created (ed25519, 0600) if missing
	AuthorizedKeysPath string // OpenSSH authorized_keys; the comment names the annotator
	Store              *store.Store
	SessionLimit       time.Duration // passed to the TUI (break reminder)
	Logger             *slog.Logger  // nil: slog.Default()

	MaxConnections     int           // open connections at once (0: DefaultMaxConnections)
	MaxUnauthenticated int           // of them, not yet authenticated (0: DefaultMaxUnauthenticated)
	KeepAlive          time.Duration // ping interval and answer timeout (0: DefaultKeepAlive)
	WriteTimeout       time.Duration // longest a write to a client may wait (0: DefaultWriteTimeout)
}

// Server serves the annotation TUI over SSH.
type Server struct {
	cfg     Config
	log     *slog.Logger
	keys    map[string]string // fingerprint -> annotator
	ssh     *ssh.Server
	ln      *limitListener
	hostKey gossh.PublicKey
	served  chan struct{} // closed when ListenAndServe returns
	probe   time.Duration // how long a second session waits for the first one's client to answer
	silent  time.Duration // how long a new connection may stay silent (silentTimeout)
	// How long a connection not logged in may be quiet before it gives way
	// to a new one: having sent nothing (silentGrace), or nothing since it
	// last did (stallTimeout).
	silentGrace, stall time.Duration
	releasing          atomic.Bool // a release of freed memory is scheduled (releaseMemory)

	mu       sync.Mutex
	closing  bool
	serving  bool                         // ListenAndServe was called
	programs map[ssh.Session]*tea.Program // running TUIs, for Shutdown to quit them
	active   map[string]*activeSession    // by annotator
	sessions sync.WaitGroup               // running session handlers
	running  int                          // how many
}

// New reads the keys and binds the listening address, so that a bad key file
// or a busy port fails at start and Addr is known before serving.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("server: no store")
	}
	if cfg.AuthorizedKeysPath == "" {
		return nil, errors.New("server: an authorized keys file is required")
	}
	if cfg.HostKeyPath == "" {
		return nil, errors.New("server: a host key path is required")
	}
	if cfg.Listen == "" {
		// Never let an empty value mean every interface.
		cfg.Listen = DefaultListen
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.MaxConnections < 0 || cfg.MaxUnauthenticated < 0 || cfg.KeepAlive < 0 || cfg.WriteTimeout < 0 {
		return nil, errors.New("server: the connection limits, the keepalive and the write timeout must not be negative")
	}
	if cfg.MaxConnections == 0 {
		cfg.MaxConnections = DefaultMaxConnections
	}
	if cfg.MaxUnauthenticated == 0 {
		cfg.MaxUnauthenticated = DefaultMaxUnauthenticated
	}
	if cfg.KeepAlive == 0 {
		cfg.KeepAlive = DefaultKeepAlive
	}
	if cfg.WriteTimeout == 0 {
		cfg.WriteTimeout = DefaultWriteTimeout
	}
	s := &Server{cfg: cfg, log: cfg.Logger, served: make(chan struct{}), probe: min(cfg.KeepAlive, 5*time.Second),
		silent: silentTimeout, silentGrace: silentGrace, stall: stallTimeout,
		programs: map[ssh.Session]*tea.Program{}, active: map[string]*activeSession{}}
	// No silent identities over SSH: a key's name new but close to a known
	// annotator is a typo in the keys file, refused as --as refuses it.
	var known []string
	if cfg.Store != nil {
		all, err := store.ReadValue(cfg.Store, (*store.ReadTx).Annotators)
		if err != nil {
			return nil, err
		}
		for _, a := range all {
			known = append(known, a.Name)
		}
	}
	var err error
	if s.keys, err = ParseAuthorizedKeys(cfg.AuthorizedKeysPath, known); err != nil {
		return nil, err
	}
	signer, created, err := loadHostKey(cfg.HostKeyPath)
	if err != nil {
		return nil, err
	}
	s.hostKey = signer.PublicKey()
	if created {
		s.log.Info("created host key", "path", cfg.HostKeyPath, "fingerprint", gossh.FingerprintSHA256(s.hostKey))
	} else if looseMode(cfg.HostKeyPath) {
		s.log.Warn("host key is readable by others; run chmod 600 on it", "path", cfg.HostKeyPath)
	}
	s.ssh = s.newSSHServer(signer)
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	s.ln = newLimitListener(ln, s)
	return s, nil
}

// newSSHServer sets up a server that only accepts the listed public keys and
// only runs the TUI. Password and keyboard-interactive handlers are left nil,
// so those methods are refused; the channel, request and subsystem maps are
// set (rather than left to package defaults) so nothing but a session
// channel with a shell is ever served.
func (s *Server) newSSHServer(signer gossh.Signer) *ssh.Server {
	return &ssh.Server{
		Version:              "annotate",
		HostSigners:          []ssh.Signer{signer},
		PublicKeyHandler:     s.authorize,
		Handler:              s.handle,
		ChannelHandlers:      map[string]ssh.ChannelHandler{"session": s.sessionChannel},
		RequestHandlers:      map[string]ssh.RequestHandler{},
		SubsystemHandlers:    map[string]ssh.SubsystemHandler{},
		ConnCallback:         s.track,
		ServerConfigCallback: s.serverConfig,
		// An unauthenticated client may not hold a connection open for
		// long (and is closed sooner when its slot is wanted: admit).
		HandshakeTimeout: loginTimeout,
		ConnectionFailedCallback: func(c net.Conn, err error) {
			s.log.Info("refused", "from", c.RemoteAddr().String(), "reason", err.Error())
		},
	}
}

// authorize accepts exactly the keys of the authorized keys file, and logs
// the fingerprint of every other key offered (as ssh-keygen -l prints it),
// so the lead can tell whose key is missing from the file.
func (s *Server) authorize(ctx ssh.Context, key ssh.PublicKey) bool {
	fp := gossh.FingerprintSHA256(key)
	if _, ok := s.keys[fp]; ok {
		return true
	}
	s.log.Warn("refused key", "fingerprint", fp, "type", key.Type(), "from", ctx.RemoteAddr().String(), "user", ctx.User())
	return false
}

// annotator names the annotator of an authenticated session. It looks at the
// key the session was authenticated with, not at keys merely offered.
func (s *Server) annotator(sess ssh.Session) string {
	if k := sess.PublicKey(); k != nil {
		return s.keys[gossh.FingerprintSHA256(k)]
	}
	return ""
}

// Addr is the address the server listens on.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// HostKey is the server's public host key (for known_hosts and tests).
func (s *Server) HostKey() gossh.PublicKey { return s.hostKey }

// ListenAndServe serves on the address bound by New until Shutdown, and then
// returns nil. It is called once.
func (s *Server) ListenAndServe() error {
	s.mu.Lock()
	closing := s.closing
	s.serving = !closing
	s.mu.Unlock()
	defer close(s.served)
	if closing { // Shutdown came first
		s.ln.Close()
		return nil
	}
	s.log.Info("listening", "addr", s.Addr().String(), "annotators", len(s.keys),
		"host_key", gossh.FingerprintSHA256(s.hostKey), "max_connections", s.cfg.MaxConnections,
		"max_unauthenticated", s.cfg.MaxUnauthenticated)
	err := s.ssh.Serve(s.ln)
	if errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops accepting connections, asks every TUI to quit (each then
// tells its annotator their work is kept; decisions are committed as they
// are made) and waits for the sessions for 3 s (or half the time ctx leaves,
// if that is shorter). Then it closes every connection, which ends the
// sessions of clients that stopped reading or vanished (their writes fail,
// their programs are killed), and waits for those until ctx ends. It
// returns ctx's error if sessions were still running then.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closing = true
	serving := s.serving
	for _, p := range s.programs {
		go p.Quit() // Quit blocks until the program's loop reads it, or it ends
	}
	s.mu.Unlock()

	// ssh.Server.Serve registers its listener in a WaitGroup that
	// ssh.Server.Shutdown waits on; in charm.land/ssh v0.4.3 a Shutdown
	// right after Serve started races that registration (the race detector
	// reports WaitGroup.Add against Wait). Waiting until Serve is accepting
	// (or has returned) orders the two.
	if serving {
		select {
		case <-s.ln.serving:
		case <-s.served:
		}
	}
	shut := make(chan error, 1)
	go func() { shut <- s.ssh.Shutdown(ctx) }() // closes the listener, then waits for connections

	// A program quits in milliseconds once its loop reads the Quit; one
	// that has not after a few seconds is stuck writing to its client.
	graceful, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < 6*time.Second {
		graceful, cancel = context.WithTimeout(ctx, time.Until(deadline)/2)
		defer cancel()
	}
	if waitGroup(graceful, &s.sessions) != nil {
		s.mu.Lock()
		running := s.running
		s.mu.Unlock()
		s.log.Info("shutdown: closing the connections of sessions that did not end", "sessions_running", running)
	}
	// Clients keep their connection open after their session ended, and
	// unauthenticated ones are not known to ssh.Server: close them all.
	s.ssh.Close()
	s.ln.closeAll()
	err := waitGroup(ctx, &s.sessions)
	if err != nil {
		s.log.Warn("shutdown: sessions still running at the deadline", "error", err.Error())
	}
	<-shut
	return err
}

// ServeUntilSignal serves until one of sigs arrives, then shuts down within
// timeout. A second signal ends the process at once.
func (s *Server) ServeUntilSignal(timeout time.Duration, sigs ...os.Signal) error {
	ctx, stop := signal.NotifyContext(context.Background(), sigs...)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- s.ListenAndServe() }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	stop()
	start := time.Now()
	s.log.Info("shutting down", "timeout", timeout.String())
	sctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	err := s.Shutdown(sctx)
	if serr := <-served; serr != nil {
		err = errors.Join(err, serr)
	}
	s.log.Info("stopped", "took", time.Since(start).Round(time.Millisecond).String())
	return err
}

// waitGroup waits for wg or ctx, whichever comes first.
func waitGroup(ctx context.Context, wg *sync.WaitGroup) error {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
