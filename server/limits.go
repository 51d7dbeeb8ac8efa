package server

import (
	"encoding/binary"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// What one client may ask of the server. Each session's memory follows from
// these: Bubble Tea keeps screen buffers of width×height cells (a
// 10000×10000 pty grew the server by gigabytes), and the SSH library keeps
// every env request and buffers up to 2 MB of unread input per channel.
const (
	MaxWidth  = 500 // columns a session may ask for; larger requests are clamped
	MaxHeight = 300 // rows, likewise

	maxChannels  = 2    // session channels open at once on one connection (the second is told why it is refused)
	maxEnvVars   = 32   // env requests kept per session (TERM, LANG, NO_COLOR… need a handful)
	maxEnvBytes  = 1024 // longest env request kept
	maxPtyReqLen = 4096 // a pty request's terminal modes take a few hundred bytes
)

// Defaults of Config.MaxConnections, Config.MaxUnauthenticated,
// Config.KeepAlive and Config.WriteTimeout. A team's annotators may all log
// in at once (40 at the start of a session): a login takes a few
// milliseconds of the server's time, and connections past
// MaxUnauthenticated wait for a login to end rather than fail.
const (
	DefaultMaxConnections     = 64
	DefaultMaxUnauthenticated = 32
	DefaultKeepAlive          = 15 * time.Second
	DefaultWriteTimeout       = 30 * time.Second
)

// How long a connection may take to log in. A real client sends its
// version line as it connects and then answers the server at once, so a
// connection that has sent nothing after silentGrace is silent, and one
// that has sent nothing for stallTimeout since it last did has stalled:
// either may be closed to make room for a new one. One that has said
// nothing after silentTimeout is closed anyway; the whole login (key
// exchange and public-key authentication, with an agent or a key
// passphrase typed) has loginTimeout.
const (
	silentGrace   = time.Second
	stallTimeout  = 2 * time.Second
	silentTimeout = 5 * time.Second
	loginTimeout  = 20 * time.Second
	// slotCheck is how often a connection waiting for a login slot looks
	// again whether one of those logging in has gone silent.
	slotCheck = 50 * time.Millisecond
)

// limitListener admits connections within the caps, before the SSH
// handshake, and tracks them. Connections still logging in have a budget of
// their own (Config.MaxUnauthenticated). When it is spent, or when every
// connection slot is taken, a new connection takes the place of a
// connection not logged in that is silent, has stalled or is past the login
// timeout (the longest quiet first), so that connections that never log in
// cannot lock annotators out; it never takes the place of one that is
// logging in. If every connection not logged in is, the new one waits
// (before its handshake starts; the next connections wait in the system's
// queue) until a login ends or one goes quiet; only when every slot is held
// by a logged-in connection is a new one refused. Its first Accept tells
// Shutdown that serving has started.
type limitListener struct {
	net.Listener
	s *Server

	started sync.Once
	serving chan struct{} // closed by the first Accept
	closing sync.Once
	closed  chan struct{} // closed by Close

	mu     sync.Mutex
	conns  map[*trackedConn]struct{} // open connections
	unauth int                       // of them, not yet authenticated
	freed  chan struct{}             // closed, and replaced, when a connection closes or logs in
}

func newLimitListener(ln net.Listener, s *Server) *limitListener {
	return &limitListener{Listener: ln, s: s, serving: make(chan struct{}), closed: make(chan struct{}),
		conns: map[*trackedConn]struct{}{}, freed: make(chan struct{})}
}

func (l *limitListener) Accept() (net.Conn, error) {
	// ssh.Server.Serve registers the listener before its first Accept; a
	// Shutdown waits for this so that it never races that registration.
	l.started.Do(func() { close(l.serving) })
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		tc := &trackedConn{Conn: c, l: l}
		if reason := l.admit(tc); reason != "" {
			l.s.log.Warn("refused connection", "from", c.RemoteAddr().String(), "reason", reason)
			c.Close()
			continue
		}
		return tc, nil
	}
}

