package tui

import (
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store/storetest"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/tuitest"
)

// A flood of ? (an SSH client can type megabytes of it) toggles the
// guidelines many times before their load and rendering (tens of
// milliseconds) come back: the text is rendered once, and the rendering
// kept even if the pop-up was closed meanwhile. Before, every opening
// started a rendering of its own: 50 here.
func TestGuidelinesRenderOnceUnderAFloodOfKeys(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.keys("y")
	var results []tea.Msg // what the commands return, delivered only later
	for i := 0; i < 101; i++ {
		_, cmd := h.m.Update(keyMsg("?"))
		tuitest.Run(cmd, func(msg tea.Msg) { results = append(results, msg) })
	}
	// An odd number of presses: open. The loads arrive; one starts the
	// rendering, the others find it under way.
	var rendered []tea.Msg
	for _, msg := range results {
		_, cmd := h.m.Update(msg)
		tuitest.Run(cmd, func(msg tea.Msg) {
			if _, ok := msg.(guideRenderedMsg); ok {
				rendered = append(rendered, msg)
			}
		})
	}
	if len(rendered) != 1 {
		t.Fatalf("101 presses of ? started %d renderings of the guidelines, want 1", len(rendered))
	}
	h.keys("?")
	h.at("q1", schema.Category) // closed before the rendering came back
	for _, msg := range rendered {
		h.send(msg)
	}
	// Opened again, the pop-up shows the kept rendering once its load is in.
	_, cmd := h.m.Update(keyMsg("?"))
	tuitest.Run(cmd, func(msg tea.Msg) {
		_, cmd := h.m.Update(msg)
		tuitest.Run(cmd, func(msg tea.Msg) {
			if _, ok := msg.(guideRenderedMsg); ok {
				t.Error("the guidelines were rendered again")
			}
		})
	})
	if v := h.view(); !strings.Contains(v, "category —") || strings.Contains(v, "Rendering the guidelines") {
		t.Fatalf("the kept rendering is not shown:\n%s", v)
	}
}

// TestGuidelinesOverlayShowsTheVersionInForce: the lead changes the
// category guidelines while the annotator works; the next ? shows the new
// text and its version, and the label given now records it.
func TestGuidelinesOverlayShowsTheVersionInForce(t *testing.T) {
	s := openStore(t)
	seedQA(t, s, 0)
	h := newHarness(t, s, Options{Kind: "qa"})
	h.keys("y", "?")
	if v := h.view(); !strings.Contains(v, "Guidelines · category · version 1") {
		t.Fatalf("before the change:\n%s", v)
	}
	h.keys("esc")
	if _, err := s.AddGuidelines("lead", "edit", []store.GuidelineText{{Field: "category",
		Text: "## category — Which kind of question?\n\nPick the kind the pilot agreed on.\n"}}); err != nil {
		t.Fatal(err)
	}
	h.keys("?")
	v := h.view()
	if !strings.Contains(v, "Guidelines · category · version 2 (lead, ") || !strings.Contains(v, "Pick the kind the pilot agreed on") {
		t.Fatalf("after the change, ? shows:\n%s", v)
	}
	h.keys("esc", "1")
	var gv string
	if err := storetest.DB(t, s).QueryRow("SELECT guidelines_version FROM label_events WHERE field='category'").Scan(&gv); err != nil || gv != "2" {
		t.Fatalf("the category label records guidelines version %q (%v), want 2", gv, err)
	}
}
