package pytext

import "testing"

// Blank against Python's own: /usr/bin/python3 (3.11) printing
// s.strip() == "" for each string.
func TestBlankAsPythonStrips(t *testing.T) {
	for s, want := range map[string]bool{
		"": true, " \t\n\r\v\f": true, "\x1c\x1d\x1e\x1f": true,
		"\u0085\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000": true,
		"\u200b": false, "\u180e": false, "\ufeff": false, "\x00": false, " a ": false,
	} {
		if Blank(s) != want {
			t.Errorf("Blank(%q) = %v, want %v", s, !want, want)
		}
	}
}
