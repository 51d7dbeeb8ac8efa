package suggest

import (
	"slices"
	"testing"
)

func TestDistance(t *testing.T) {
	// Textbook values: kitten→sitting needs 3 edits (k→s, e→i, +g).
	for _, c := range []struct {
		a, b string
		want int
	}{{"kitten", "sitting", 3}, {"", "abc", 3}, {"abc", "abc", 0}, {"flaw", "lawn", 2}, {"é", "e", 1}} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestClose(t *testing.T) {
	known := []string{"GDPR", "CIVIL", "gdpr-2"}
	if got := Close("gdpr", known, 2); !slices.Equal(got, []string{"GDPR"}) {
		t.Errorf("case: %v", got)
	}
	if got := Close("CIVL", known, 2); !slices.Equal(got, []string{"CIVIL"}) {
		t.Errorf("typo: %v", got)
	}
	if got := Close("penal", known, 2); got != nil {
		t.Errorf("far: %v", got)
	}
}

func TestNearest(t *testing.T) {
	known := []string{"apache-2.0", "mit", "cc-by-4.0", "cc-by-sa-4.0", "cc-by-nc-4.0", "cc0-1.0", "gpl-3.0"}
	for typed, want := range map[string][]string{
		"apache2":   {"apache-2.0"}, // 2 edits
		"cc-by-4":   {"cc-by-4.0"},  // a prefix; cc-by-sa-4.0 is 5 edits away
		"cc-by-4.1": {"cc-by-4.0"},  // 1 edit
		"mitt":      {"mit"},
		"zzzzzzzz":  nil,
	} {
		if got := Nearest(typed, known, 3, 5); !slices.Equal(got, want) {
			t.Errorf("Nearest(%q) = %v, want %v", typed, got, want)
		}
	}
}

func TestHint(t *testing.T) {
	known := []string{"jo", "sam", "Sam"}
	for typed, want := range map[string]string{
		"JO":   `; did you mean "jo"?`,
		"SAM":  `; did you mean "sam" or "Sam"?`, // both match in another case
		"smm":  `; did you mean "sam" or "Sam"?`, // 1 edit from each (case folded)
		"alex": "",                               // 4 edits from sam and from jo
	} {
		if got := Hint(typed, known); got != want {
			t.Errorf("Hint(%q) = %q, want %q", typed, got, want)
		}
	}
}