func (l *limitListener) Close() error {
	l.closing.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

// admit counts a new connection in, closing a quiet connection not logged
// in to make room if need be, or waiting for a login to end, or says why
// it is refused.
func (l *limitListener) admit(c *trackedConn) string {
	arrived := time.Now()
	for {
		now := time.Now()
		l.mu.Lock()
		full := len(l.conns) >= l.s.cfg.MaxConnections
		if !full && l.unauth < l.s.cfg.MaxUnauthenticated {
			l.conns[c] = struct{}{}
			l.unauth++
			c.opened = now
			c.silence = time.AfterFunc(l.s.silent, c.closeIfSilent)
			l.mu.Unlock()
			if waited := now.Sub(arrived); waited >= slotCheck {
				l.s.log.Info("a connection waited for others to log in", "from", c.RemoteAddr().String(),
					"waited", waited.Round(time.Millisecond).String())
			}
			return ""
		}
		victim, quiet, loggingIn := l.quietest(now)
		freed := l.freed
		l.mu.Unlock()
		reason := "too many connections (--max-connections)"
		if !full {
			reason = "too many unauthenticated connections (--max-unauthenticated)"
		}
		switch {
		case victim != nil:
			l.s.log.Info("closed a connection not logged in, to make room for a new one", "from", victim.RemoteAddr().String(),
				"silent", !victim.spoke(), "quiet", quiet.Round(time.Millisecond).String(),
				"age", now.Sub(victim.opened).Round(time.Millisecond).String(), "reason", reason)
			victim.Close() // counts it out; the loop then admits c
			continue
		case !loggingIn: // every slot is held by a logged-in connection
			return reason
		case now.Sub(arrived) > loginTimeout: // cannot happen: logins end by then
			return reason + ", logging in for longer than the login timeout"
		}
		t := time.NewTimer(slotCheck)
		select {
		case <-freed:
		case <-t.C:
		case <-l.closed:
			t.Stop()
			return "the server is shutting down"
		}
		t.Stop()
	}
}

// quietest is the connection to close for a new one: of those not logged
// in that are silent (nothing sent after silentGrace), have stalled
// (nothing sent for stallTimeout) or are past the login timeout, the one
// quiet for longest, silent ones first; nil if there is none. loggingIn
// reports whether any connection is not logged in (a slot may free). l.mu
// is held.
func (l *limitListener) quietest(now time.Time) (victim *trackedConn, quiet time.Duration, loggingIn bool) {
	for c := range l.conns {
		if c.authed {
			continue
		}
		loggingIn = true
		q := c.quiet(now)
		if !(c.spoke() && q >= l.s.stall || !c.spoke() && q >= l.s.silentGrace || now.Sub(c.opened) >= loginTimeout) {
			continue // logging in
		}
		if victim == nil || !c.spoke() && victim.spoke() || c.spoke() == victim.spoke() && q > quiet {
			victim, quiet = c, q
		}
	}
	return victim, quiet, loggingIn
}

// closeAll closes every open connection, authenticated or not.
func (l *limitListener) closeAll() {
	l.mu.Lock()
	conns := make([]*trackedConn, 0, len(l.conns))
	for c := range l.conns {
		conns = append(conns, c)
	}
	l.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
}

// trackedConn is one admitted connection. It also holds what the server
// keeps per connection: how many session channels are open, and whether its
// keepalive runs.
type trackedConn struct {
	net.Conn
	l *limitListener

	opened    time.Time    // admitted; guarded by l.mu
	lastRead  atomic.Int64 // when the client last sent something (UnixNano), 0: never
	silence   *time.Timer  // closes it if it has not spoken after silentTimeout; guarded by l.mu
	once      sync.Once    // counts the close once
	authed    bool         // guarded by l.mu
	channels  int          // guarded by l.mu
	keepAlive sync.Once
}

func (c *trackedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.lastRead.Store(time.Now().UnixNano())
	}
	return n, err
}

// spoke reports whether the client has sent anything.
func (c *trackedConn) spoke() bool { return c.lastRead.Load() != 0 }

