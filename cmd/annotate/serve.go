package main

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/annotate-dev/annotate/server"
	"github.com/spf13/cobra"
)

// shutdownTimeout bounds how long serve waits for sessions to end on
// SIGINT/SIGTERM. Decisions are committed as they are made, so it only
// matters for recording the end of each session and restoring terminals.
const shutdownTimeout = 10 * time.Second

func init() {
	register(func(g *globals) *cobra.Command {
		var listen, hostKey, authKeys string
		var limit time.Duration
		cmd := &cobra.Command{
			Use:   "serve",
			Short: "SSH server giving each authorized key its annotator's TUI",
			Long: `serve lets remote annotators reach the annotation screens over SSH:
"ssh -t -p 23234 HOST" opens the same TUI as "annotate --as NAME" locally.

--authorized-keys is an OpenSSH authorized_keys file, one line per key. The
key's comment is the annotator's name and is required, e.g.

  ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA... jo

An annotator may have several keys; a key has one annotator. The file is read
once at start: restart serve after editing it. Only public-key logins are
accepted (no passwords). Only the annotation TUI is served: no commands (no
import, export, reports or review), no subsystems, no port forwarding.

The host key is created on first run (ed25519, mode 0600); keep it so
annotators' known_hosts stay valid. Its fingerprint is logged at start.

Connections, refusals and disconnections are logged on stderr. SIGINT or
SIGTERM ends every session cleanly (decisions are saved as they are made).`,
			Example: `  annotate serve --authorized-keys annotators.keys
  annotate serve --db study.db --listen 0.0.0.0:23234 --authorized-keys annotators.keys
  ssh -t -p 23234 lead-machine        # from an annotator's machine`,
			Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
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
					Store: s, SessionLimit: limit, Logger: log})
				if err != nil {
					return err
				}
				return serve(srv, log)
			},
		}
		f := cmd.Flags()
		f.StringVar(&listen, "listen", "127.0.0.1:23234", "address to listen on (0.0.0.0:23234 for every interface)")
		f.StringVar(&hostKey, "host-key", "", "host private key, created if missing (default annotate_host_ed25519 next to the database)")
		f.StringVar(&authKeys, "authorized-keys", "", "authorized_keys file; each key's comment is its annotator (required)")
		f.DurationVar(&limit, "session-limit", 2*time.Hour, "remind annotators to take a break after this much active time")
		cmd.MarkFlagRequired("authorized-keys")
		return cmd
	})
}

// serve runs srv until SIGINT or SIGTERM, then shuts it down.
func serve(srv *server.Server, log *slog.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.ListenAndServe() }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	stop() // a second signal ends the process at once
	log.Info("shutting down", "timeout", shutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-served; serr != nil {
		err = errors.Join(err, serr)
	}
	return err
}
