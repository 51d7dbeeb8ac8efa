package adjudication

import "github.com/annotate-dev/annotate/schema"

// The lead's review of gold answers: each expert's answer to an answer task
// is pending, accepted, rejected, or passed over for another's.

// Review states of one expert's answer.
const (
	AnswerPending  = ""         // never reviewed, or the answer changed since
	AnswerAccepted = "accepted" // this answer is the gold one
	AnswerRejected = "rejected"
	AnswerOther    = "other" // another expert's answer to the task was accepted
)

// Answer is one expert's submitted answer as the review sees it.
type Answer struct {
	Text      string // gold_answer
	Citations string // citations, as stored
	Event     int64  // the event of the answer's current gold_answer
}

// AnswerState is the review state of an answer given the task's
// adjudicated labels (final) and the events that set them, and the reject
// reason when rejected. A review older than the answer leaves it pending;
// an acceptance is this answer's when the gold answer and the citations
// are the ones it submitted.
func AnswerState(a Answer, final map[string]string, events map[string]int64) (state, reason string) {
	switch {
	case final[schema.AnswerReview] == "" || events[schema.AnswerReview] < a.Event:
		return AnswerPending, ""
	case final[schema.AnswerReview] == "reject":
		return AnswerRejected, final[schema.RejectReason]
	case final[schema.GoldAnswer] == a.Text && final[schema.Citations] == a.Citations:
		return AnswerAccepted, ""
	}
	return AnswerOther, ""
}
