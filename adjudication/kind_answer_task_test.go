package adjudication

import (
	"testing"

	"github.com/annotate-dev/annotate/schema"
)

// TestAnswerState walks the review states of one answer (text "A", cited
// "[\"s1\"]", set by event 10) through the adjudications a lead can make.
func TestAnswerState(t *testing.T) {
	a := Answer{Text: "A", Citations: `["s1"]`, Event: 10}
	accepted := map[string]string{schema.AnswerReview: "accept", schema.GoldAnswer: "A", schema.Citations: `["s1"]`}
	for _, c := range []struct {
		name         string
		final        map[string]string
		reviewEvent  int64
		state, cause string
	}{
		{"never reviewed", map[string]string{}, 0, AnswerPending, ""},
		{"accepted", accepted, 11, AnswerAccepted, ""},
		{"accepted, then the answer changed", accepted, 9, AnswerPending, ""},
		{"rejected", map[string]string{schema.AnswerReview: "reject", schema.RejectReason: "wrong_law"}, 12, AnswerRejected, "wrong_law"},
		{"another answer accepted", map[string]string{schema.AnswerReview: "accept", schema.GoldAnswer: "B", schema.Citations: `["s1"]`}, 12, AnswerOther, ""},
		{"same text, other citations", map[string]string{schema.AnswerReview: "accept", schema.GoldAnswer: "A", schema.Citations: `["s2"]`}, 12, AnswerOther, ""},
	} {
		state, reason := AnswerState(a, c.final, map[string]int64{schema.AnswerReview: c.reviewEvent})
		if state != c.state || reason != c.cause {
			t.Errorf("%s: AnswerState = %q, %q; want %q, %q", c.name, state, reason, c.state, c.cause)
		}
	}
}
