// Package server is annotate's SSH server: each authorized key gets its
// annotator's annotation TUI, and nothing else (no commands, no subsystems,
// no forwarding). All sessions share one *store.Store, whose connection pool,
// busy timeout and BEGIN IMMEDIATE transactions let them write at once.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"

	"charm.land/ssh"
	"charm.land/wish/v2"
	bm "charm.land/wish/v2/bubbletea"
	"github.com/annotate-dev/annotate/store"
	gossh "golang.org/x/crypto/ssh"
)

// DefaultListen is the address served when Config.Listen is empty: loopback
// only, so exposing the server to the network is a deliberate choice.
const DefaultListen = "127.0.0.1:23234"

// Config configures a Server.
type Config struct {
	Listen             string // host:port (default 127.0.0.1:23234); "127.0.0.1:0" picks a free port
	HostKeyPath        string // private host key, created (ed25519, 0600) if missing
	AuthorizedKeysPath string // OpenSSH authorized_keys; the comment names the annotator
	Store              *store.Store
	SessionLimit       time.Duration // passed to the TUI (break reminder)
	Logger             *slog.Logger  // nil: slog.Default()
}

// Server serves the annotation TUI over SSH.
type Server struct {
	cfg     Config
	log     *slog.Logger
	keys    map[string]string // fingerprint -> annotator
	ssh     *ssh.Server
	ln      net.Listener
	hostKey gossh.PublicKey

	mu       sync.Mutex
	closing  bool
	programs map[ssh.Session]running // by session
	sessions sync.WaitGroup          // running session handlers
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
	s := &Server{cfg: cfg, log: cfg.Logger, programs: map[ssh.Session]running{}}
	var err error
	if s.keys, err = ParseAuthorizedKeys(cfg.AuthorizedKeysPath); err != nil {
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
	if s.ln, err = net.Listen("tcp", cfg.Listen); err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	return s, nil
}

// newSSHServer sets up a server that only accepts the listed public keys and
// only runs the TUI. Password and keyboard-interactive handlers are left nil,
// so those methods are refused; the channel, request and subsystem maps are
// set empty (rather than left to package defaults) so nothing but a session
// channel with a shell is ever served.
func (s *Server) newSSHServer(signer gossh.Signer) *ssh.Server {
	srv := &ssh.Server{
		Version:           "annotate",
		HostSigners:       []ssh.Signer{signer},
		PublicKeyHandler:  s.authorize,
		ChannelHandlers:   map[string]ssh.ChannelHandler{"session": ssh.DefaultSessionHandler},
		RequestHandlers:   map[string]ssh.RequestHandler{},
		SubsystemHandlers: map[string]ssh.SubsystemHandler{},
		// An unauthenticated client may not hold a connection open forever.
		HandshakeTimeout: 30 * time.Second,
		ConnectionFailedCallback: func(c net.Conn, err error) {
			s.log.Info("refused", "from", c.RemoteAddr().String(), "reason", err.Error())
		},
	}
	// Listed last runs first: log, then refuse what is not a TUI session,
	// then run the TUI, then say goodbye.
	wish.WithMiddleware(s.goodbye, bm.MiddlewareWithProgramHandler(s.program), s.guard, s.logSession)(srv)
	return srv
}

// authorize accepts exactly the keys of the authorized keys file.
func (s *Server) authorize(_ ssh.Context, key ssh.PublicKey) bool {
	_, ok := s.keys[gossh.FingerprintSHA256(key)]
	return ok
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
// returns nil.
func (s *Server) ListenAndServe() error {
	s.log.Info("listening", "addr", s.Addr().String(), "annotators", len(s.keys),
		"host_key", gossh.FingerprintSHA256(s.hostKey))
	err := s.ssh.Serve(s.ln)
	if errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	// A Shutdown that comes before Serve has registered the listener closes
	// the listener itself: Serve then sees a closed connection, not
	// ErrServerClosed, and that is a clean stop too.
	s.mu.Lock()
	closing := s.closing
	s.mu.Unlock()
	if closing && errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}

// Shutdown stops accepting connections, ends every TUI (each records the end
// of its annotation session; decisions are already committed) and waits for
// the sessions to finish, or for ctx. It then closes what is left.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closing = true
	for _, r := range s.programs {
		go r.p.Quit() // Quit blocks until the program's loop reads it
	}
	s.mu.Unlock()

	// ssh.Server.Shutdown closes the listener, then waits for connections;
	// clients keep a connection open after its session ended, so once every
	// session is done Close drops the idle connections.
	shut := make(chan error, 1)
	go func() { shut <- s.ssh.Shutdown(ctx) }()
	err := waitGroup(ctx, &s.sessions)
	s.ssh.Close()
	if err != nil {
		// Closed connections cancel the sessions' contexts, which quits the
		// remaining programs; give them a moment to record their end.
		grace, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		waitGroup(grace, &s.sessions)
		s.log.Warn("shutdown timed out; connections closed", "error", err.Error())
	}
	<-shut
	s.ln.Close() // in case Serve never ran
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
