package names

import (
	"errors"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, ok := range []string{"jo", "sam.k", "jo_smith", "claimrag-expert", "Zoé", "李", "o'brien"} {
		if err := Check(ok); err != nil {
			t.Errorf("%q: %v, want a name", ok, err)
		}
	}
	for name, want := range map[string]string{
		"":               "cannot be empty",
		"   ":            "cannot be blank",
		"a,b":            `holds ',', which separates the names of a list (jo,sam) (character 2)`,
		"jo;sam":         `holds ';', which separates`,
		"jo sam":         "holds a space: a name is one word (jo, sam.k, jo_smith) (character 3)",
		"jo\u00a0sam":    "holds a space",
		"jo\tx":          "control character U+0009 (character 3)",
		"jo\x1b[2J":      "control character U+001B",
		"jo\u009b31m":    "control character U+009B",
		"jo\u202egnp":    "bidirectional control U+202E, which reorders text on a terminal (character 3)",
		"\u2066jo":       "bidirectional control U+2066, which reorders text on a terminal (character 1)",
		"jo\u200fx":      "bidirectional control U+200F",
		"jo\u2028sam":    "line or paragraph separator U+2028",
		"jo\u200bx":      "U+200B, which does not print",
		"jo\xff":         "not valid UTF-8 (character 3)",
		"\ufeffjo":       "U+FEFF, which does not print",
		"jo\u0301\u00ad": "U+00AD, which does not print",
	} {
		err := Check(name)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", name, err, want)
			continue
		}
		// The name is quoted with its offending characters escaped.
		if strings.ContainsAny(err.Error(), "\x1b\u202e\u2066\u2028\t") {
			t.Errorf("%q: the error %q holds the raw character", name, err)
		}
	}
}

func TestNew(t *testing.T) {
	known := []string{"jo", "sam", "claimrag-expert"}
	for name, want := range map[string]string{
		// Edits allowed: 2, 1 for names of 2-3 characters (suggest.Edits);
		// distances by hand (Levenshtein, case folded).
		"jo":             "",                    // known
		"JO":             `did you mean "jo"?`,  // case
		"jon":            `did you mean "jo"?`,  // 1 edit, 3 characters
		"al":             "new",                 // 2 edits from jo, but 2 characters allow 1
		"sma":            "new",                 // 2 edits from sam, 3 characters allow 1
		"samm":           `did you mean "sam"?`, // 1 edit
		"claimrag-exprt": `did you mean "claimrag-expert"?`,
		"claimrag-exp":   "new", // 3 deletions
		"kim":            "new",
		"k,im":           "which separates the names of a list",
	} {
		err := New(name, known)
		switch want {
		case "", "new":
			if err != nil {
				t.Errorf("%s: %v, want accepted", name, err)
			}
		default:
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v, want %q", name, err, want)
			}
			var c *CloseError
			if errors.As(err, &c) && !strings.Contains(err.Error(), "annotate annotator add "+name) {
				t.Errorf("%s: %v, want the add command", name, err)
			}
		}
	}
	// Numbered names are a series, not typos of each other; a number added
	// to a name without one still is.
	for _, c := range []struct {
		name  string
		known []string
		typo  bool
	}{
		{"a2", []string{"a1"}, false}, {"expert-12", []string{"expert-1"}, false}, {"jo2", []string{"jo1"}, false},
		{"A1", []string{"a1"}, true}, {"jo2", []string{"jo"}, true}, {"b1", []string{"a1"}, true},
	} {
		if err := New(c.name, c.known); (err != nil) != c.typo {
			t.Errorf("%s beside %v: %v, want typo %v", c.name, c.known, err, c.typo)
		}
	}
	err := New("Jo", []string{"jo", "JO"})
	if err == nil || !strings.Contains(err.Error(), `did you mean "jo" or "JO"? (to create "Jo" on purpose: annotate annotator add Jo)`) {
		t.Errorf("two matches: %v", err)
	}
}

// A stream of new names: the first of two close ones is taken, the second
// refused as its typo, whichever order they come in.
func TestRule(t *testing.T) {
	r := NewRule([]string{"sam"})
	for _, n := range []string{"jo", "jo", "sam", "kim"} {
		if err := r.Take(n); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
	}
	if err := r.Take("Jo"); err == nil || !strings.Contains(err.Error(), `did you mean "jo"?`) {
		t.Errorf("Jo after jo: %v", err)
	}
	if err := r.Take("kimm"); err == nil {
		t.Error("kimm (1 edit from kim) taken")
	}
	if err := r.Take("kimberly"); err != nil {
		t.Errorf("kimberly (5 edits from kim): %v", err)
	}
	if err := r.Take("jo,sam"); err == nil {
		t.Error("jo,sam taken")
	}
}

func TestShellWord(t *testing.T) {
	for in, want := range map[string]string{"jo": "jo", "Jo.k-1": "Jo.k-1", "o'brien": `'o'\''brien'`, "Zoé": "'Zoé'"} {
		if got := ShellWord(in); got != want {
			t.Errorf("ShellWord(%q) = %s, want %s", in, got, want)
		}
	}
}
