package tally

import (
	"encoding/json"
	"fmt"
	"strings"

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
	// Response: one response with n claims the expert judged (k of them not
	// entailed): A "", B "k/n"; and per system that judged some of its
	// claims, A the system, B "k/n|{"extractor":[j,m],…}" (m claims of that
	// extractor judged, j not entailed). RefChecker's
	// benchmark/evaluation/corr.py.
	Response = "response"
	// ExtractorRan (Anyone): A an extractor, B "claims" or "none": responses
	// whose claims that extractor's output gave (its claims' extractor), or
	// that it found nothing in (AttrNoClaimsFrom). A report tells from it
	// the sources an extractor ran on, and an extractor that found nothing
	// anywhere (which any checker judged the same: corr.py counts its
	// responses factual with rate 0).
	ExtractorRan = "extractor_ran"
)

// AttrNoClaimsFrom, a QA pair's: the extractors that ran on its answer and
// gave no claim (RefChecker's empty <extractor>_response_kg), one a line.
const AttrNoClaimsFrom = "no_claims_from"

type qaKind struct{}

func init() { Register(qaKind{}) }

func (qaKind) Kind() schema.Kind { return schema.KindQA }

func (qaKind) CountItem(c *Counter, f *Family, m *Member) {
	if hasExtracted(f) {
		c.Add(Anyone, QAWithClaims, "", "", 1)
	}
	countExtractors(c, f)
}

func (qaKind) Count(c *Counter, f *Family, m *Member, r int64) { countQA(c, f, m, r) }

// countExtractors adds, once each, the extractors whose claims the answer
// has and those that found nothing in it.
func countExtractors(c *Counter, f *Family) {
	ran := map[string]bool{}
	for i := range f.Children {
		if ch := &f.Children[i]; extracted(ch) && !ran[ch.Attrs[AttrExtractor]] {
			ran[ch.Attrs[AttrExtractor]] = true
			c.Add(Anyone, ExtractorRan, ch.Attrs[AttrExtractor], "claims", 1)
		}
	}
	for _, x := range strings.Split(f.Root.Attrs[AttrNoClaimsFrom], "\n") {
		if x != "" && !ran[x] {
			ran[x] = true
			c.Add(Anyone, ExtractorRan, x, "none", 1)
		}
	}
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
	counted := c.Counted(m, r)
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

// countResponse adds the response-level rates, as RefChecker's corr.py
// computes them: over the claims the expert judged, the share not entailed;
// over the claims a system judged, the same, per extractor (the claim's
// AttrExtractor), so a report can pick one extractor's claims or pool them.
// A response without an expert-judged claim is left out, as corr.py does.
// Every other response is counted once under system "" (B "k/n"), so a
// report can count, as corr.py does, a response whose extractor gave no
// claim (no prediction of the system) as factual with rate 0.
func countResponse(c *Counter, f *Family, r int64) {
	n, k := 0, 0
	bySystem := map[string]map[string]*[2]int{} // system -> extractor -> [not entailed, judged]
	var order []string
	for i := range f.Children {
		ch := &f.Children[i]
		if !extracted(ch) {
			continue
		}
		if e, ok := c.Counted(ch, r)[schema.Entailment]; ok && schema.KnownValue(schema.Entailment, e) {
			n++
			if e != "entailment" {
				k++
			}
		}
		for _, p := range ch.Predictions {
			if p.Field != schema.Entailment {
				continue
			}
			per := bySystem[p.System]
			if per == nil {
				per = map[string]*[2]int{}
				bySystem[p.System] = per
				order = append(order, p.System)
			}
			x := ch.Attrs[AttrExtractor]
			rt := per[x]
			if rt == nil {
				rt = &[2]int{}
				per[x] = rt
			}
			rt[1]++
			if v, _ := schema.Normalize(schema.Entailment, p.Value); v != "entailment" {
				rt[0]++
			}
		}
	}
	if n == 0 {
		return
	}
	c.Add(r, Response, "", fmt.Sprintf("%d/%d", k, n), 1)
	for _, sys := range order {
		c.Add(r, Response, sys, fmt.Sprintf("%d/%d|%s", k, n, ResponseParts(bySystem[sys])), 1)
	}
}

// ResponseParts encodes a system's rates per extractor as a Response key's
// tail: a JSON object, extractor -> [not entailed, judged], keys sorted.
func ResponseParts(per map[string]*[2]int) string {
	m := make(map[string][2]int, len(per))
	for x, rt := range per {
		m[x] = *rt
	}
	b, _ := json.Marshal(m)
	return string(b)
}
