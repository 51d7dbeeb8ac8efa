package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tui/tuitest"
)

// A flood of ? (an SSH client can type megabytes of it) toggles the
// guidelines many times before their rendering (tens of milliseconds) comes
// back: it is rendered once, and kept even if the pop-up was closed
// meanwhile. Before, every opening started a rendering of its own: 50 here.
func TestGuidelinesRenderOnceUnderAFloodOfKeys(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.keys("y")
	var results []tea.Msg // what the commands return, delivered only later
	for i := 0; i < 100; i++ {
		_, cmd := h.m.Update(keyMsg("?"))
		tuitest.Run(cmd, func(msg tea.Msg) { results = append(results, msg) })
	}
	renders := 0
	for _, msg := range results {
		if _, ok := msg.(guideRenderedMsg); ok {
			renders++
		}
	}
	if renders != 1 {
		t.Fatalf("100 presses of ? started %d renderings of the guidelines, want 1", renders)
	}
	h.at("q1", schema.Category) // an even number of presses: closed
	for _, msg := range results {
		h.send(msg)
	}
	// Opened again, the pop-up shows the kept rendering at once.
	_, cmd := h.m.Update(keyMsg("?"))
	tuitest.Run(cmd, func(msg tea.Msg) {
		if _, ok := msg.(guideRenderedMsg); ok {
			t.Error("the guidelines were rendered again")
		}
	})
	if v := h.view(); !strings.Contains(v, "category —") || strings.Contains(v, "Rendering the guidelines") {
		t.Fatalf("the kept rendering is not shown:\n%s", v)
	}
}
