package suggest

import (
	"slices"
	"strings"
)

// Match is a known name that Fuzzy found for a typed one, with its cost
// (lower is closer).
type Match struct {
	Name string
	Cost int
}

// Fuzzy ranks the known names (item ids) that a typed fragment may mean,
// closest first, at most limit of them. Case is ignored. A name that holds
// the typed characters in order (a subsequence: "g12" in "gdpr-12") comes
// before any other; among those, the one where they lie closest together,
// then the shorter name. Then come the names within Edits(typed) edits (a
// typo: "gpdr-12"), nearer first. Ties keep known's order.
func Fuzzy(typed string, known []string, limit int) []Match {
	t := []rune(strings.ToLower(typed))
	if len(t) == 0 || limit <= 0 {
		return nil
	}
	type cand struct {
		Match
		i int
	}
	var cs []cand
	maxEdits := Edits(typed)
	for i, k := range known {
		lk := strings.ToLower(k)
		if gaps, ok := subsequenceGaps(t, []rune(lk)); ok {
			// Gaps inside the match cost most; the letters around it a little.
			cost := gaps*4 + len([]rune(lk)) - len(t)
			cs = append(cs, cand{Match{k, cost}, i})
			continue
		}
		if d := Distance(string(t), lk); d <= maxEdits {
			cs = append(cs, cand{Match{k, 1 << 20 * d}, i})
		}
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return a.Cost - b.Cost })
	out := make([]Match, 0, min(limit, len(cs)))
	for _, c := range cs[:min(limit, len(cs))] {
		out = append(out, c.Match)
	}
	return out
}

// subsequenceGaps reports whether t's runes appear in k in order and, for
// the tightest such placement that starts earliest, how many runes of k lie
// between the first and the last of them and are not part of the match.
func subsequenceGaps(t, k []rune) (int, bool) {
	best, found := 0, false
	for start := range k {
		if k[start] != t[0] {
			continue
		}
		j, end := 1, start
		for p := start + 1; p < len(k) && j < len(t); p++ {
			if k[p] == t[j] {
				j, end = j+1, p
			}
		}
		if j < len(t) {
			break // no later start can match all of t either
		}
		gaps := end - start + 1 - len(t)
		if !found || gaps < best {
			best, found = gaps, true
		}
	}
	return best, found
}
