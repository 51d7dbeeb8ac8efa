package schema

import (
	"fmt"
	"slices"
	"strings"
)

// CheckChange says whether a new declaration of a field may replace its
// current one (old), given the field's stored labels by value (every
// annotator's and the lead's current labels): nil when it orphans none. A
// declared field keeps its kind once it has labels; its scale stays closed
// (or free text) once it has labels; a value that labels hold stays; and
// on an ordered scale the values labels hold keep their order, which is
// what those labels mean. The error names the new file's line.
func CheckChange(old, d Declaration, labels map[string]int) error {
	total := 0
	for _, n := range labels {
		total += n
	}
	if total == 0 {
		return nil
	}
	has := fmt.Sprintf("%s has %s", d.Field, plural(total, "label"))
	if old.Kind != d.Kind {
		return d.fail("kind", "%s declared on %s (version %d): a field with labels keeps its kind; declare a field of another name on %s", has, old.Kind, old.Version, d.Kind)
	}
	if (old.Scale == Text) != (d.Scale == Text) {
		return d.fail("scale", "%s of its %s scale (version %d): they would not be %s; declare a field of another name", has, old.Scale, old.Version,
			map[bool]string{true: "free text", false: "values of a list"}[d.Scale == Text])
	}
	// Where the values are: their list, or for an interval scale that
	// lists none, the bound that made them.
	at := "values"
	if d.lines["values"] == 0 && d.lines["max"] != 0 {
		at = "max"
	}
	var gone, counted []string // the values with labels removed; each with its count
	for _, v := range old.ValueNames() {
		if n := labels[v]; n > 0 && !slices.Contains(d.ValueNames(), v) {
			gone = append(gone, v)
			counted = append(counted, fmt.Sprintf("%s (%s)", v, plural(n, "label")))
		}
	}
	switch len(gone) {
	case 0:
	case 1:
		return d.fail(at, "the value %s (version %d) has %s: it stays, or they would hold no value of the field (a value renamed is a value removed)", gone[0], old.Version, plural(labels[gone[0]], "label"))
	default:
		return d.fail(at, "values of version %d that labels hold are gone: %s; they stay, or those labels would hold no value of the field (a value renamed is a value removed)", old.Version, strings.Join(counted, ", "))
	}
	if d.Scale == Ordinal || d.Scale == Interval {
		var before, after []string
		for _, v := range old.ValueNames() {
			if labels[v] > 0 {
				before = append(before, v)
			}
		}
		for _, v := range d.ValueNames() {
			if labels[v] > 0 {
				after = append(after, v)
			}
		}
		if !slices.Equal(before, after) {
			return d.fail(at, "the values with labels were in the order %s (version %d), now %s: on an %s scale the order is what the labels mean",
				strings.Join(before, " < "), old.Version, strings.Join(after, " < "), d.Scale)
		}
	}
	return nil
}

// Changes says in words what a new declaration changes from the current
// one, for the field's history ("value unsure added", "label of exact
// reworded"); nil when nothing does.
func Changes(old, d Declaration) []string {
	var out []string
	say := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	if old.Kind != d.Kind {
		say("kind %s, was %s", d.Kind, old.Kind)
	}
	if old.Question != d.Question {
		say("question reworded")
	}
	if old.Scale != d.Scale {
		say("scale %s, was %s", d.Scale, old.Scale)
	}
	if bound(old.Min) != bound(d.Min) || bound(old.Max) != bound(d.Max) {
		say("bounds %s to %s", bound(d.Min), bound(d.Max))
	}
	oldValues, newValues := old.ValueNames(), d.ValueNames()
	for _, v := range newValues {
		if !slices.Contains(oldValues, v) {
			say("value %s added", v)
		}
	}
	for _, v := range oldValues {
		if !slices.Contains(newValues, v) {
			say("value %s removed", v)
		}
	}
	var kept []string
	for _, v := range oldValues {
		if slices.Contains(newValues, v) {
			kept = append(kept, v)
		}
	}
	var keptNew []string
	for _, v := range newValues {
		if slices.Contains(oldValues, v) {
			keptNew = append(keptNew, v)
		}
	}
	if !slices.Equal(kept, keptNew) {
		say("values reordered")
	}
	for _, nv := range d.Values {
		for _, ov := range old.Values {
			if ov.Value != nv.Value {
				continue
			}
			if ov.Key != nv.Key {
				say("key of %s %s, was %s", nv.Value, nv.Key, ov.Key)
			}
			if ov.Label != nv.Label {
				say("label of %s reworded", nv.Value)
			}
			if ov.Meaning != nv.Meaning {
				say("meaning of %s reworded", nv.Value)
			}
		}
	}
	if old.AskedAfter != d.AskedAfter || !slices.Equal(old.AskedWhen, d.AskedWhen) {
		say("asked %s", d.askedText())
	}
	if old.Required != d.Required {
		say("%s", map[bool]string{true: "required", false: "optional"}[d.Required])
	}
	if old.Guidelines != d.Guidelines {
		say("guidelines changed")
	}
	if frenchOf(old) != frenchOf(d) {
		say("French texts changed")
	}
	return out
}

// askedText says when the field is asked, in words.
func (d Declaration) askedText() string {
	switch {
	case d.AskedAfter == "":
		return "after the kind's last field, always"
	case len(d.AskedWhen) == 0:
		return "after " + d.AskedAfter + ", always"
	}
	return "after " + d.AskedAfter + ", when it is " + strings.Join(d.AskedWhen, " or ")
}

// AskedText says when the field is asked, in words ("after
// answer_correctness, when it is correct or partially_correct").
func (d Declaration) AskedText() string { return d.askedText() }

func frenchOf(d Declaration) string {
	if d.French == nil {
		return ""
	}
	return fmt.Sprintf("%q", *d.French)
}

func bound(x *float64) string {
	if x == nil {
		return "none"
	}
	return fmt.Sprintf("%g", *x)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
