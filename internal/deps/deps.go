//go:build tools

// Package deps pins the modules the project is built on, so that `go mod tidy`
// keeps them while the packages that import them are being written.
package deps

import (
	_ "charm.land/bubbles/v2/key"
	_ "charm.land/bubbletea/v2"
	_ "charm.land/glamour/v2"
	_ "charm.land/lipgloss/v2"
	_ "charm.land/ssh"
	_ "charm.land/wish/v2"
	_ "github.com/charmbracelet/x/exp/teatest/v2"
	_ "github.com/rivo/uniseg"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/spf13/cobra"
	_ "golang.org/x/crypto/ssh"
	_ "modernc.org/sqlite"
)