// quiet is how long the client has sent nothing: since it last did, or
// since it was admitted. l.mu is held (opened).
func (c *trackedConn) quiet(now time.Time) time.Duration {
	last := c.opened
	if t := c.lastRead.Load(); t != 0 {
		last = time.Unix(0, t)
	}
	return now.Sub(last)
}

// closeIfSilent closes the connection if the client has not sent anything.
func (c *trackedConn) closeIfSilent() {
	if !c.spoke() {
		c.l.s.log.Info("closed a connection that sent nothing", "from", c.RemoteAddr().String(), "after", c.l.s.silent.String())
		c.Close()
	}
}

func (c *trackedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		if c.silence != nil {
			c.silence.Stop()
		}
		delete(c.l.conns, c)
		if !c.authed {
			c.l.unauth--
		}
		c.l.free()
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}

// authenticated moves the connection out of the unauthenticated count.
func (c *trackedConn) authenticated() {
	c.l.mu.Lock()
	defer c.l.mu.Unlock()
	if !c.authed {
		c.authed = true
		c.l.unauth--
		c.l.free()
	}
}

// free wakes the connections waiting for a slot. l.mu is held.
func (l *limitListener) free() {
	close(l.freed)
	l.freed = make(chan struct{})
}

// openChannel counts a session channel in, unless the connection has
// maxChannels already; closeChannel counts it out.
func (c *trackedConn) openChannel() bool {
	c.l.mu.Lock()
	defer c.l.mu.Unlock()
	if c.channels >= maxChannels {
		return false
	}
	c.channels++
	return true
}

func (c *trackedConn) closeChannel() {
	c.l.mu.Lock()
	c.channels--
	c.l.mu.Unlock()
}

// trackedConnKey finds a connection's trackedConn in its ssh.Context.
var trackedConnKey = &struct{ name string }{"annotate tracked conn"}

// track remembers the admitted connection in its context (ssh.Server's
// ConnCallback), so that the authentication and channel hooks find it.
func (s *Server) track(ctx ssh.Context, c net.Conn) net.Conn {
	if tc, ok := c.(*trackedConn); ok {
		ctx.SetValue(trackedConnKey, tc)
	}
	return c
}

func trackedOf(ctx ssh.Context) *trackedConn {
	tc, _ := ctx.Value(trackedConnKey).(*trackedConn)
	return tc
}

// serverConfig marks a connection authenticated once a key is accepted
// (ssh.Server's ServerConfigCallback; the library adds the host key and the
// public key callback). AuthLogCallback sees a nil error only on success,
// not on a client's query whether a key would do.
func (s *Server) serverConfig(ctx ssh.Context) *gossh.ServerConfig {
	return &gossh.ServerConfig{
		AuthLogCallback: func(_ gossh.ConnMetadata, _ string, err error) {
			if tc := trackedOf(ctx); err == nil && tc != nil {
				tc.authenticated()
			}
		},
	}
}

// sessionChannel serves a "session" channel with its requests filtered
// (limitedChannel), at most maxChannels per connection, and starts the
// connection's keepalive.
func (s *Server) sessionChannel(srv *ssh.Server, conn *gossh.ServerConn, nc gossh.NewChannel, ctx ssh.Context) {
	tc := trackedOf(ctx)
	if tc == nil { // not through our listener (cannot happen); refuse rather than serve unbounded
		nc.Reject(gossh.ResourceShortage, "annotate: connection not tracked")
		return
	}
	if !tc.openChannel() {
		s.log.Warn("refused channel", "from", conn.RemoteAddr().String(), "reason", "too many sessions on one connection")
		nc.Reject(gossh.ResourceShortage, "annotate: too many sessions on one connection")
		return
	}
	// The channel is counted out when the server closes it (after a
	// session, before the client can see the close and open the next one)
	// or when the library is done with it (the client closed it).
	var once sync.Once
	release := func() { once.Do(tc.closeChannel) }
	defer release()
	tc.keepAlive.Do(func() { go s.keepAlive(ctx, conn) })
	ssh.DefaultSessionHandler(srv, conn, &limitedChannel{NewChannel: nc, s: s, from: conn.RemoteAddr().String(), release: release}, ctx)
}

