package tally

import (
	"encoding/json"

	"github.com/annotate-dev/annotate/schema"
)

// Counts of generated answers and their claims (CanLegalRAGBench §5,
// Appendix E): accuracy and groundedness per system and condition, the
// automatic judge against the expert, the error categories of the claims,
// the answers' lengths. Every count of a claim is kept for its answer's
// system and condition, once overall (slice "") and once per persona and per
// jurisdiction of its query ("persona=lay", "jurisdiction=ON"), so `annotate
// gen --by` reads the same counts. A is GenKey(system, condition, slice).
const (
	// GenAnswers, GenChars (Anyone): generated answers, and the sum of
	// their lengths in characters.
	GenAnswers = "gen_answers"
	GenChars   = "gen_chars"
	// GenClaims (Anyone): the claims of the answers.
	GenClaims = "gen_claims"
	// GenLabel: B "field=value". The rater's counted labels of
	// accuracy_support and grounded.
	GenLabel = "gen_label"
	// GenVerdict (Anyone): B "judge|field=value". The systems' verdicts
	// (predictions) on every claim.
	GenVerdict = "gen_verdict"
	// GenPair: B "judge|field|expert|predicted". Claims with the rater's
	// counted label of the field and a verdict of the judge on it (the
	// judge's value normalised, verbatim when outside the field's values).
	GenPair = "gen_pair"
	// GenErrors: B the claim's counted error_category (a JSON array, in the
	// taxonomy's order). Categorised claims by their set of categories: the
	// report derives claims per category and per group, and assignments,
	// whatever the taxonomy's groups.
	GenErrors = "gen_errors"
)

// GenKey names a system, a condition and a slice ("" : every claim) in A.
func GenKey(system, condition, slice string) string {
	b, _ := json.Marshal([]string{system, condition, slice})
	return string(b)
}

// ParseGenKey reads a GenKey back (ok false for another A).
func ParseGenKey(a string) (system, condition, slice string, ok bool) {
	var p []string
	if json.Unmarshal([]byte(a), &p) != nil || len(p) != 3 {
		return "", "", "", false
	}
	return p[0], p[1], p[2], true
}

// Slices of a count: overall, by persona and by jurisdiction.
func slices3(attrs map[string]string) []string {
	return []string{"", AttrPersona + "=" + attrs[AttrPersona], AttrJurisdiction + "=" + attrs[AttrJurisdiction]}
}

// genClaimKind counts a generated answer's claims and their verdicts by
// system, condition and slice, and each rater's judgements of them.
type genClaimKind struct{}

func init() { Register(genClaimKind{}) }

func (genClaimKind) Kind() schema.Kind { return schema.KindGenClaim }

func (genClaimKind) CountItem(c *Counter, f *Family, m *Member) {
	for _, sl := range slices3(f.Root.Attrs) {
		k := GenKey(f.Root.Attrs[AttrSystem], f.Root.Attrs[AttrCondition], sl)
		c.Add(Anyone, GenClaims, k, "", 1)
		for _, p := range m.Predictions {
			c.Add(Anyone, GenVerdict, k, p.System+"|"+p.Field+"="+Predicted(p), 1)
		}
	}
}

func (genClaimKind) Count(c *Counter, f *Family, m *Member, r int64) {
	counted := c.Counted(m, r)
	sys, cond := f.Root.Attrs[AttrSystem], f.Root.Attrs[AttrCondition]
	for _, sl := range slices3(f.Root.Attrs) {
		k := GenKey(sys, cond, sl)
		for _, field := range []string{schema.AccuracySupport, schema.Grounded} {
			if v, ok := counted[field]; ok {
				c.Add(r, GenLabel, k, field+"="+v, 1)
			}
		}
		if v, ok := counted[schema.ErrorCategory]; ok && len(schema.DecodeMulti(v)) > 0 {
			c.Add(r, GenErrors, k, v, 1)
		}
	}
	k := GenKey(sys, cond, "")
	for _, p := range m.Predictions {
		v, ok := counted[p.Field]
		if !ok || (p.Field != schema.AccuracySupport && p.Field != schema.Grounded) {
			continue
		}
		c.Add(r, GenPair, k, p.System+"|"+p.Field+"|"+v+"|"+Predicted(p), 1)
	}
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			return n
		}
		n = n*10 + int(r-'0')
	}
	return n
}
