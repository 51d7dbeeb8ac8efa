package tui

import (
	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// What a kind registered from outside this package (a test package's toy
// kind: internal/toykind) needs of the annotation screens, which cannot
// reach ui.Styles: plain text, drawn here through the sanitiser.

// View is how the annotation screens show a kind registered from outside.
type View struct {
	Kind                schema.Kind
	Label, Queue, Noun  string // the header ("Citation"), the home row, the loading line
	TopLabel, PaneTitle string // the label of the item's text above the pane; the pane's title
	// Top is the item's text above the pane, Pane what the pane shows
	// (nil: nothing); both are data, made inert before they are drawn.
	Top, Pane func(it *store.Item) string
}

// RegisterView registers v as its kind's annotation screen.
func RegisterView(v View) {
	text := func(f func(*store.Item) string, d *itemData) string {
		if f == nil || d.view == nil {
			return ""
		}
		return f(d.view.Item)
	}
	registerKind(kindView{
		kind: v.Kind, label: v.Label, queue: v.Queue, noun: v.Noun,
		top: func(st ui.Styles, d *itemData, _ step, w int) []string {
			return ui.Labelled(st, v.TopLabel, ui.Data(text(v.Top, d)), w, nil, nil)
		},
		pane: func(st ui.Styles, d *itemData, _ step, w int) []string {
			return ui.WrapStyled(ui.Data(text(v.Pane, d)), nil, w, nil)
		},
		paneTitle: func(*lang.Printer, *itemData, step) string { return v.PaneTitle },
	})
}
