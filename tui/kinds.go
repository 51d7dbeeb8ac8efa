package tui

import (
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"

	"github.com/annotate-dev/annotate/internal/suggest"
)

// kindView is how the annotation screens show the items of one kind. Each
// kind registers its own from its own file (kind_qa.go, kind_claim.go), so a new kind
// is a new file: the screens, the home rows and the --kind check read this
// registry and name no kind themselves.
type kindView struct {
	kind schema.Kind
	// The kind's names, catalog keys (lang.Key) said in the screen's
	// language.
	label string // the header: "QA gdpr-001"
	queue string // the home screen's row: "QA pairs"
	noun  string // "Loading the QA queue…"

	// top is the item above the context pane at a step (what does not fit
	// is continued in the pane); pane what the pane shows under it;
	// paneTitle the pane's title.
	top       func(st ui.Styles, d *itemData, at step, w int) []string
	pane      func(st ui.Styles, d *itemData, at step, w int) []string
	paneTitle func(l *lang.Printer, d *itemData, at step) string
	// own is the kind's step after its fields (the claim's missed-claims
	// step, asked on the last claim of an answer); nil: none.
	own *ownStep

	// load fills the kind's part of the item's data from what the store
	// loaded (a claim's pair and siblings); nil: the screens read d.view.
	load func(d *itemData, v *store.ItemView)
	// preselect is the value enter accepts at a field (a QA pair's
	// generated category), by field; nil: none.
	preselect func(d *itemData) map[string]string

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

// ownStep is a step of a kind's own after its fields: it records a marker
// on the item's parent (the answer's missed_claims_checked) and lets the
// annotator add items there (missed claims).
type ownStep struct {
	asked  func(d *itemData) bool // the step follows this item's fields
	marker string                 // the parent's field it records
	// section is the step's guidelines section, and the field a note
	// written at the step is about.
	section string
	// checked is the marker when the annotator added nothing, added when
	// they did.
	checked, added string
	count          func(d *itemData) int // the items the annotator added that stand
	refused        string                // what the step's keys do, for a key that answers nothing
	card           func(st ui.Styles, f flow, w int) []string
	// title names the step in the header, after which comes the id of the
	// parent it is about (of: its ext id and item id); the trail shows the
	// parent's decisions then, not the item's.
	title string
	of    func(d *itemData) (ext string, item int64)
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
		paneTitle: func(l *lang.Printer, _ *itemData, _ step) string { return l.Sprintf("Context") }}
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
	if m := suggest.Close(kind, Kinds(), suggest.Edits(kind)); len(m) > 0 {
		for i := range m {
			m[i] = strconv.Quote(m[i])
		}
		return lang.Errorf("kind %q: must be %s; did you mean %s?", kind, lang.OrList(Kinds()), lang.OrList(m))
	}
	return lang.Errorf("kind %q: must be %s", kind, lang.OrList(Kinds()))
}
