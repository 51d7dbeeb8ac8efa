package tally

import (
	"strconv"

	"github.com/annotate-dev/annotate/schema"
)

// Counts of claims (extraction accuracy and recall, verification against a
// system, the paper's Σ_C).
const (
	// SigmaC: the paper's Σ_C, extracted claims of answers judged correct.
	SigmaC = "sigma_c"
	// Step: B the first step at which an extracted, asked claim with a
	// claim_validity label leaves the verification, or StepReady.
	Step = "verification_step"
	// Pair: A system, B "expert|system" (the system's value normalised,
	// verbatim when outside the classes). Claims ready for verification
	// with a prediction of the system.
	Pair = "verification_pair"
	// RecallCorrect: extracted claims judged correct of the answers
	// RecallAnswers counts; RecallAdded: claims the rater added (or, for
	// adjudication, kept) to those same answers; Added: every standing
	// added claim.
	RecallCorrect = "recall_correct"
	RecallAdded   = "recall_added"
	Added         = "claims_added"
)

// Verification steps, in the order a claim is checked.
const (
	StepUnknownValidity   = "unknown_claim_validity"
	StepJudgedIncorrect   = "judged_incorrect"
	StepNoEntailment      = "no_entailment"
	StepUnknownEntailment = "unknown_entailment"
	StepReady             = "ready"
)

// Claim attributes the store loads.
const (
	AttrOrigin   = "origin"   // "extracted" | "annotator"
	AttrAddedBy  = "added_by" // annotator id of an added claim
	AttrPosition = "position" // order within the answer
	// AttrAsGiven, a QA pair's: "1" when it was imported as given (its
	// answer is a system response, not under review): its claims are
	// asked at once.
	AttrAsGiven = "as_given"
	// AttrExtractor names the extractor whose output the claim is ("" when
	// the input did not say).
	AttrExtractor = "extractor"
)

type claimKind struct{}

func init() { Register(claimKind{}) }

func (claimKind) Kind() schema.Kind                               { return schema.KindClaim }
func (claimKind) Queueable(m *Member) bool                        { return extracted(m) }
func (claimKind) Finished(f *Family, m *Member, r int64) bool     { return claimFinished(f, m, r) }
func (claimKind) Count(c *Counter, f *Family, m *Member, r int64) { countClaim(c, f, m, r) }

func extracted(m *Member) bool { return m.Attrs[AttrOrigin] != "annotator" }

// claimFinished: the last extracted claim of an answer is finished only once
// the answer is marked missed_claims_checked, so the missed-claims step is
// resumed after a restart.
func claimFinished(f *Family, m *Member, r int64) bool {
	if !isLast(f, m) {
		return true
	}
	return f.Root.Labels[r][schema.MissedClaimsChecked] != ""
}

// isLast reports whether m is the extracted claim with the highest position
// (then id) of its answer.
func isLast(f *Family, m *Member) bool {
	var last *Member
	for i := range f.Children {
		ch := &f.Children[i]
		if !extracted(ch) {
			continue
		}
		if last == nil || position(ch) > position(last) || position(ch) == position(last) && ch.ID > last.ID {
			last = ch
		}
	}
	return last != nil && last.ID == m.ID
}

func position(m *Member) int {
	n, _ := strconv.Atoi(m.Attrs[AttrPosition])
	return n
}

func countClaim(c *Counter, f *Family, m *Member, r int64) {
	pc := c.Counted(&f.Root, r)
	// The answers extraction recall is over: marked, with extracted claims,
	// validated (as RecallAnswers).
	marked := pc[schema.MissedClaimsChecked] != "" && hasExtracted(f) && validated(pc)
	if !extracted(m) {
		if m.Labels[r][schema.ClaimAdded] != "yes" || (r != Adjudicated && m.Attrs[AttrAddedBy] != strconv.FormatInt(r, 10)) {
			return
		}
		c.Add(r, Added, "", "", 1)
		if marked {
			c.Add(r, RecallAdded, "", "", 1)
		}
		return
	}
	if pc[schema.QuestionValidity] == "valid" && pc[schema.AnswerCorrectness] == "correct" {
		c.Add(r, SigmaC, "", "", 1)
	}
	step, entailment := verify(c.rd, m, r)
	if step == "" {
		return // not asked (counted apart as Gated) or not judged yet
	}
	c.Add(r, Step, "", step, 1)
	if marked && step != StepUnknownValidity && step != StepJudgedIncorrect {
		c.Add(r, RecallCorrect, "", "", 1)
	}
	if step != StepReady {
		return
	}
	for _, p := range m.Predictions {
		if p.Field == schema.Entailment {
			c.Add(r, Pair, p.System, entailment+"|"+Predicted(p), 1)
		}
	}
}

// Verify is the one rule of what enters the verification of a system
// against a rater (metrics' Table 3 and review's expert-versus-system
// view): an extracted claim asked of the rater, labelled correct, with an
// entailment label in the classes. It returns the step at which the claim
// leaves (StepReady when it does not) and the rater's entailment; step ""
// for a claim not asked or without a claim_validity label.
func Verify(f *Family, m *Member, r int64) (step, entailment string) {
	return verify(newReadings(f), m, r)
}

func verify(rd *readings, m *Member, r int64) (step, entailment string) {
	if !extracted(m) {
		return "", ""
	}
	gate := rd.gate(m, r)
	if m.Kind != schema.KindClaim { // the rule is the claim kind's, whatever m is
		gate = schema.ParentGate(schema.KindClaim, rd.f.ParentLabels(m, r))
	}
	if gate != "" {
		return "", ""
	}
	counted := rd.countedOf(m, r)
	validity, ok := counted[schema.ClaimValidity]
	if !ok {
		return "", ""
	}
	entailment, hasEntailment := counted[schema.Entailment]
	switch {
	case !schema.KnownValue(schema.ClaimValidity, validity):
		return StepUnknownValidity, ""
	case validity != "correct":
		return StepJudgedIncorrect, ""
	case !hasEntailment:
		return StepNoEntailment, ""
	case !schema.KnownValue(schema.Entailment, entailment):
		return StepUnknownEntailment, ""
	}
	return StepReady, entailment
}

// OtherClass names the column of a system's values outside the classes.
const OtherClass = "other"

// Predicted is a system's value as the verification reads it: normalised
// like an imported label, verbatim when outside the classes.
func Predicted(p Prediction) string {
	v, _ := schema.Normalize(p.Field, p.Value)
	return v
}
