package tally

import (
	"unicode/utf8"

	"github.com/annotate-dev/annotate/schema"
)

// Counts of answer tasks: the gold answers and their lengths.
const (
	// GoldAnswers, GoldChars: A the slice. Answers the rater submitted (for
	// Adjudicated: the answers the lead accepted, the gold ones), and the
	// sum of their lengths in characters.
	GoldAnswers = "gold_answers"
	GoldChars   = "gold_chars"
)

// answerTaskKind counts answer tasks by persona and jurisdiction, and the
// gold answers submitted (accepted, for Adjudicated) with their lengths.
type answerTaskKind struct{}

func init() { Register(answerTaskKind{}) }

func (answerTaskKind) Kind() schema.Kind { return schema.KindAnswerTask }

func (answerTaskKind) CountItem(c *Counter, f *Family, m *Member) {
	for _, a := range []string{AttrPersona, AttrJurisdiction} {
		c.Add(Anyone, ItemsBy, string(m.Kind)+"/"+a, m.Attrs[a], 1)
	}
}

func (answerTaskKind) Count(c *Counter, f *Family, m *Member, r int64) {
	counted := c.Counted(m, r)
	text, ok := counted[schema.GoldAnswer]
	if !ok || text == "" || r == Adjudicated && counted[schema.AnswerReview] != "accept" {
		return
	}
	for _, sl := range slices3(m.Attrs) {
		c.Add(r, GoldAnswers, sl, "", 1)
		c.Add(r, GoldChars, sl, "", utf8.RuneCountInString(text))
	}
}
