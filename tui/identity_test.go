package tui

import (
	"strings"
	"testing"
)

// A name that did not exist before the screen opened is said on home, so a
// typo shows; the first key clears it. A known annotator sees no such line.
func TestHomeSaysNewAnnotator(t *testing.T) {
	s := openStore(t)
	seedQA(t, s)
	h := newHarness(t, s, Options{Annotator: "lea", NewAnnotator: true})
	if v := h.view(); !strings.Contains(v, "new annotator lea") {
		t.Fatalf("home of a new annotator:\n%s", v)
	}
	h.keys("down")
	if v := h.view(); strings.Contains(v, "new annotator") {
		t.Errorf("the notice outlived a key:\n%s", v)
	}
	h2 := newHarness(t, s, Options{Annotator: "lea"})
	if v := h2.view(); strings.Contains(v, "new annotator") {
		t.Errorf("a known annotator is told they are new:\n%s", v)
	}
}
