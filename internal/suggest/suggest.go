// Package suggest finds the names close to a mistyped one, for error
// messages that say "did you mean …?".
package suggest

import (
	"slices"
	"strconv"
	"strings"
)

// Close returns the known names that match typed in another case, else
// those within maxEdits edits of it (case-insensitive), in known's order.
func Close(typed string, known []string, maxEdits int) []string {
	var same, near []string
	lt := strings.ToLower(typed)
	for _, k := range known {
		switch {
		case strings.EqualFold(k, typed):
			same = append(same, k)
		case Distance(strings.ToLower(k), lt) <= maxEdits:
			near = append(near, k)
		}
	}
	if len(same) > 0 {
		return same
	}
	return near
}

// Distance is the Levenshtein distance between two strings, by rune.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Nearest returns up to limit known names within maxEdits edits of typed,
// or that typed begins (at least two characters), nearest first, ties in
// known's order.
func Nearest(typed string, known []string, maxEdits, limit int) []string {
	type cand struct {
		name string
		d, i int
	}
	var cs []cand
	for i, k := range known {
		d := Distance(typed, k)
		if len([]rune(typed)) >= 2 && strings.HasPrefix(k, typed) {
			d = min(d, 1)
		}
		if d <= maxEdits {
			cs = append(cs, cand{k, d, i})
		}
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return a.d - b.d })
	var out []string
	for _, c := range cs[:min(limit, len(cs))] {
		out = append(out, c.name)
	}
	return out
}

// Edits is how many edits away a name may be typed and still be taken for
// a known one: 2, but 1 for names of 2 or 3 characters ("bob" is not a typo
// of "jo", "smm" is one of "sam") and 0 for one character (only its other
// case).
func Edits(typed string) int { return min(2, len([]rune(typed))/2) }

// Hint is "; did you mean "x"?" (or "x" or "y") for the known names that
// match typed in another case or within Edits(typed) edits, or "" when none
// does: the tail of a "no such name" error.
func Hint(typed string, known []string) string {
	m := Close(typed, known, Edits(typed))
	if len(m) == 0 {
		return ""
	}
	q := make([]string, len(m))
	for i, s := range m {
		q[i] = strconv.Quote(s)
	}
	list := q[0]
	if len(q) > 1 {
		list = strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
	}
	return "; did you mean " + list + "?"
}
