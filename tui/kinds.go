package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tui/internal/ui"

	"github.com/annotate-dev/annotate/internal/suggest"
)

// kindView is how the annotation screens show the items of one kind. Each
// kind registers its own from its own file (qa.go, claim.go), so a new kind
// is a new file: the screens, the home rows and the --kind check read this
// registry and name no kind themselves.
type kindView struct {
	kind  schema.Kind
	label string // the header: "QA gdpr-001"
	queue string // the home screen's row: "QA pairs"
	noun  string // "Loading the QA queue…"

	// top is the item above the context pane at a step (what does not fit
	// is continued in the pane); pane what the pane shows under it;
	// paneTitle the pane's title.
	top       func(st ui.Styles, d *itemData, at step, w int) []string
	pane      func(st ui.Styles, d *itemData, at step, w int) []string
	paneTitle func(d *itemData, at step) string
	// stepCard draws the card of a step of the kind's own (the missed-claims
	// step); nil when the kind has none.
	stepCard func(st ui.Styles, f flow, w int) []string

	// Optional, for kinds with keys of their own (the relevance screen's
	// search): keys sees each key first (handled false: the screen's keys
	// go on); bindings edits the help bar; paneKey changes when the
	// pane's content does beyond the item and the step; card replaces the
	// field card when it returns lines.
	keys     func(s *itemScreen, msg tea.KeyPressMsg) (next ui.Child, cmd tea.Cmd, handled bool)
	bindings func(s *itemScreen, help []key.Binding) []key.Binding
	paneKey  func(d *itemData) string
	card     func(st ui.Styles, s *itemScreen, w int, compact bool) []string
	// screen opens an item on a screen of the kind's own instead of the
	// field-by-field item screen (the answer editor); nil: the item screen.
	screen func(e *env, d *itemData, o origin) (ui.Child, tea.Cmd)
}

var kindViews = map[schema.Kind]kindView{}

func registerKind(v kindView) { kindViews[v.kind] = v }

// viewOf is the registered view of a kind (a kind with none shows its id only).
func viewOf(k schema.Kind) kindView {
	if v, ok := kindViews[k]; ok {
		return v
	}
	none := func(ui.Styles, *itemData, step, int) []string { return nil }
	return kindView{kind: k, label: string(k), queue: string(k), noun: string(k), top: none, pane: none,
		paneTitle: func(*itemData, step) string { return "Context" }}
}

// Kinds lists the kinds the annotation screens can open, in queue order.
func Kinds() []string {
	var out []string
	for _, k := range schema.Kinds() {
		if _, ok := kindViews[k]; ok {
			out = append(out, string(k))
		}
	}
	return out
}

// CheckKind accepts "" (the home screen) and the kinds of Kinds().
func CheckKind(kind string) error {
	if _, ok := kindViews[schema.Kind(kind)]; ok || kind == "" {
		return nil
	}
	return fmt.Errorf("kind %q: must be %s%s", kind, strings.Join(Kinds(), " or "), suggest.Hint(kind, Kinds()))
}
