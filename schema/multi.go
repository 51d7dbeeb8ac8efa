package schema

import (
	"encoding/json"
	"slices"
	"strings"
)

// Multi-valued fields (error_category, citations) hold several values. The
// label log keeps them as one value, a JSON array of strings: in the
// taxonomy's order and without repeats for a field with values, in the
// order given (blank and repeated entries dropped) for free values such as
// citations. A multi-valued label is a JSON array in label files, exports
// and JSON output (docs/json.md).

// EncodeMulti is the stored form of several values: a JSON array.
func EncodeMulti(values []string) string {
	if values == nil {
		values = []string{}
	}
	b, _ := json.Marshal(values)
	return string(b)
}

// DecodeMulti reads a stored multi value; a value that is not a JSON array
// of strings (a label kept verbatim) is one element.
func DecodeMulti(v string) []string {
	var out []string
	if strings.HasPrefix(strings.TrimSpace(v), "[") && json.Unmarshal([]byte(v), &out) == nil {
		return out
	}
	if strings.TrimSpace(v) == "" {
		return []string{}
	}
	return []string{v}
}

// splitMulti reads what a file or a screen gives for a multi-valued field:
// a JSON array of strings, or text with one value per line (or separated
// by semicolons).
func splitMulti(v string) ([]string, bool) {
	t := strings.TrimSpace(v)
	if strings.HasPrefix(t, "[") {
		var out []string
		if json.Unmarshal([]byte(t), &out) != nil {
			return nil, false
		}
		return out, true
	}
	return strings.FieldsFunc(t, func(r rune) bool { return r == '\n' || r == ';' }), true
}

// normalizeMulti is NormalizeFor of a multi-valued field. Each element of a
// field with values is normalised like a single value; the result is known
// when every element is. An element outside the values is kept verbatim
// (and the whole is not known), so nothing the file said is lost.
func normalizeMulti(f Field, v string) (string, bool) {
	parts, ok := splitMulti(v)
	if !ok {
		return strings.TrimSpace(v), false
	}
	known := true
	var out []string
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if len(f.Values) > 0 {
			c, k := NormalizeFor(Field{Values: f.Values, Synonyms: f.Synonyms}, p)
			known = known && k
			p = c
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	if len(f.Values) > 0 {
		order := func(s string) int {
			if i := slices.Index(f.Values, s); i >= 0 {
				return i
			}
			return len(f.Values)
		}
		slices.SortStableFunc(out, func(a, b string) int { return order(a) - order(b) })
	}
	return EncodeMulti(out), known
}
