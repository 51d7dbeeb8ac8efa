package adjudicate

import (
	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// What a kind registered from outside this package (a test package's toy
// kind: internal/toykind) needs of the review screens, which cannot reach
// ui.Styles: plain text, drawn here through the sanitiser.

// Render is how the review screens draw a kind registered from outside:
// TopLabel and Top above the pane, Pane (nil: nothing) under Title. Top
// and Pane are data, made inert before they are drawn.
type Render struct {
	TopLabel, Title string
	Top, Pane       func(d *store.ReviewDetail) string
}

// RegisterRender registers r as the review screens' drawing of kind k.
func RegisterRender(k schema.Kind, r Render) {
	text := func(f func(*store.ReviewDetail) string, d *store.ReviewDetail) string {
		if f == nil {
			return ""
		}
		return f(d)
	}
	registerRender(k, kindRender{
		top: func(st ui.Styles, d *store.ReviewDetail, w int) []string {
			return ui.Labelled(st, r.TopLabel, ui.Data(text(r.Top, d)), w, nil, nil)
		},
		pane: func(st ui.Styles, d *store.ReviewDetail, w int) []string {
			return ui.WrapStyled(ui.Data(text(r.Pane, d)), nil, w, nil)
		},
		title: func(*lang.Printer, *store.ReviewDetail) string { return r.Title },
	})
}
