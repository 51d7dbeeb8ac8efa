// Package pytext reads text as a benchmark's Python scripts do, where their
// reading decides something (CanLegalRAGBench's is_query_usable reads a
// reference answer with str() and .strip()).
package pytext

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
)

// Blank reports whether s is empty once Python's str.strip() has stripped
// it: whitespace in Python's sense, Go's (unicode.IsSpace) and the four
// separators U+001C–U+001F.
func Blank(s string) bool {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }) == ""
}

// Str is Python's str() of a JSON value as json.loads gives it: a
// string as it is, null "None", true "True", false "False", an integer its
// digits, a float its repr (shortest digits; fixed notation for decimal
// exponents -4 to 15, with ".0" when whole; else d.ddde±XX). false for an
// array or an object.
func Str(raw json.RawMessage) (string, bool) {
	t := strings.TrimSpace(string(raw))
	switch {
	case t == "null":
		return "None", true
	case t == "true":
		return "True", true
	case t == "false":
		return "False", true
	case strings.HasPrefix(t, `"`):
		var s string
		return s, json.Unmarshal(raw, &s) == nil
	case t == "" || strings.ContainsAny(t[:1], "[{"):
		return "", false
	case !strings.ContainsAny(t, ".eE"): // an int
		if strings.TrimLeft(t, "-0") == "" {
			return "0", true
		}
		return t, true
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return "", false
	}
	sci := strconv.FormatFloat(v, 'e', -1, 64)
	exp, _ := strconv.Atoi(sci[strings.IndexByte(sci, 'e')+1:])
	if exp < -4 || exp >= 16 {
		return sci, true
	}
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s, true
}
