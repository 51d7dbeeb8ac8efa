package tally

import (
	"fmt"

	"github.com/annotate-dev/annotate/schema"
)

// Counts of QA pairs (ClaimRAG-LAW Table 1, extraction recall, RefChecker's
// response-level meta-evaluation).
const (
	// QAWithClaims (Anyone): pairs with at least one extracted claim.
	QAWithClaims = "qa_with_claims"
	// ValidHop: B hop. Valid pairs by hop.
	ValidHop = "valid_hop"
	// ValidGenerated: B the generated category. Valid pairs by the
	// generator's category; CategoryChanged: those the expert changed.
	ValidGenerated  = "valid_generated_category"
	CategoryChanged = "category_changed"
	// SigmaA: the paper's Σ_A, answers judged correct (of valid pairs)
	// that have claims.
	SigmaA = "sigma_a"
	// RecallAnswers: the answers extraction recall is over, those whose
	// extracted claims are asked (judged correct, or not under review) and
	// that have extracted claims (the paper's Σ_A), marked
	// missed_claims_checked; RecallNotChecked: such answers not marked;
	// RecallNoClaims: answers marked without an extracted claim (their
	// added claims are left out of the recall with them).
	RecallAnswers    = "recall_answers"
	RecallNotChecked = "recall_not_checked"
	RecallNoClaims   = "recall_no_claims"
	// Response: A system, B "k/n|j/m": one response with n claims the
	// expert judged (k of them not entailed) and m claims the system
	// judged (j not entailed). RefChecker's benchmark/evaluation/corr.py.
	Response = "response"
)

func init() {
	RegisterKind(schema.KindQA, KindRules{
		CountItem: func(c *Counter, f *Family, m *Member) {
			if hasExtracted(f) {
				c.Add(Anyone, QAWithClaims, "", "", 1)
			}
		},
		Count: countQA,
	})
}

// hasExtracted reports whether the family's answer has extracted claims.
func hasExtracted(f *Family) bool {
	for i := range f.Children {
		if extracted(&f.Children[i]) {
			return true
		}
	}
	return false
}

func countQA(c *Counter, f *Family, m *Member, r int64) {
	labels := m.Labels[r]
	counted := schema.Counted(schema.KindQA, labels, nil)
	withClaims := hasExtracted(f)
	if counted[schema.QuestionValidity] == "valid" {
		c.Add(r, ValidHop, "", m.Attrs["hop"], 1)
		gen := m.Attrs["category"]
		if g, ok := schema.Normalize(schema.Category, gen); ok {
			gen = g
		}
		if gen != "" {
			c.Add(r, ValidGenerated, "", gen, 1)
			if cat, ok := counted[schema.Category]; ok && schema.KnownValue(schema.Category, gen) && cat != gen {
				c.Add(r, CategoryChanged, "", "", 1)
			}
		}
		if counted[schema.AnswerCorrectness] == "correct" && withClaims {
			c.Add(r, SigmaA, "", "", 1)
		}
	}
	marked := counted[schema.MissedClaimsChecked] != ""
	switch {
	case !validated(counted):
		// Not an answer of Σ_A, whatever its marker.
	case !withClaims:
		if marked {
			c.Add(r, RecallNoClaims, "", "", 1)
		}
	case marked:
		c.Add(r, RecallAnswers, "", "", 1)
	default:
		c.Add(r, RecallNotChecked, "", "", 1)
	}
	countResponse(c, f, r)
}

// validated reports whether a pair's answer, given the rater's counted
// labels on it, is one whose claims are validated: judged correct (of a
// valid question), or not under review at all (no question_validity nor
// answer_correctness: imported as given, its claims asked at once). An
// answer still being judged (its correctness open) is not.
func validated(counted map[string]string) bool {
	if counted[schema.QuestionValidity] == "" && counted[schema.AnswerCorrectness] == "" {
		return true
	}
	return counted[schema.QuestionValidity] == "valid" && counted[schema.AnswerCorrectness] == "correct"
}

// countResponse adds the response-level pair of hallucination rates, as
// RefChecker's corr.py computes them: over the claims the expert judged,
// the share not entailed; over the claims the system judged, the same. A
// response without an expert-judged claim is left out, as corr.py does.
func countResponse(c *Counter, f *Family, r int64) {
	n, k := 0, 0
	type rate struct{ m, j int }
	bySystem := map[string]*rate{}
	var order []string
	for i := range f.Children {
		ch := &f.Children[i]
		if !extracted(ch) {
			continue
		}
		if e, ok := f.Counted(ch, r)[schema.Entailment]; ok && schema.KnownValue(schema.Entailment, e) {
			n++
			if e != "entailment" {
				k++
			}
		}
		for _, p := range ch.Predictions {
			if p.Field != schema.Entailment {
				continue
			}
			s := bySystem[p.System]
			if s == nil {
				s = &rate{}
				bySystem[p.System] = s
				order = append(order, p.System)
			}
			s.m++
			if v, _ := schema.Normalize(schema.Entailment, p.Value); v != "entailment" {
				s.j++
			}
		}
	}
	if n == 0 {
		return
	}
	for _, sys := range order {
		s := bySystem[sys]
		c.Add(r, Response, sys, fmt.Sprintf("%d/%d|%d/%d", k, n, s.j, s.m), 1)
	}
}