// keepAlive pings the client every Config.KeepAlive and closes the
// connection when an answer takes longer than that: a client whose network
// vanished sends no FIN, and a TCP write to it can block for many minutes.
// Closing the connection ends its session (and unblocks its writes).
func (s *Server) keepAlive(ctx ssh.Context, conn *gossh.ServerConn) {
	t := time.NewTicker(s.cfg.KeepAlive)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if !responds(conn, s.cfg.KeepAlive) {
			s.log.Warn("client stopped answering; closing its connection", "from", conn.RemoteAddr().String(),
				"after", s.cfg.KeepAlive.String())
			conn.Close()
			return
		}
	}
}

// responds reports whether the client answers a keepalive request within
// timeout. Clients answer requests they do not know with a failure, which
// is an answer too.
func responds(conn gossh.Conn, timeout time.Duration) bool {
	answered := make(chan error, 1)
	go func() {
		_, _, err := conn.SendRequest("keepalive@openssh.com", true, nil)
		answered <- err
	}()
	select {
	case err := <-answered:
		return err == nil
	case <-time.After(timeout):
		return false // the request goroutine ends when the connection closes
	}
}

// limitedChannel is a session channel whose requests pass through filter
// before the SSH library sees them, and that is counted out of its
// connection's channels (release) when the server closes it.
type limitedChannel struct {
	gossh.NewChannel
	s       *Server
	from    string
	release func()
}

type releasingChannel struct {
	gossh.Channel
	release func()
}

func (c *releasingChannel) Close() error {
	c.release()
	return c.Channel.Close()
}

func (c *limitedChannel) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := c.NewChannel.Accept()
	if err != nil {
		return ch, reqs, err
	}
	out := make(chan *gossh.Request)
	go func() {
		defer close(out)
		envs, clamped := 0, false
		for req := range reqs {
			if c.filter(req, &envs, &clamped) {
				out <- req
			}
		}
	}()
	return &releasingChannel{Channel: ch, release: c.release}, out, nil
}

// filter clamps the window size of pty-req and window-change requests to
// MaxWidth×MaxHeight (by rewriting the payload, so the library, the log and
// the TUI all see the clamped size) and refuses oversized requests and env
// requests past the limits. It reports whether to pass the request on.
func (c *limitedChannel) filter(req *gossh.Request, envs *int, clamped *bool) bool {
	refuse := func() bool {
		if req.WantReply {
			req.Reply(false, nil)
		}
		return false
	}
	var size []byte // the payload's columns and rows (two uint32)
	switch req.Type {
	case "env":
		*envs++
		if *envs > maxEnvVars || len(req.Payload) > maxEnvBytes {
			return refuse()
		}
		return true
	case "pty-req": // string TERM, uint32 columns, uint32 rows, pixels, modes
		if len(req.Payload) > maxPtyReqLen || len(req.Payload) < 4 {
			return refuse()
		}
		n := int(binary.BigEndian.Uint32(req.Payload))
		if n > len(req.Payload)-4-16 {
			return refuse()
		}
		size = req.Payload[4+n : 4+n+8]
	case "window-change": // uint32 columns, uint32 rows, pixels
		if len(req.Payload) < 16 {
			return refuse()
		}
		size = req.Payload[:8]
	default:
		return true
	}
	w, h := binary.BigEndian.Uint32(size), binary.BigEndian.Uint32(size[4:])
	cw, ch := min(w, MaxWidth), min(h, MaxHeight)
	if cw != w || ch != h {
		binary.BigEndian.PutUint32(size, cw)
		binary.BigEndian.PutUint32(size[4:], ch)
		if !*clamped { // once per session: a resize flood must not flood the log
			*clamped = true
			c.s.log.Info("window clamped", "from", c.from, "asked_width", w, "asked_height", h,
				"width", cw, "height", ch)
		}
	}
	return true
}
