package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// FramePacing is the frame rate option of the annotation screens, for
// programs started outside this package (the SSH server's sessions).
func FramePacing() tea.ProgramOption { return ui.FramePacing() }
