package adjudicate

import (
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// The review's ? shows, under its keys, which version of the guidelines is
// in force, read from the database when it opens: the lead decides under
// the same text the annotators see on their ?.

type guideVersionsMsg struct {
	versions map[string]store.GuidelineVersion
	err      error
}

func loadGuideVersionsCmd(s *store.Store) tea.Cmd {
	return func() tea.Msg {
		v, err := s.CurrentGuidelines()
		return guideVersionsMsg{v, err}
	}
}

// guidelinesInForce is the one line the help shows: the fields past their
// first version with who changed them and when, the rest as shipped.
func guidelinesInForce(l *lang.Printer, msg guideVersionsMsg) string {
	if msg.err != nil {
		return l.Sprintf("Guidelines in force: could not be read (%s)", ui.SanitizeLine(msg.err.Error()))
	}
	var changed []string
	for f, v := range msg.versions {
		if v.Version > 1 {
			day := v.CreatedAt
			if len(day) >= 10 {
				day = day[:10]
			}
			changed = append(changed, l.Sprintf("%s v%d (%s, %s)", ui.SanitizeLine(f), v.Version, ui.SanitizeLine(v.Author), ui.SanitizeLine(day)))
		}
	}
	if len(changed) == 0 {
		return l.Sprintf("Guidelines in force: version 1 of every field, as shipped (annotate guidelines history)")
	}
	sort.Strings(changed)
	return l.Sprintf("Guidelines in force: %s; every other field v1 (annotate guidelines history)", strings.Join(changed, "; "))
}
