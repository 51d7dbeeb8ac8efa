package adjudicate

import (
	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// QA pairs on the review screens: a pair's question and answer over its
// context.

func init() {
	registerRender(schema.KindQA, kindRender{
		top: func(st ui.Styles, d *store.ReviewDetail, w int) []string { return ui.QATop(st, *pairOf(d), w) },
		pane: func(st ui.Styles, d *store.ReviewDetail, w int) []string {
			return ui.ContextLines(st, pairOf(d).Contexts, w, nil)
		},
		title: func(l *lang.Printer, d *store.ReviewDetail) string {
			if n := len(pairOf(d).Contexts); n > 1 {
				return l.Sprintf("Context (%d units)", n)
			}
			return l.Sprintf("Context")
		},
		generated: func(d *store.ReviewDetail, field string) string {
			if field == schema.Category {
				return pairOf(d).Category
			}
			return ""
		},
	})
}

// pairOf is the item's QA pair: the item itself, or a claim's answer's.
func pairOf(d *store.ReviewDetail) *store.QAPair {
	if q, ok := d.Root.(*store.QAPair); ok {
		return q
	}
	return &store.QAPair{}
}
