package main

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/annotate-dev/annotate/server"
	"github.com/spf13/cobra"
)

func init() {
	register(func(g *globals) *cobra.Command {
		var listen, hostKey, authKeys string
		var limit, keepAlive, writeTimeout time.Duration
		var maxConns, maxUnauth int
		cmd := &cobra.Command{
			Use:   "serve",
			Short: "SSH server giving each authorized key its annotator's TUI",
			Long: `serve lets remote annotators reach the annotation screens over SSH:
"ssh -t -p 23234 HOST" opens the same TUI as "annotate --as NAME" locally.

--authorized-keys is an OpenSSH authorized_keys file, one line per key. The
key's comment is the annotator's name and is required, e.g.

  ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA... jo

A name is one printable word without commas, control or bidirectional
characters (the rules of imported names); a line that breaks them is refused
at start with the file and line.

An annotator may have several keys; a key has one annotator. The file is read
once at start: restart serve after editing it. Only public-key logins are
accepted (no passwords); a refused key is logged with its fingerprint as
"ssh-keygen -l -f KEY.pub" prints it. Only the annotation TUI is served: no
commands (no import, export, reports or review), no subsystems, no port
forwarding.

Limits, so that no client can exhaust the server:
  - at most --max-connections connections at once, of which at most
    --max-unauthenticated still logging in; a connection that has sent
    nothing after 5 s is closed, one not logged in after 20 s too; when the
    slots are taken, a new connection takes the place of one not logged in
    that is silent (nothing sent in 1 s) or has stalled (nothing sent
    for 2 s), so connections that never log in cannot lock annotators out;
    it never takes the place of one that is logging in, but waits for a
    login to end (40 annotators logging in at once all get in); only when
    every slot is logged in is a new one refused;
  - one session per annotator: a second one is refused and told where the
    first is (two screens would show the same item); if the first one's
    client no longer answers, it is ended and the new one takes its place;
  - the window is clamped to 500x300 (larger terminals see the screen in
    their top-left corner);
  - keys are read no faster than the session acts on them (a flood of keys
    waits in the client's SSH window, 2 MiB, and then stops the client);
  - every --keepalive the server pings each client and disconnects one that
    has not answered within that time, which ends its session; a client
    that has not taken the screen's output for --write-timeout (it stopped
    reading) is disconnected too.

The host key is created on first run (ed25519, mode 0600); keep it so
annotators' known_hosts stay valid. Its fingerprint is logged at start.

Connections, refusals and disconnections are logged on stderr. SIGINT or
SIGTERM ends every session (decisions are saved as they are made) and the
process within 10 s, even when clients have vanished.`,
			Example: `  annotate serve --authorized-keys annotators.keys
  annotate serve --db study.db --listen 0.0.0.0:23234 --authorized-keys annotators.keys
  ssh -t -p 23234 lead-machine        # from an annotator's machine`,
			Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				switch {
				case maxConns < 1:
					return fmt.Errorf("--max-connections: want at least 1, got %d", maxConns)
				case maxUnauth < 1:
					return fmt.Errorf("--max-unauthenticated: want at least 1, got %d", maxUnauth)
				case keepAlive < time.Second:
					return fmt.Errorf("--keepalive: want at least 1s, got %s", keepAlive)
				case writeTimeout < time.Second:
					return fmt.Errorf("--write-timeout: want at least 1s, got %s", writeTimeout)
				}
				if hostKey == "" {
					hostKey = filepath.Join(filepath.Dir(g.db), "annotate_host_ed25519")
				}
				s, err := g.openExisting()
				if err != nil {
					return err
				}
				defer s.Close()
				log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), nil))
				srv, err := server.New(server.Config{Listen: listen, HostKeyPath: hostKey, AuthorizedKeysPath: authKeys,
					Store: s, SessionLimit: limit, Logger: log,
					MaxConnections: maxConns, MaxUnauthenticated: maxUnauth, KeepAlive: keepAlive,
					WriteTimeout: writeTimeout})
				if err != nil {
					return err
				}
				return srv.ServeUntilSignal(server.ShutdownTimeout, os.Interrupt, syscall.SIGTERM)
			},
		}
		f := cmd.Flags()
		f.StringVar(&listen, "listen", "127.0.0.1:23234", "address to listen on (0.0.0.0:23234 for every interface)")
		f.StringVar(&hostKey, "host-key", "", "host private key, created if missing (default annotate_host_ed25519 next to the database)")
		f.StringVar(&authKeys, "authorized-keys", "", "authorized_keys file; each key's comment is its annotator (required)")
		f.DurationVar(&limit, "session-limit", 2*time.Hour, "remind annotators to take a break after this much active time")
		f.IntVar(&maxConns, "max-connections", server.DefaultMaxConnections, "connections open at once, logged in or not")
		f.IntVar(&maxUnauth, "max-unauthenticated", server.DefaultMaxUnauthenticated, "connections still logging in at once")
		f.DurationVar(&keepAlive, "keepalive", server.DefaultKeepAlive, "ping clients this often; disconnect one that does not answer within it")
		f.DurationVar(&writeTimeout, "write-timeout", server.DefaultWriteTimeout, "disconnect a client that has not taken the screen's output for this long")
		cmd.MarkFlagRequired("authorized-keys")
		return cmd
	})
}
