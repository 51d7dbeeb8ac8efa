package suggest

import (
	"fmt"
	"testing"
)

func TestFuzzy(t *testing.T) {
	ids := []string{"gdpr-1", "gdpr-12", "gdpr-120", "civil-12", "GDPR-21"}
	for _, c := range []struct {
		typed string
		want  string
	}{
		// "g12": a subsequence of gdpr-12 (gaps: d,p,r,- = 4 -> 16+4), of
		// gdpr-120 (16+5) and of civil-12? no g. gdpr-21 has 1 after 2 only.
		{"g12", "[{gdpr-12 20} {gdpr-120 21}]"},
		// "pr12": p,r adjacent, then "-" gap, 1,2: gaps 1 -> 4+3 = 7; gdpr-120: 4+4.
		{"pr12", "[{gdpr-12 7} {gdpr-120 8}]"},
		// "GDPR-12" in another case: no gap, 0 extra letters; gdpr-1 is
		// no supersequence but one edit away.
		{"GDPR-12", "[{gdpr-12 0} {gdpr-120 1} {gdpr-1 1048576}]"},
		// A typo (d and p swapped) is no subsequence: edit distance 2.
		{"gpdr-12", "[{gdpr-12 2097152}]"},
		{"zz", "[]"},
		{"", "[]"},
	} {
		got := fmt.Sprint(Fuzzy(c.typed, ids, 3))
		if got != c.want {
			t.Errorf("Fuzzy(%q) = %s, want %s", c.typed, got, c.want)
		}
	}
}

func TestSubsequenceGaps(t *testing.T) {
	// "ab" in "axxbab": the tightest placement is the last "ab" (0 gaps).
	if g, ok := subsequenceGaps([]rune("ab"), []rune("axxbab")); !ok || g != 0 {
		t.Errorf("gaps = %d, %v; want 0, true", g, ok)
	}
	if _, ok := subsequenceGaps([]rune("ba"), []rune("ab")); ok {
		t.Error("ba is not a subsequence of ab")
	}
}
