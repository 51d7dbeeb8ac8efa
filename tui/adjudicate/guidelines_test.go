package adjudicate

import (
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
)

// TestHelpShowsTheGuidelinesInForce: the review's ? names the versions the
// lead decides under, read from the database when it opens, so a change
// made while the screen is open shows on the next ?.
func TestHelpShowsTheGuidelinesInForce(t *testing.T) {
	s := openStore(t)
	seedClaims(t, s, 2, func(int) string { return "entailment" }, func(int) map[string]map[string]string {
		return map[string]map[string]string{"jo": {"claim_validity": "correct", "entailment": "neutral"}, "sam": {"claim_validity": "correct", "entailment": "entailment"}}
	})
	h := newHarness(t, s, Options{Lead: "lead"}, 120, 40)
	h.keys("?")
	if got := h.screen(); !strings.Contains(got, "Guidelines in force: version 1 of every field, as shipped") {
		t.Fatalf("help before any change:\n%s", got)
	}
	h.keys("esc")
	if _, err := s.AddGuidelines("lead", "edit", []store.GuidelineText{{Field: "entailment", Text: "## entailment — Is it entailed?\n\nA new rule.\n"}}); err != nil {
		t.Fatal(err)
	}
	h.keys("?")
	got := h.screen()
	if !strings.Contains(got, "Guidelines in force: entailment v2 (lead, ") || !strings.Contains(got, "every other field v1") {
		t.Fatalf("help after entailment's version 2:\n%s", got)
	}
}
