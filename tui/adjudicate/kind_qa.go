package adjudicate

import (
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// QA pairs on the review screens: a pair's question and answer over its
// context.

func init() { Register(qaKind{}) }

type qaKind struct{}

func (qaKind) Kind() schema.Kind { return schema.KindQA }

func (qaKind) Top(dr Drawing, w int) []string { return ui.QATop(dr.st, *pairOf(dr.d), w) }

func (qaKind) Pane(dr Drawing, w int) []string {
	return ui.ContextLines(dr.st, pairOf(dr.d).Contexts, w, nil)
}

func (qaKind) PaneTitle(dr Drawing) string {
	l := dr.st.Lang
	if n := len(pairOf(dr.d).Contexts); n > 1 {
		return l.Sprintf("Context (%d units)", n)
	}
	return l.Sprintf("Context")
}

// Generated is the pair's generated category, tagged among the options.
func (qaKind) Generated(d *store.AdjudicationDetail, field string) string {
	if field == schema.Category {
		return pairOf(d).Category
	}
	return ""
}

// pairOf is the item's QA pair: the item itself, or a claim's answer's.
func pairOf(d *store.AdjudicationDetail) *store.QAPair {
	if q, ok := d.Root.(*store.QAPair); ok {
		return q
	}
	return &store.QAPair{}
}
