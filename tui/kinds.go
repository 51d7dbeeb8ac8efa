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

// Kind is how the annotation screens show the items of one kind: its
// names, the item above the context pane (Top: what does not fit is
// continued in the pane), what the pane shows under it (Pane) and the
// pane's title. Each kind of the product is a type of its own file
// (kind_qa.go, kind_claim.go, …) registered in init, so a new kind is a new
// file: the screens, the home rows and the --kind check read this registry
// and name no kind themselves. A kind from outside the package (the test
// kind of internal/toykind) implements the same interface and draws with
// Drawing's building blocks.
//
// Optional behaviour is one of the small interfaces below, found by type
// assertion. They reach the screens' own state (the item's data, the
// screen), so only the product's kinds implement them.
type Kind interface {
	Kind() schema.Kind
	Names() Names
	Top(dr Drawing, w int) []string
	Pane(dr Drawing, w int) []string
	PaneTitle(dr Drawing) string
}

// Names are a kind's names, catalog keys (lang.Key) said in the screen's
// language.
type Names struct {
	Label string // the header: "QA gdpr-001"
	Queue string // the home screen's row: "QA pairs"
	Noun  string // "Loading the QA queue…"
}

// Drawing is what a kind draws its item from at a step: the item's data,
// the step, and the screen's styles and language. Its exported methods are
// the building blocks a kind outside this package draws with (ui.Styles is
// internal to tui/); the product's kinds draw with the same styles
// through ui.
type Drawing struct {
	st ui.Styles
	d  *itemData
	at step
}

// Item is the item on screen as the store loaded it (its Payload is its
// kind's); an empty item before it is loaded.
func (dr Drawing) Item() *store.Item {
	if dr.d == nil || dr.d.view == nil || dr.d.view.Item == nil {
		return &store.Item{}
	}
	return dr.d.view.Item
}

// Lang is the language the screen is written in.
func (dr Drawing) Lang() *lang.Printer { return dr.st.Lang }

// Labelled is text under a label (a hanging indent when w allows),
// wrapped to w; text is data, made inert before it is drawn.
func (dr Drawing) Labelled(label, text string, w int) []string {
	return ui.Labelled(dr.st, label, ui.Data(text), w, nil, nil)
}

// Text is text wrapped to w; it is data, made inert before it is drawn.
func (dr Drawing) Text(text string, w int) []string {
	return ui.WrapStyled(ui.Data(text), nil, w, nil)
}

// itemLoader fills the kind's part of the item's data from what the store
// loaded (a claim's pair and siblings); without it the screens read d.view.
type itemLoader interface {
	load(d *itemData, v *store.ItemView)
}

// preselector gives the value enter accepts at a field (a QA pair's
// generated category), by field.
type preselector interface {
	preselect(d *itemData) map[string]string
}

// notAskedNoter says, in the home's note under the kind's queue, why n of
// its items are not asked yet in the kind's own words (a claim: its answer
// not judged correct); without it the note names "the item they belong to".
type notAskedNoter interface {
	notAskedNote(l *lang.Printer, n int) string
}

// ownStepper is a kind with a step of its own after its fields (the
// claim's missed-claims step, asked on the last claim of an answer).
type ownStepper interface {
	ownStep() *ownStep
}

// keyHandler is a kind with keys of its own (the relevance screen's
// search): keys sees each key first (handled false: the screen's keys go
// on); bindings edits the help bar.
type keyHandler interface {
	keys(s *itemScreen, msg tea.KeyPressMsg) (next ui.Child, cmd tea.Cmd, handled bool)
	bindings(s *itemScreen, help []key.Binding) []key.Binding
}

// paneKeyer is a kind whose pane changes beyond the item and the step
// (the relevance search): its part of the pane's cache key.
type paneKeyer interface {
	paneKey(d *itemData) string
}

// cardDrawer is a kind that replaces the field card when card returns
// lines (the relevance grades).
type cardDrawer interface {
	card(st ui.Styles, s *itemScreen, w int, compact bool) []string
}

// ownScreen is a kind that opens its items on a screen of its own instead
// of the field-by-field item screen (the answer editor).
type ownScreen interface {
	screen(e *env, d *itemData, o origin) (ui.Child, tea.Cmd)
}

// ownStep is a step of a kind's own after its fields: it records a marker
// on the item's parent (the answer's missed_claims_checked) and lets the
// annotator add items there (missed claims). What it does is its kind's
// (ownStepRules); the rest is what it is called and records.
type ownStep struct {
	ownStepRules
	marker string // the parent's field it records
	// section is the step's guidelines section, and the field a note
	// written at the step is about.
	section string
	// checked is the marker when the annotator added nothing, added when
	// they did.
	checked, added string
	refused        string // what the step's keys do, for a key that answers nothing
	// title names the step in the header, after which comes the id of the
	// parent it is about (ownStepRules.of); the trail shows the parent's
	// decisions then, not the item's.
	title string
}

// ownStepRules is what a kind's own step does: whether it follows this
// item's fields, how many items the annotator added there that stand, its
// card, and the parent it is about (its ext id and item id).
type ownStepRules interface {
	asked(d *itemData) bool
	count(d *itemData) int
	card(st ui.Styles, f flow, w int) []string
	of(d *itemData) (ext string, item int64)
}

var kinds schema.Registry[Kind]

// Register adds k to the annotation screens; a kind registers once.
func Register(k Kind) { kinds.Add(k) }

// viewOf is the registered view of a kind (a kind with none shows its id only).
func viewOf(k schema.Kind) Kind {
	if v, ok := kinds.Lookup(k); ok {
		return v
	}
	return unregistered(k)
}

// unregistered shows an item of a kind no screen knows by its id only.
type unregistered schema.Kind

func (u unregistered) Kind() schema.Kind { return schema.Kind(u) }
func (u unregistered) Names() Names {
	return Names{Label: string(u), Queue: string(u), Noun: string(u)}
}
func (unregistered) Top(Drawing, int) []string   { return nil }
func (unregistered) Pane(Drawing, int) []string  { return nil }
func (unregistered) PaneTitle(dr Drawing) string { return dr.st.Lang.Sprintf("Context") }

// Kinds lists the kinds the annotation screens can open, in queue order.
func Kinds() []string {
	var out []string
	for _, k := range schema.Kinds() {
		if _, ok := kinds.Lookup(k); ok {
			out = append(out, string(k))
		}
	}
	return out
}

// CheckKind accepts "" (the home screen) and the kinds of Kinds().
func CheckKind(kind string) error {
	if _, ok := kinds.Lookup(schema.Kind(kind)); ok || kind == "" {
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
