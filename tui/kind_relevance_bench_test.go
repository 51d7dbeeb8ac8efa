package tui

import (
	"testing"
)

// The relevance screen on a case of about 100 kB (1,000 paragraphs): the
// first frame wraps and highlights it once; scrolling and moving between
// matches only slice the lines already made, so a key is a frame away.

// benchLong opens the long case on the screen (1,200 paragraphs, ~100 kB).
func benchLong(b *testing.B) *harness {
	b.Helper()
	s := relevanceStore(b, 600, false)
	h := newHarness(b, s, Options{Kind: "relevance"})
	h.keys("g")
	h.typeText("q-1/d-long")
	h.keys("enter")
	if h.item() == nil || h.item().d.ref.ExtID != "q-1/d-long" {
		b.Fatalf("not on the long case:\n%s", h.view())
	}
	if n := len(relevanceOf(h.item().d).r.Document.Text); n < 90_000 {
		b.Fatalf("the case is %d bytes, want about 100 kB", n)
	}
	return h
}

// BenchmarkRelevanceScroll: pgdown then the frame, on the 100 kB case.
func BenchmarkRelevanceScroll(b *testing.B) {
	h := benchLong(b)
	h.m.render()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%40 == 0 {
			h.item().pane.Pane.Top()
		}
		h.keys("pgdown")
		_ = h.m.render()
	}
}

// BenchmarkRelevanceNextMatch: n to the next of 600 matches, then the frame.
func BenchmarkRelevanceNextMatch(b *testing.B) {
	h := benchLong(b)
	h.keys("/")
	h.typeText("tribunal")
	h.keys("enter")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.keys("n")
		_ = h.m.render()
	}
}

// BenchmarkRelevanceFirstFrame: a new width makes the case wrapped and
// highlighted again (what opening the item costs).
func BenchmarkRelevanceFirstFrame(b *testing.B) {
	h := benchLong(b)
	v := relevanceOf(h.item().d)
	st := h.m.e.styles
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v.lines(st, 100+i%2)
	}
}
