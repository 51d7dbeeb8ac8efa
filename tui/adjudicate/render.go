package adjudicate

import (
	"strconv"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// The item as the review screens show it (ui.Frame): above the pane the
// item itself, in the pane what it is judged against. Each kind registers
// its rendering from its own file (kind_qa.go, kind_relevance.go, …), as it does
// for the annotation screens.

// kindRender draws one kind of item on the review screens.
type kindRender struct {
	top   func(st ui.Styles, d *store.ReviewDetail, w int) []string
	pane  func(st ui.Styles, d *store.ReviewDetail, w int) []string
	title func(l *lang.Printer, d *store.ReviewDetail) string
	// generated is the value a generator proposed for a field (a QA
	// pair's category), tagged among the options; nil or "": none.
	generated func(d *store.ReviewDetail, field string) string
}

// generatedOf is the generator's value of a field of the item, "" none.
func generatedOf(d *store.ReviewDetail, field string) string {
	if g := renderOf(d).generated; g != nil {
		return g(d, field)
	}
	return ""
}

var renders = map[schema.Kind]kindRender{}

func registerRender(k schema.Kind, r kindRender) { renders[k] = r }

// renderOf is the kind's rendering; a kind without one shows its id and an
// empty pane rather than another kind's empty fields.
func renderOf(d *store.ReviewDetail) kindRender {
	if r, ok := renders[schema.Kind(d.Kind)]; ok {
		return r
	}
	return kindRender{
		top: func(st ui.Styles, d *store.ReviewDetail, w int) []string {
			return []string{st.Label.Render(ui.Truncate(ui.SanitizeLine(d.Kind+" "+d.ExtID), w))}
		},
		pane:  func(ui.Styles, *store.ReviewDetail, int) []string { return nil },
		title: func(l *lang.Printer, _ *store.ReviewDetail) string { return l.Sprintf("Item") },
	}
}

func itemTop(st ui.Styles, d *store.ReviewDetail, w int) []string  { return renderOf(d).top(st, d, w) }
func itemPane(st ui.Styles, d *store.ReviewDetail, w int) []string { return renderOf(d).pane(st, d, w) }
func paneTitleOf(l *lang.Printer, d *store.ReviewDetail) string {
	return renderOf(d).title(l, d)
}

func itoa(n int) string { return strconv.Itoa(n) }
