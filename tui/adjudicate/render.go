package adjudicate

import (
	"strconv"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// The item as the review screens show it (ui.Frame): above the pane the
// item itself, in the pane what it is judged against. Each kind is a type
// of its own file (kind_qa.go, kind_relevance.go, …) registered in init, as
// it is for the annotation screens; a kind from outside the package (the
// test kind of internal/toykind) implements the same interface.

// Kind is how the review screens draw one kind of item: Top above the
// pane, Pane in it under PaneTitle. Optional behaviour is one of the small
// interfaces below, which the screens look for by type assertion.
type Kind interface {
	Kind() schema.Kind
	Top(dr Drawing, w int) []string
	Pane(dr Drawing, w int) []string
	PaneTitle(dr Drawing) string
}

// GeneratedValues is a kind whose items carry the value a generator
// proposed for a field (a QA pair's category), tagged among the options;
// "": none for that field.
type GeneratedValues interface {
	Generated(d *store.AdjudicationDetail, field string) string
}

// ComparedNouns is a kind a system view compares (claims) that names its
// items in running text: catalog keys (lang.Key) for one and several. A
// kind without it is called by its schema noun and title.
type ComparedNouns interface {
	ComparedNouns() (one, several string)
}

// Drawing is what a kind draws its item from: the item under review, and
// the screen's styles and language. Its exported methods are the building
// blocks a kind outside this package draws with (ui.Styles is internal to
// tui/); the product's kinds draw with the same styles through ui.
type Drawing struct {
	st ui.Styles
	d  *store.AdjudicationDetail
}

// Detail is the item under review, as the store loaded it.
func (dr Drawing) Detail() *store.AdjudicationDetail { return dr.d }

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

var kinds schema.Registry[Kind]

// Register adds k to the review screens; a kind registers once.
func Register(k Kind) { kinds.Add(k) }

// renderOf is the item's kind; a kind without one shows its id and an
// empty pane rather than another kind's empty fields.
func renderOf(d *store.AdjudicationDetail) Kind {
	if k, ok := kinds.Lookup(schema.Kind(d.Kind)); ok {
		return k
	}
	return unregistered{}
}

// unregistered draws an item of a kind the review screens do not know.
type unregistered struct{}

func (unregistered) Kind() schema.Kind { return "" }
func (unregistered) Top(dr Drawing, w int) []string {
	return []string{dr.st.Label.Render(ui.Truncate(ui.SanitizeLine(dr.d.Kind+" "+dr.d.ExtID), w))}
}
func (unregistered) Pane(Drawing, int) []string  { return nil }
func (unregistered) PaneTitle(dr Drawing) string { return dr.st.Lang.Sprintf("Item") }

// generatedOf is the generator's value of a field of the item, "" none.
func generatedOf(d *store.AdjudicationDetail, field string) string {
	if g, ok := renderOf(d).(GeneratedValues); ok {
		return g.Generated(d, field)
	}
	return ""
}

func itemTop(st ui.Styles, d *store.AdjudicationDetail, w int) []string {
	return renderOf(d).Top(Drawing{st, d}, w)
}
func itemPane(st ui.Styles, d *store.AdjudicationDetail, w int) []string {
	return renderOf(d).Pane(Drawing{st, d}, w)
}
func paneTitleOf(st ui.Styles, d *store.AdjudicationDetail) string {
	return renderOf(d).PaneTitle(Drawing{st, d})
}

func itoa(n int) string { return strconv.Itoa(n) }
