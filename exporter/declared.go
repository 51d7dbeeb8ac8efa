package exporter

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/annotate-dev/annotate/schema"
)

// The columns of the fields a lead declared (annotate fields add): their
// description is the declaration's (its question, scale, values' words,
// version and guidelines version), and an interval field is a number.

// declaredDoc describes a declared field for the card's field table.
func declaredDoc(f schema.Field) string {
	var b strings.Builder
	b.WriteString(strings.TrimRight(f.Question, " "))
	fmt.Fprintf(&b, " Declared field (version %d, %s scale", f.Declared, f.Level())
	if f.DeclaredGuidelines > 0 {
		fmt.Fprintf(&b, ", guidelines version %d when declared", f.DeclaredGuidelines)
	}
	b.WriteString(")")
	var words []string
	for _, v := range f.Values {
		if l := f.LabelOf(v); l != v {
			words = append(words, "`"+v+"` "+l)
		}
	}
	if len(words) > 0 {
		sep := ", "
		if f.Ordered() {
			sep = " < "
		}
		b.WriteString(": " + strings.Join(words, sep))
	}
	return b.String()
}

// numberType is an interval field's column type: whole numbers are int64,
// else float64.
func numberType(f schema.Field) string {
	for _, x := range f.Numbers() {
		if x != math.Trunc(x) {
			return TypeFloat
		}
	}
	return TypeInt
}

// numberOf is an interval label as its column's number; a value that is
// no number (kept as imported) stays text, so it is not lost.
func numberOf(typ, v string) any {
	if typ == TypeInt {
		if n, err := strconv.Atoi(v); err == nil {
			return n
		}
		return v
	}
	if x, err := strconv.ParseFloat(v, 64); err == nil {
		return x
	}
	return v
}
