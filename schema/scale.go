package schema

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/annotate-dev/annotate/internal/suggest"
)

// Scale is a field's level of measurement: how its values relate to each
// other. It decides which agreement statistics fit the field
// (docs/metrics.md) and how its values map to ordered numbers. The zero
// Scale is the default: nominal for a field with values, text for one
// without.
type Scale struct {
	Level Level
	// Min and Max bound the values of an interval scale; both 0: no bounds
	// were given.
	Min, Max float64
}

// Level names a scale.
type Level string

// The levels a field's scale may have.
const (
	// Nominal values are names (persona, entailment): two labels agree or
	// they do not.
	Nominal Level = "nominal"
	// Ordinal values are ranked in the order the field declares them
	// (Values[0] lowest): a graded relevance 0 < 1 < 2. A disagreement
	// weighs by how far apart the two values are in that order.
	Ordinal Level = "ordinal"
	// Interval values are numbers, declared in increasing order, whose
	// differences mean something (a 1–5 rating read as numbers).
	Interval Level = "interval"
	// Boolean fields have two values (yes/no); their statistics are the
	// nominal ones, which two values make all the same.
	Boolean Level = "boolean"
	// Text fields are free text (a gold answer): no agreement is computed.
	Text Level = "text"
)

// Levels lists the levels, for messages and a file's validation.
var Levels = []Level{Nominal, Ordinal, Interval, Boolean, Text}

// Level is the field's level of measurement: its scale's, or the default
// (text without values, nominal with).
func (f Field) Level() Level {
	switch {
	case f.Scale.Level != "":
		return f.Scale.Level
	case len(f.Values) == 0:
		return Text
	}
	return Nominal
}

// Ordered reports whether the field's values are ranked (ordinal or
// interval), so the statistics that weigh a disagreement by distance fit.
func (f Field) Ordered() bool {
	l := f.Level()
	return l == Ordinal || l == Interval
}

// Numbers returns the number each of the field's values stands for, in the
// order of Values: on an interval scale the value read as a number, on an
// ordinal one its rank (0, 1, 2, …: the declared order); nil on the other
// scales. Register has checked that an interval field's values are numbers.
func (f Field) Numbers() []float64 {
	if !f.Ordered() {
		return nil
	}
	out := make([]float64, len(f.Values))
	for i, v := range f.Values {
		out[i] = float64(i)
		if f.Level() == Interval {
			out[i], _ = strconv.ParseFloat(v, 64)
		}
	}
	return out
}

// Compared reports whether agreement is measured on the field: one value
// of a closed list per label, given by an annotator: an asked field, or a
// marker that records a judgment on an ordered scale (a graded pool's
// relevance_grade, set with relevance by one key).
func (f Field) Compared() bool {
	return !f.Multi && len(f.Values) > 0 && (!f.Marker || f.Ordered())
}

// CheckScale says what is wrong with the field's declared scale given its
// values, nil when nothing is (the default scale always fits): a known
// level; a nominal, ordinal, interval or boolean field has at least two
// values (a boolean exactly two), an ordered or boolean one a single value
// per label, a text field none; an interval field's values are distinct
// numbers in increasing order, within its bounds; only an interval scale
// has bounds.
func (f Field) CheckScale() error {
	l := f.Scale.Level
	if l == "" {
		return nil
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("field %s, %s scale: %s", f.Name, l, fmt.Sprintf(format, a...))
	}
	switch l {
	case Text:
		if len(f.Values) > 0 {
			return bad("free text has no values, this field has %d", len(f.Values))
		}
	case Nominal, Ordinal, Interval, Boolean:
		if len(f.Values) < 2 {
			return bad("needs at least two values, has %d", len(f.Values))
		}
		if f.Multi && l != Nominal {
			return bad("a label holds one value, not a list")
		}
	default:
		names := make([]string, len(Levels))
		for i, x := range Levels {
			names[i] = string(x)
		}
		return fmt.Errorf("field %s: unknown scale %q%s (known: %s)", f.Name, l, suggest.Hint(string(l), names), strings.Join(names, ", "))
	}
	if l == Boolean && len(f.Values) != 2 {
		return bad("has two values, not %d", len(f.Values))
	}
	bounded := f.Scale.Min != 0 || f.Scale.Max != 0
	if l != Interval {
		if bounded {
			return bad("only an interval scale has bounds")
		}
		return nil
	}
	if bounded && f.Scale.Min >= f.Scale.Max {
		return bad("the lower bound %g is not below the upper bound %g", f.Scale.Min, f.Scale.Max)
	}
	prev := 0.0
	for i, v := range f.Values {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return bad("the values are numbers; %q is not", v)
		}
		if bounded && (x < f.Scale.Min || x > f.Scale.Max) {
			return bad("the value %s is outside the bounds %g to %g", v, f.Scale.Min, f.Scale.Max)
		}
		if i > 0 && x <= prev {
			return bad("the values go in increasing order; %s comes after %s", v, f.Values[i-1])
		}
		prev = x
	}
	return nil
}
